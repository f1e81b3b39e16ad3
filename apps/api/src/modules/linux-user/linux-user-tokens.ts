// The Linux-user portal's tokens: `lut_` and an HS256 JWT under a key of their own (derived from
// the server's secret; another audience than the owner's), naming the workspace user, its service
// and a fingerprint of its password hash as the token was issued. The portal's guard reads the
// user on every request and compares the fingerprint, so a new password (the user's or the
// owner's) or a deactivation ends every older token at its next request; nothing is stored.
// Only the current secret's key signs and verifies: the signer chooses a token's times, so a
// previous (perhaps leaked) key accepted would mint valid tokens for as long as it stays in
// JWT_SECRET_PREVIOUS; after a rotation a portal user signs in again.
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import { LINUX_USER_TOKEN_PREFIX, LINUX_USER_TOKEN_TTL_S } from '@debesis/contract';
import { deriveServerKey, serverSecrets, type ServerSecret } from '../../crypto/server-keys.ts';
import { signedPayload } from '../auth/tokens.ts';

const ISSUER = 'debesis';
const AUDIENCE = 'debesis-linux-user';

export interface LinuxUserClaims {
  userId: string;
  serviceId: string;
  /** passwordFingerprint() of the hash the user signed in with. */
  password: string;
}

/** 64 bits of the SHA-256 of a password hash: enough to tell a change, nothing to guess from. */
export const passwordFingerprint = (passwordCrypt: string) =>
  createHash('sha256').update(passwordCrypt).digest('hex').slice(0, 16);

export function createLinuxUserTokens(serverSecret: ServerSecret, now: () => Date) {
  const key = deriveServerKey(
    serverSecrets(serverSecret).current,
    'debesis linux-user portal',
    'access token',
  );
  return {
    async sign(claims: LinuxUserClaims): Promise<string> {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const jwt = await new SignJWT({ svc: claims.serviceId, pwf: claims.password, typ: 'linux-user' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + LINUX_USER_TOKEN_TTL_S)
        .sign(key);
      return `${LINUX_USER_TOKEN_PREFIX}${jwt}`;
    },
    /** The claims of a valid, unexpired portal token, else null. */
    verify(token: string): LinuxUserClaims | null {
      if (!token.startsWith(LINUX_USER_TOKEN_PREFIX)) return null;
      const payload = signedPayload(token.slice(LINUX_USER_TOKEN_PREFIX.length), key);
      if (!payload) return null;
      const { iss, aud, sub, svc, pwf, typ, iat, exp } = payload;
      const at = Math.floor(now().getTime() / 1000);
      if (
        iss !== ISSUER ||
        aud !== AUDIENCE ||
        typ !== 'linux-user' ||
        typeof sub !== 'string' ||
        typeof svc !== 'string' ||
        typeof pwf !== 'string' ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        exp <= at ||
        iat > at ||
        exp - iat > LINUX_USER_TOKEN_TTL_S
      ) {
        return null;
      }
      return { userId: sub, serviceId: svc, password: pwf };
    },
  };
}

export type LinuxUserTokens = ReturnType<typeof createLinuxUserTokens>;
