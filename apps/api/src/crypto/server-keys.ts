// Keys a feature derives from the server's secret (JWT_SECRET), one per purpose, so that no two
// uses share a key: HKDF-SHA256 with the feature as salt and the purpose as info. And the one way
// a secret the server must read back is kept: sealed with AES-256-GCM under such a key (share
// links' tokens, subusers' TOTP secrets). A copy of the database alone opens none of them.
//
// Rotation (docs/operations/rotating-secrets.md): the current secret derives the key everything new
// is sealed or signed with; the previous ones (JWT_SECRET_PREVIOUS) derive keys that only open what
// they sealed before. A sealed value names its key by a key id, a fingerprint of the derived key
// (never the key), so it is opened by the one key it names; values from before key ids (three
// parts) are tried against each key. `npm run ops -- secrets reseal` seals everything again under
// the current key, after which the previous secrets can go.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** The server's secrets: `current` seals and signs; `previous` (older first or not) only open. */
export interface ServerSecrets {
  current: string;
  previous: readonly string[];
}

/** A bare string is a server with one secret (tests, and what a caller without rotation passes). */
export type ServerSecret = string | ServerSecrets;

export function serverSecrets(secret: ServerSecret): ServerSecrets {
  return typeof secret === 'string' ? { current: secret, previous: [] } : secret;
}

/** A 256-bit key for `purpose` within `feature`, the same in every API process. */
export function deriveServerKey(serverSecret: string, feature: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, feature, purpose, 32));
}

/** The keys of one purpose: the current one, then those of the previous secrets. */
export interface ServerKeys {
  current: Buffer;
  previous: readonly Buffer[];
}

export function deriveServerKeys(secret: ServerSecret, feature: string, purpose: string): ServerKeys {
  const { current, previous } = serverSecrets(secret);
  return {
    current: deriveServerKey(current, feature, purpose),
    // A previous secret equal to the current one adds nothing but a second try.
    previous: previous.filter((old) => old !== current).map((old) => deriveServerKey(old, feature, purpose)),
  };
}

/** Current first: the order in which verifying tries them. */
export const allKeys = (keys: ServerKeys): Buffer[] => [keys.current, ...keys.previous];

/**
 * 48 bits of SHA-256 over a label and the key, base64url (8 characters): tells the keys of one
 * purpose apart, and says nothing about the key (a hash of 256 random bits, cut short).
 */
export function keyId(key: Buffer): string {
  return createHash('sha256')
    .update('debesis key id\0')
    .update(key)
    .digest()
    .subarray(0, 6)
    .toString('base64url');
}

export interface Sealer {
  seal(plain: string): string;
  /** The plain text, or undefined when it was sealed under none of the keys (or is damaged). */
  unseal(sealed: string): string | undefined;
  /** Whether `sealed` names the current key (a value from before key ids never does). */
  isCurrent(sealed: string): boolean;
  /**
   * The value sealed again under the current key; undefined when it is already (nothing to do) or
   * opens under none of the keys (nothing can be done).
   */
  reseal(sealed: string): string | undefined;
}

const VERSION = 'v2';

function open(key: Buffer, parts: readonly string[]): string | undefined {
  const [iv, data, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
  if (parts.length !== 3 || !iv || !data || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * AES-256-GCM: `v2.<key id>.<iv>.<ciphertext>.<tag>`, each base64url; a random 96-bit IV per seal.
 * Also opens `<iv>.<ciphertext>.<tag>`, as sealed before key ids, under whichever key opens it.
 */
export function createSealer(keys: Buffer | ServerKeys): Sealer {
  const ring = Buffer.isBuffer(keys) ? { current: keys, previous: [] } : keys;
  const currentId = keyId(ring.current);
  const byId = new Map(allKeys(ring).map((key) => [keyId(key), key] as const));

  function unseal(sealed: string): string | undefined {
    const parts = sealed.split('.');
    if (parts[0] === VERSION) {
      const key = byId.get(parts[1] ?? '');
      return key && parts.length === 5 ? open(key, parts.slice(2)) : undefined;
    }
    for (const key of allKeys(ring)) {
      const plain = open(key, parts);
      if (plain !== undefined) return plain;
    }
    return undefined;
  }

  function seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', ring.current, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, data, cipher.getAuthTag()].map((part) => part.toString('base64url'));
    return [VERSION, currentId, ...parts].join('.');
  }

  const isCurrent = (sealed: string) => sealed.startsWith(`${VERSION}.${currentId}.`);

  return {
    seal,
    unseal,
    isCurrent,
    reseal(sealed) {
      if (isCurrent(sealed)) return undefined;
      const plain = unseal(sealed);
      return plain === undefined ? undefined : seal(plain);
    },
  };
}
