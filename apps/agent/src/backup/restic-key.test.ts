// The key file made again with cheap parameters: Poly1305 against RFC 8439's vector, and a key
// file made the way restic makes one (its design document) opened and made again. That restic
// itself opens the result is backup.live.test.ts's.
import { createCipheriv, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cheapKeyFile, CHEAP_SCRYPT, poly1305, readMasterKey } from './restic-key.ts';

const hex = (text: string) => Buffer.from(text.replace(/[^0-9a-f]/g, ''), 'hex');

describe('poly1305', () => {
  it('gives RFC 8439’s tag (§2.5.2)', () => {
    const key = hex(
      '85:d6:be:78:57:55:6d:33:7f:44:52:fe:42:d5:06:a8:01:03:80:8a:fb:0d:b2:fd:4a:bf:f6:af:41:49:f5:1b',
    );
    const tag = poly1305(Buffer.from('Cryptographic Forum Research Group'), key);
    expect(tag.toString('hex')).toBe('a8061dc1305136c6c22b8baf0c0127a9');
  });
});

/** A key file as restic writes one, with the parameters given. */
function resticKeyFile(
  password: string,
  masterKey: Buffer,
  params: { N: number; r: number; p: number },
): string {
  const salt = randomBytes(64);
  const derived = scryptSync(password, salt, 64, { ...params, maxmem: 512 * 1024 * 1024 });
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), iv);
  const encrypted = Buffer.concat([cipher.update(masterKey), cipher.final()]);
  const aes = createCipheriv('aes-128-ecb', derived.subarray(32, 48), null);
  aes.setAutoPadding(false);
  const mac = poly1305(encrypted, Buffer.concat([derived.subarray(48, 64), aes.update(iv)]));
  return JSON.stringify({
    created: '2026-11-28T12:16:00Z',
    username: 'root',
    hostname: 'node',
    kdf: 'scrypt',
    ...params,
    salt: salt.toString('base64'),
    data: Buffer.concat([iv, encrypted, mac]).toString('base64'),
  });
}

describe('cheapKeyFile', () => {
  const master = Buffer.from('{"mac":{"k":"a","r":"b"},"encrypt":"c"}');

  it('keeps the master key and the other fields, with cheap parameters, named by its SHA-256', async () => {
    const old = resticKeyFile('secret', master, { N: 16384, r: 8, p: 1 });
    const fresh = await cheapKeyFile(old, 'secret');
    expect(fresh.name).toMatch(/^[0-9a-f]{64}$/);
    const file = JSON.parse(fresh.content) as Record<string, unknown>;
    expect(file).toMatchObject({ ...CHEAP_SCRYPT, kdf: 'scrypt', username: 'root', hostname: 'node' });
    // Opened again (the same code that checks a restic key's MAC), it holds the same master key.
    expect((await readMasterKey(fresh.content, 'secret')).masterKey).toEqual(master);
    expect((await cheapKeyFile(fresh.content, 'secret')).name).not.toBe(fresh.name);
  });

  it('refuses a wrong password (the MAC does not match)', async () => {
    const old = resticKeyFile('secret', master, CHEAP_SCRYPT);
    await expect(cheapKeyFile(old, 'wrong')).rejects.toThrow('MAC does not match');
  });
});
