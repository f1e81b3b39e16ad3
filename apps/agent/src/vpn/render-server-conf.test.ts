import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openvpnConf } from '../daemons/config-formats.ts';
import { runCommand } from '../exec/run-command.ts';
import { findProgram } from '../system/host.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { renderServerConf, serverNetwork } from './render-server-conf.ts';

const layout = workspaceLayout('/var/lib/debesis/workspaces/ws-1').vpn;
const options = { address: '198.18.0.7', port: 1194, layout };

describe('the OpenVPN server.conf', () => {
  it('serves UDP on the workspace address with the tunnel network, EC without DH, tls-crypt, CRL, password script and a management socket', () => {
    const lines = renderServerConf(options).split('\n');
    for (const line of [
      'dev tun',
      'proto udp',
      'local 198.18.0.7',
      'port 1194',
      'topology subnet',
      // People's pool in the lower half; backup clients at fixed addresses of the upper half.
      'server 10.8.0.0 255.255.255.0 nopool',
      'ifconfig-pool 10.8.0.2 10.8.0.127 255.255.255.0',
      `client-config-dir ${layout.ccdDir}`,
      'dh none',
      `ca ${layout.caCert}`,
      `tls-crypt ${layout.tlsCryptKey}`,
      `crl-verify ${layout.crl}`,
      'script-security 2',
      `auth-user-pass-verify ${layout.checkPassword} via-file`,
      `client-connect ${layout.sessionEvent}`,
      `client-disconnect ${layout.sessionEvent}`,
      `management ${layout.managementSocket} unix`,
      `log-append ${layout.logFile}`,
      'verb 3',
    ])
      expect(lines).toContain(line);
  });

  it('is the same bytes for the same state; a new restart token changes it (a restart), on one line', () => {
    expect(renderServerConf(options)).toBe(renderServerConf(options));
    const restarted = renderServerConf({ ...options, restartToken: 'r2\nport 1' });
    expect(restarted).not.toBe(renderServerConf(options));
    expect(restarted).toContain('# restart token: r2 port 1\n');
    expect(restarted.split('\n').filter((line) => line.startsWith('port '))).toEqual(['port 1194']);
  });

  it('quotes a path OpenVPN would split or read as a comment, and refuses one it cannot write', () => {
    expect(openvpnConf.arg('/srv/a b/#x;y')).toBe('"/srv/a b/#x;y"');
    expect(openvpnConf.arg('/srv/q"u\\o')).toBe('"/srv/q\\"u\\\\o"');
    expect(openvpnConf.arg('/srv/plain.key')).toBe('/srv/plain.key');
    expect(() => openvpnConf.arg('/srv/a\nport 1')).toThrow(/cannot be an OpenVPN config argument/);
    expect(() => openvpnConf.arg('')).toThrow();
    const spaced = workspaceLayout('/data dir/workspaces/ws-1').vpn;
    // The script path is split again by OpenVPN when it runs it: refused, not escaped twice.
    expect(() => renderServerConf({ ...options, layout: spaced })).toThrow(/script path/);
  });

  it('refuses an address that is not IPv4, a bad port and a bad tunnel network', () => {
    expect(() => renderServerConf({ ...options, address: '198.18.0.7\nport 1' })).toThrow(/IPv4/);
    expect(() => renderServerConf({ ...options, address: '::1' })).toThrow(/IPv4/);
    expect(() => renderServerConf({ ...options, port: 0 })).toThrow(/port/);
    expect(() => renderServerConf({ ...options, port: 70000 })).toThrow(/port/);
    expect(serverNetwork('10.8.0.0/24')).toBe('10.8.0.0 255.255.255.0');
    expect(() => serverNetwork('10.8.0.1/24')).toThrow(/host bits/);
    expect(() => serverNetwork('10.8.0.0/31')).toThrow();
  });
});

const openvpn = await findProgram('openvpn');
describe.skipIf(!openvpn)('the check (openvpn --config X --version, openvpn installed)', () => {
  let dir: string;
  let live: typeof options;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpn-conf-'));
    live = { ...options, layout: workspaceLayout(join(dir, 'ws')).vpn };
    // OpenVPN checks while parsing that the scripts it runs exist.
    await mkdir(live.layout.dir, { recursive: true });
    for (const script of [live.layout.checkPassword, live.layout.sessionEvent])
      await writeFile(script, '#!/bin/sh\nexit 1\n', { mode: 0o700 });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const check = async (text: string) => {
    const file = join(dir, 'server.conf');
    await writeFile(file, text);
    return runCommand('openvpn', ['--config', file, '--version']);
  };

  it('accepts the rendered file and refuses an unknown option or a wrong argument count', async () => {
    const rendered = renderServerConf(live);
    const accepted = await check(rendered);
    expect(accepted.ok, accepted.stderr).toBe(true);
    const unknown = await check(rendered + 'no-such-option 1\n');
    expect(unknown.ok).toBe(false);
    expect(unknown.stdout).toMatch(/Options error: Unrecognized option/);
    expect((await check(rendered + 'dev\n')).ok).toBe(false);
    // Values it does not look at (a port out of range) are the renderer's to refuse (above).
    expect((await check(rendered.replace('port 1194', 'port 99999'))).ok).toBe(true);
  });
});
