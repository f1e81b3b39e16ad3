// Access tokens are short-lived signed JWTs naming the user and the session; refresh tokens
// and mailed link tokens are random, opaque, and stored only as SHA-256 hashes.
//
// Access tokens are signed and verified with JWT_SECRET alone, never with JWT_SECRET_PREVIOUS: a
// secret is rotated because it leaked, and the signer chooses `iat`, so a previous secret accepted
// would let whoever holds it mint fresh tokens for as long as it stays configured (not just for
// the 15 minutes real ones have left). The cost is one refresh: the web app answers a 401 with one
// (api/interceptors.ts), and refresh tokens are opaque rows, untouched by a rotation.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;
export const VERIFY_EMAIL_TTL_MS = 24 * 60 * 60_000;
export const RESET_PASSWORD_TTL_MS = 60 * 60_000;

const ISSUER = 'debesis';
const AUDIENCE = 'debesis-api';
/**
 * Every claim `sign` writes must be present: a token without `exp` would never expire, and one
 * without `iat` or `sid` is not one we issued, whatever its signature.
 */
const REQUIRED_CLAIMS = ['iss', 'aud', 'sub', 'iat', 'exp', 'sid', 'typ'];

/**
 * The header `sign` writes, as encoded: a token with any other header (another algorithm, `crit`,
 * a key id) is not one we issued. Verifying is node:crypto's HMAC, synchronous: jose verifies
 * through WebCrypto, which on Node cost ~0.2 ms of CPU per signed-in request (a fifth of
 * `/users/me` on PostgreSQL); signing, once per sign-in, stays with jose.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

/** The payload of a well-formed, correctly signed HS256 token, else null. */
export function signedPayload(token: string, key: Uint8Array): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const [header, body = '', signature = ''] = parts;
  const expected = Buffer.from(createHmac('sha256', key).update(`${header}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export function createAccessTokens(secret: string, now: () => Date = () => new Date()) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: AccessClaims): Promise<string> {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({ sid: claims.sessionId, typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_S)
        .sign(key);
    },
    /** The claims of a valid token, or null for anything else (expired, forged, malformed). */
    async verify(token: string): Promise<AccessClaims | null> {
      const payload = signedPayload(token, key);
      if (!payload || REQUIRED_CLAIMS.some((claim) => payload[claim] === undefined)) return null;
      const at = Math.floor(now().getTime() / 1000);
      const { iss, aud, sub, sid, typ, iat, exp, nbf } = payload;
      if (
        iss !== ISSUER ||
        !(aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE))) ||
        typ !== 'access' ||
        typeof sub !== 'string' ||
        typeof sid !== 'string' ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        // Expired, issued in the future, or older than an access token lives.
        exp <= at ||
        iat > at ||
        at - iat > ACCESS_TOKEN_TTL_S ||
        (nbf !== undefined && (typeof nbf !== 'number' || nbf > at)) ||
        // Nothing we sign lives longer than an access token's lifetime.
        exp - iat > ACCESS_TOKEN_TTL_S
      ) {
        return null;
      }
      return { userId: sub, sessionId: sid };
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
