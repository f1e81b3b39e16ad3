import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hashWorkspacePassword, ntHash, sha512Crypt, verifySha512Crypt } from './passwords.ts';

function opensslSha512Crypt(password: string, salt: string): string | null {
  try {
    return execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: password })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

describe('workspace password hashes', () => {
  it('computes SHA-512 crypt exactly as glibc and OpenSSL do', () => {
    // The reference vector of Ulrich Drepper's SHA-crypt specification.
    expect(sha512Crypt('Hello world!', 'saltstring')).toBe(
      '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
    );
    // `openssl passwd -6 -salt saltsalt password`, recorded.
    expect(sha512Crypt('password', 'saltsalt')).toBe(
      '$6$saltsalt$qFmFH.bQmmtXzyBY0s9v7Oicd2z4XSIecDzlB5KiA2/jctKu9YterLp8wwnSq.qc.eoxqOmSuNp2xS0ktL3nh/',
    );
    // And live, where the machine has openssl: non-ASCII and a full 16-character salt too.
    for (const [password, salt] of [
      ['sekret-pass-1', 'abcdefgh12345678'],
      ['slaptažodis ąčę', 'Zz./09AZaz12QWer'],
    ] as const) {
      const expected = opensslSha512Crypt(password, salt);
      if (expected !== null) expect(sha512Crypt(password, salt)).toBe(expected);
    }
  });

  it('computes NT hashes (MD4 of UTF-16LE), upper-case hex', async () => {
    expect(await ntHash('password')).toBe('8846F7EAEE8FB117AD06BDD830B7586C');
    expect(await ntHash('')).toBe('31D6CFE0D16AE931B73C59D7E0C089C0');
    expect(await ntHash('Hello world!')).toMatch(/^[0-9A-F]{32}$/);
  });

  it('salts every hash afresh and verifies only the right password', async () => {
    const first = await hashWorkspacePassword('sekret-pass-1');
    const second = await hashWorkspacePassword('sekret-pass-1');
    expect(first.crypt).not.toBe(second.crypt);
    expect(first.crypt).toMatch(/^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
    expect(first.nt).toBe(second.nt);
    expect(verifySha512Crypt('sekret-pass-1', first.crypt)).toBe(true);
    expect(verifySha512Crypt('sekret-pass-2', first.crypt)).toBe(false);
    // What openssl makes with the stored salt is what we stored.
    const salt = first.crypt.split('$')[2] ?? '';
    const expected = opensslSha512Crypt('sekret-pass-1', salt);
    if (expected !== null) expect(first.crypt).toBe(expected);
  });
});
