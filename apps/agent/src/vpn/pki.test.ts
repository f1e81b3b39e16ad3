// The workspace's PKI against the real easy-rsa and openssl (no root needed): a config is issued
// once per user and generation, a raised generation or a deleted user revokes on the next apply
// and the CRL lists the serial. Skipped with its reason where easy-rsa is missing.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VpnUserState } from '@debesis/contract';
import { runCommand, type CommandRunner } from '../exec/run-command.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { firstMissingProgram } from '../system/host.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import { NodeCallError } from '../calls/node-call.ts';
import { EASYRSA, issueClientConfig, parseClientCertName, syncPki } from './pki.ts';
import { ensureDir } from '../fs/ensure-dir.ts';

const missing = await firstMissingProgram([EASYRSA, 'openssl', 'openvpn']);
if (missing) console.warn(`[agent] VPN PKI test skipped: ${missing} is not installed`);

const user = (name: string, cert_generation = 1): VpnUserState => ({
  name,
  enabled: true,
  password_crypt: `$6$salt$${'x'.repeat(86)}`,
  traffic_limit_bytes: 0,
  cert_generation,
});
const state = (users: VpnUserState[]) =>
  desiredWorkspace({ service_id: 'pki-test', address: '198.18.0.9', vpn: { port: 1194, users } });

/** The serial of the certificate in `pem` (upper-case hex, as `openssl crl -text` lists it). */
async function serialOf(pem: string): Promise<string> {
  const result = await runCommand('openssl', ['x509', '-noout', '-serial'], { input: pem, check: true });
  return result.stdout.trim().replace(/^serial=/, '');
}
const block = (ovpn: string, tag: string) => new RegExp(`<${tag}>\\n([^<]*)</${tag}>`).exec(ovpn)?.[1] ?? '';

describe('the cert file names', () => {
  it('are <user>.g<generation>; the server’s and odd names are not a client’s', () => {
    expect(parseClientCertName('alice.g3.crt')).toEqual({ user: 'alice', generation: 3 });
    expect(parseClientCertName('server.crt')).toBeUndefined();
    expect(parseClientCertName('Alice.g1.crt')).toBeUndefined();
    expect(parseClientCertName('alice.g0.crt')).toBeUndefined();
  });
});

// One PKI through its life: each step starts where the one before left it.
describe.skipIf(missing !== undefined)(
  'a workspace PKI (easy-rsa, openssl)',
  { timeout: 120_000, shuffle: false },
  () => {
    let root: string;
    let layout: WorkspaceLayout;
    const commands: string[] = [];
    const run: CommandRunner = (command, args, options) => {
      commands.push([command, ...args].join(' '));
      return runCommand(command, args, options);
    };
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'vpn-pki-'));
      layout = workspaceLayout(join(root, 'workspaces', 'pki-test'));
      await ensureDir(join(root, 'workspaces'), { mode: 0o755 });
      await ensureDir(layout.root, { mode: 0o755 });
      await ensureDir(layout.vpn.dir, { mode: 0o700 });
    });
    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('first apply: CA, server certificate, CRL and tls-crypt key; the server gets copies, never the CA key', async () => {
      const actions = await syncPki(state([user('alice'), user('bob')]), layout.vpn, run);
      expect(actions.join('\n')).toMatch(/made the VPN's CA/);
      for (const file of [layout.vpn.caCert, layout.vpn.serverCert, layout.vpn.crl])
        expect((await stat(file)).mode & 0o777).toBe(0o644);
      for (const file of [
        layout.vpn.serverKey,
        layout.vpn.tlsCryptKey,
        join(layout.vpn.pkiDir, 'private', 'ca.key'),
      ])
        expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(layout.vpn.pkiDir)).mode & 0o777).toBe(0o700);
      // A second apply with nothing due runs no program.
      commands.length = 0;
      expect(await syncPki(state([user('alice'), user('bob')]), layout.vpn, run)).toEqual([]);
      expect(commands).toEqual([]);
    });

    let aliceSerial = '';
    it('issues a client config once per user and generation: inline CA, cert (CN = user), key, tls-crypt', async () => {
      const started = Date.now();
      const ovpn = await issueClientConfig(state([user('alice'), user('bob')]), layout, 'alice', 1, run);
      const took = Date.now() - started;
      console.warn(`[agent] VPN client certificate issued in ${took} ms`);
      for (const line of [
        'client',
        'dev tun',
        'proto udp',
        'remote 198.18.0.9 1194',
        'remote-cert-tls server',
        'auth-user-pass',
      ])
        expect(ovpn.split('\n')).toContain(line);
      expect(block(ovpn, 'ca')).toContain('BEGIN CERTIFICATE');
      expect(block(ovpn, 'key')).toContain('BEGIN PRIVATE KEY');
      expect(block(ovpn, 'tls-crypt')).toContain('BEGIN OpenVPN Static key V1');
      const cert = block(ovpn, 'cert');
      const subject = await runCommand('openssl', ['x509', '-noout', '-subject'], {
        input: cert,
        check: true,
      });
      expect(subject.stdout.trim()).toBe('subject=CN = alice');
      aliceSerial = await serialOf(cert);

      commands.length = 0;
      expect(await issueClientConfig(state([user('alice'), user('bob')]), layout, 'alice', 1, run)).toBe(
        ovpn,
      );
      expect(commands).toEqual([]);
    });

    it('refuses a user it does not hold, an older generation and a workspace without VPN', async () => {
      const desired = state([user('alice', 2)]);
      await expect(issueClientConfig(desired, layout, 'mallory', 1, run)).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(issueClientConfig(desired, layout, 'alice', 1, run)).rejects.toBeInstanceOf(NodeCallError);
      await expect(
        issueClientConfig({ ...desired, vpn: undefined }, layout, 'alice', 2, run),
      ).rejects.toMatchObject({ code: 'not_found' });
    });

    it('a raised generation revokes the old certificate on apply: the CRL lists its serial', async () => {
      const bob = await issueClientConfig(state([user('alice'), user('bob')]), layout, 'bob', 1, run);
      const bobSerial = await serialOf(block(bob, 'cert'));
      const actions = await syncPki(state([user('alice', 2), user('bob')]), layout.vpn, run);
      expect(actions).toContain('revoked VPN certificate alice.g1');
      const crl = await runCommand('openssl', ['crl', '-noout', '-text', '-in', layout.vpn.crl], {
        check: true,
      });
      expect(crl.stdout).toContain(`Serial Number: ${aliceSerial}`);
      expect(crl.stdout).not.toContain(`Serial Number: ${bobSerial}`);

      // The new generation is a new certificate, same CN.
      const again = await issueClientConfig(state([user('alice', 2), user('bob')]), layout, 'alice', 2, run);
      expect(await serialOf(block(again, 'cert'))).not.toBe(aliceSerial);

      // A deleted user's certificates go too.
      await syncPki(state([user('alice', 2)]), layout.vpn, run);
      const after = await readFile(layout.vpn.crl, 'utf8');
      const listed = await runCommand('openssl', ['crl', '-noout', '-text'], { input: after, check: true });
      expect(listed.stdout).toContain(`Serial Number: ${bobSerial}`);
    });
  },
);
