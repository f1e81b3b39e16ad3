// Access tokens are short-lived signed JWTs naming the user and the session; refresh tokens
// and mailed link tokens are random, opaque, and stored only as SHA-256 hashes.
import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

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
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: REQUIRED_CLAIMS,
          maxTokenAge: ACCESS_TOKEN_TTL_S,
          currentDate: now(),
        });
        if (
          payload.typ !== 'access' ||
          typeof payload.sub !== 'string' ||
          typeof payload.sid !== 'string' ||
          typeof payload.iat !== 'number' ||
          typeof payload.exp !== 'number' ||
          // Nothing we sign lives longer than an access token's lifetime.
          payload.exp - payload.iat > ACCESS_TOKEN_TTL_S
        ) {
          return null;
        }
        return { userId: payload.sub, sessionId: payload.sid };
      } catch {
        return null;
      }
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
