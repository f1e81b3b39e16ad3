// Keys a feature derives from the server's secret (JWT_SECRET), one per purpose, so that no two
// uses share a key: HKDF-SHA256 with the feature as salt and the purpose as info. And the one way
// a secret the server must read back is kept: sealed with AES-256-GCM under such a key (share
// links' tokens, subusers' TOTP secrets). A copy of the database alone opens none of them.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A 256-bit key for `purpose` within `feature`, the same in every API process. */
export function deriveServerKey(serverSecret: string, feature: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, feature, purpose, 32));
}

export interface Sealer {
  seal(plain: string): string;
  /** The plain text, or undefined when it was sealed under another key (or is damaged). */
  unseal(sealed: string): string | undefined;
}

/** AES-256-GCM: `iv.ciphertext.tag`, each base64url; a random 96-bit IV per seal. */
export function createSealer(key: Buffer): Sealer {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
    },
    unseal(sealed) {
      const [iv, data, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !data || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
