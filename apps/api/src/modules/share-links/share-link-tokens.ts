// A share link's secrets. The token in its URL is 256 random bits; the database keeps its SHA-256
// (to find the link) and a copy sealed with AES-256-GCM under a key derived from the server's
// secret (so the owner can copy the URL again), never the token itself: a copy of the database
// alone opens no link. A rotated secret still opens the copies while it is among
// JWT_SECRET_PREVIOUS; a server that lost the secret cannot unseal them any more: its links still
// work (they are found by their hash) but their URLs can no longer be shown (`url: null`).
//
// A visitor who gave a link's password gets a grant: the link's id and an expiry, signed with
// HMAC-SHA256 under another derived key, kept in a cookie scoped to that link's path. Nothing of
// it is stored, so any API process accepts it. Only the current secret's key is: the signer
// chooses a grant's expiry, so a previous (perhaps leaked) key accepted would let whoever holds
// it mint grants for as long as it stays configured; a visitor types the password again instead.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createSealer,
  deriveServerKey,
  deriveServerKeys,
  serverSecrets,
  type ServerSecret,
} from '../../crypto/server-keys.ts';

export const newShareToken = () => randomBytes(32).toString('base64url');

export const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long a grant lasts (never past the link's own expiry, which is checked on every request). */
export const SHARE_GRANT_TTL_MS = 60 * 60_000;

export interface ShareLinkKeys {
  seal(token: string): string;
  /** The token, or undefined when it was sealed under none of the server's keys (or is damaged). */
  unseal(sealed: string): string | undefined;
  grant(linkId: string, expiresAt: Date): string;
  /** Whether `value` is a grant for `linkId` that has not run out at `now`. */
  granted(value: string | undefined, linkId: string, now: Date): boolean;
}

/** The sealer of links' tokens (also `ops secrets reseal`'s). */
export const shareTokenSealer = (serverSecret: ServerSecret) =>
  createSealer(deriveServerKeys(serverSecret, 'debesis share links', 'token seal'));

export function createShareLinkKeys(serverSecret: ServerSecret): ShareLinkKeys {
  const sealer = shareTokenSealer(serverSecret);
  const grantKey = deriveServerKey(
    serverSecrets(serverSecret).current,
    'debesis share links',
    'password grant',
  );
  const sign = (payload: string) => createHmac('sha256', grantKey).update(payload).digest('base64url');

  return {
    seal: (token) => sealer.seal(token),
    unseal: (sealed) => sealer.unseal(sealed),
    grant(linkId, expiresAt) {
      const payload = `${linkId}.${expiresAt.getTime().toString(36)}`;
      return `${payload}.${sign(payload)}`;
    },
    granted(value, linkId, now) {
      if (!value) return false;
      const cut = value.lastIndexOf('.');
      const payload = value.slice(0, cut);
      const given = Buffer.from(value.slice(cut + 1));
      const expected = Buffer.from(sign(payload));
      if (cut < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      const [id, expires] = payload.split('.');
      return id === linkId && parseInt(expires ?? '', 36) > now.getTime();
    },
  };
}
