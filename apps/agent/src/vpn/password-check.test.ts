import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VpnUserState } from '@debesis/contract';
import { runCommand } from '../exec/run-command.ts';
import { findProgram } from '../system/host.ts';
import { CHECK_PASSWORD_SCRIPT, renderUsersFile } from './password-check.ts';

/** SHA-512 crypt as the API makes it (same as `openssl passwd -6`). */
async function crypt(password: string): Promise<string> {
  const result = await runCommand('openssl', ['passwd', '-6', '-stdin'], {
    input: `${password}\n`,
    check: true,
  });
  return result.stdout.trim();
}

const user = (name: string, password_crypt: string, enabled = true): VpnUserState => ({
  name,
  enabled,
  password_crypt,
  traffic_limit_bytes: 0,
  cert_generation: 1,
});

describe('the users file', () => {
  const hash = `$6$abcdefgh$${'x'.repeat(86)}`;
  it('holds name, enabled and crypt per user; a disabled one is marked 0', () => {
    expect(renderUsersFile([user('alice', hash), user('bob', hash, false)]).text).toBe(
      `alice:1:${hash}\nbob:0:${hash}\n`,
    );
  });

  it('leaves out a bad name, a repeated name and a hash that is not a SHA-512 crypt, as failures', () => {
    const rendered = renderUsersFile([
      user('alice', hash),
      user('Bad:name', hash),
      user('alice', hash),
      user('carol', '$6$rounds=5000$x$y'),
      user('dave', `$6$salt$${'x'.repeat(86)}\n`),
    ]);
    expect(rendered.text).toBe(`alice:1:${hash}\n`);
    expect(rendered.failures.map((f) => [f.kind, f.name])).toEqual([
      ['vpn_user', 'Bad:name'],
      ['vpn_user', 'alice'],
      ['vpn_user', 'carol'],
      ['vpn_user', 'dave'],
    ]);
  });
});

const openssl = await findProgram('openssl');
describe.skipIf(!openssl)('the password script OpenVPN runs per connect (openssl installed)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpn-check-'));
    await writeFile(join(dir, 'check-password'), CHECK_PASSWORD_SCRIPT);
    await chmod(join(dir, 'check-password'), 0o700);
    const users = renderUsersFile([
      user('alice', await crypt('Alice-pass-1')),
      user('bob', await crypt('Bob-pass-22'), false),
      user('carol', await crypt('Carol pass \\ 3')),
      user('dave', await crypt('Dave-pass-4')),
    ]);
    await writeFile(join(dir, 'users'), users.text);
    await writeFile(join(dir, 'over-limit'), 'dave\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the script as OpenVPN does: a via-file with two lines, the CN in the environment. */
  async function check(username: string, password: string, commonName = username): Promise<boolean> {
    const viaFile = join(dir, `via-${Math.random().toString(36).slice(2)}`);
    await writeFile(viaFile, `${username}\n${password}\n`, { mode: 0o600 });
    const result = await runCommand(join(dir, 'check-password'), [viaFile], {
      env: { common_name: commonName },
    });
    await rm(viaFile, { force: true });
    return result.ok;
  }

  it('lets in the right password for the certificate’s own user', async () => {
    expect(await check('alice', 'Alice-pass-1')).toBe(true);
    expect(await check('carol', 'Carol pass \\ 3')).toBe(true);
  });

  it('refuses a wrong password, a disabled user, an over-limit user, another user’s certificate and an unknown user', async () => {
    expect(await check('alice', 'alice-pass-1')).toBe(false);
    expect(await check('alice', '')).toBe(false);
    expect(await check('bob', 'Bob-pass-22')).toBe(false);
    expect(await check('dave', 'Dave-pass-4')).toBe(false);
    expect(await check('alice', 'Alice-pass-1', 'carol')).toBe(false);
    expect(await check('erin', 'Alice-pass-1')).toBe(false);
    // A name outside the rule never reaches grep's pattern.
    expect(await check('.*', 'Alice-pass-1')).toBe(false);
  });

  it('treats a missing over-limit file as empty', async () => {
    await rm(join(dir, 'over-limit'));
    expect(await check('dave', 'Dave-pass-4')).toBe(true);
    await writeFile(join(dir, 'over-limit'), 'dave\n');
  });
});
