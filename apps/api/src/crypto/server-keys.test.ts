// The sealer across a rotation of the server's secret: what the current key seals opens; what a
// previous key sealed opens by its key id, and so does a value from before key ids; nothing
// damaged or foreign opens.
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer, deriveServerKey, deriveServerKeys, keyId } from './server-keys.ts';

const A = 'the-old-server-secret-0123456789abcdef';
const B = 'the-new-server-secret-0123456789abcdef';
const keysOf = (current: string, previous: string[] = []) =>
  deriveServerKeys({ current, previous }, 'debesis test', 'seal');

/** A value as sealed before key ids: `iv.ciphertext.tag`. */
function sealedTheOldWay(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, data, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

describe('createSealer', () => {
  it('opens what it sealed, naming the current key by its id (never the key)', () => {
    const keys = keysOf(A);
    const sealer = createSealer(keys);
    const sealed = sealer.seal('a secret');
    const [version, kid] = sealed.split('.');
    expect(version).toBe('v2');
    expect(kid).toBe(keyId(keys.current));
    expect(kid).toHaveLength(8);
    expect(sealed).not.toContain(keys.current.toString('base64url'));
    expect(sealer.unseal(sealed)).toBe('a secret');
    expect(sealer.isCurrent(sealed)).toBe(true);
    expect(sealer.seal('a secret')).not.toBe(sealed);
  });

  it('reads the format from before key ids, under the current or a previous key', () => {
    const old = sealedTheOldWay(deriveServerKey(A, 'debesis test', 'seal'), 'from before');
    expect(createSealer(keysOf(A)).unseal(old)).toBe('from before');
    const rotated = createSealer(keysOf(B, [A]));
    expect(rotated.unseal(old)).toBe('from before');
    expect(rotated.isCurrent(old)).toBe(false);
    // A bare key (no rotation) is a ring of one.
    expect(createSealer(deriveServerKey(A, 'debesis test', 'seal')).unseal(old)).toBe('from before');
  });

  it('opens what a previous key sealed, by the key id it names, until that key is gone', () => {
    const sealedUnderA = createSealer(keysOf(A)).seal('kept');
    const rotated = createSealer(keysOf(B, ['another-old-secret-0123456789abcdef', A]));
    expect(rotated.unseal(sealedUnderA)).toBe('kept');
    expect(rotated.isCurrent(sealedUnderA)).toBe(false);
    expect(createSealer(keysOf(B)).unseal(sealedUnderA)).toBeUndefined();
  });

  it('looks the key up by its id: a value naming an unknown id opens under no key', () => {
    const sealed = createSealer(keysOf(A)).seal('kept').split('.');
    const renamed = ['v2', keyId(keysOf(B).current), ...sealed.slice(2)].join('.');
    expect(createSealer(keysOf(B, [A])).unseal(renamed)).toBeUndefined();
    const unknown = ['v2', 'AAAAAAAA', ...sealed.slice(2)].join('.');
    expect(createSealer(keysOf(A)).unseal(unknown)).toBeUndefined();
  });

  it('reseals under the current key, once, and leaves alone what no key opens', () => {
    const sealedUnderA = createSealer(keysOf(A)).seal('moved');
    const rotated = createSealer(keysOf(B, [A]));
    const again = rotated.reseal(sealedUnderA);
    expect(again).toBeDefined();
    expect(rotated.isCurrent(again!)).toBe(true);
    expect(createSealer(keysOf(B)).unseal(again!)).toBe('moved');
    expect(rotated.reseal(again!)).toBeUndefined();
    expect(createSealer(keysOf(B)).reseal(sealedUnderA)).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['one part', 'abc'],
    ['a short IV', 'AAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA'],
    ['v2 with parts missing', 'v2.AAAAAAAA.AAAA'],
  ])('opens nothing damaged: %s', (_, value) => {
    expect(createSealer(keysOf(A, [B])).unseal(value)).toBeUndefined();
  });

  it('opens nothing whose ciphertext or tag was changed', () => {
    const sealer = createSealer(keysOf(A));
    const parts = sealer.seal('intact').split('.');
    const flipped = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    for (const index of [2, 3, 4]) {
      const damaged = parts.map((part, at) => (at === index ? flipped(part) : part)).join('.');
      expect(sealer.unseal(damaged)).toBeUndefined();
    }
  });
});
