// The VPN of a workspace against the real programs, as root (issue 15): a workspace with two VPN
// users gets its own openvpn inside its network namespace; a config issued by the agent connects
// a real openvpn client from a client namespace of its own (testing/network.ts) with the right
// password and reaches the tunnel's server address; a wrong password, a disabled user and a
// revoked certificate are each refused at connect, and none of these changes restarts the server
// (its pid stays). Elsewhere it is skipped with the reason printed.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { VpnUserState, WorkspaceDesiredState } from '@debesis/contract';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { exists } from './system/host.ts';
import { networkNames, netnsPath } from './system/netns.ts';
import { stopProcessGroup } from './system/processes.ts';
import { liveSkipReason, liveWorkspace, recordedPid } from './testing/live.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { sha512Crypt } from './testing/passwords.ts';
import { connectVpnClient } from './testing/vpn-client.ts';
import { EASYRSA, issueClientConfig } from './vpn/pki.ts';
import { socketBound } from './net/wait-for-port.ts';
import { createWakeFiles } from './wake-files.ts';

const PROGRAMS = ['openvpn', 'openssl', EASYRSA, 'ip', 'nsenter', 'unshare', 'losetup', 'mkfs.ext4'];
const reason =
  (await liveSkipReason('VPN test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const B = WORKSPACE_ID_FIRST_BASE;
const workspace = liveWorkspace('vpn');
const { service: SERVICE, address: ADDRESS, client: CLIENT, pass, layout, dataDir, clientDir } = workspace;
const PORT = 1194;
/** The server's own address inside the tunnel (VPN_TUNNEL_NETWORK's first). */
const TUNNEL_SERVER = '10.8.0.1';

const PASSWORDS = { alice: 'Alice-vpn-pass-1', bob: 'Bob-vpn-pass-22' };
const crypts: Record<string, string> = {};

/** A TCP service on the tunnel's server address inside the workspace's namespace. */
let tunnelService: number | undefined;

function vpnUser(name: keyof typeof PASSWORDS, extra: Partial<VpnUserState> = {}): VpnUserState {
  return {
    name,
    enabled: true,
    password_crypt: crypts[name]!,
    traffic_limit_bytes: 0,
    cert_generation: 1,
    ...extra,
  };
}

function state(users: VpnUserState[], extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 32 * 1024 * 1024,
    id_base: B,
    vpn: { port: PORT, users },
    ...extra,
  });
}

const serverPid = () => recordedPid(layout().vpn.processFile);

const serverLog = () => readFile(layout().vpn.logFile, 'utf8').catch(() => '');

const connect = (ovpn: string, user: string, password: string) =>
  connectVpnClient(ovpn, user, password, { netns: CLIENT.netns, dir: clientDir(), serverLog });

/** What the TCP service on the tunnel's server address says to the client through the tunnel. */
async function reachesTunnelServer(): Promise<string> {
  let said = '';
  // The service may still be starting: a few tries, each bounded.
  for (let attempt = 0; attempt < 5 && !said; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    const probe = await runCommand(
      'ip',
      [
        'netns',
        'exec',
        CLIENT.netns,
        process.execPath,
        '-e',
        `const s = require('net').connect(7777, '${TUNNEL_SERVER}'); s.setTimeout(5000, () => process.exit(2)); s.on('data', (d) => { process.stdout.write(d); s.end(); }); s.on('error', () => process.exit(1));`,
      ],
      { timeoutMs: 15_000 },
    );
    said = probe.stdout.trim();
  }
  return said;
}

describe.skipIf(reason !== undefined)(
  'a live workspace VPN (root, real openvpn server and client)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let pid: number | undefined;
    let aliceConfig: string;
    let bobConfig: string;

    beforeAll(async () => {
      for (const [name, password] of Object.entries(PASSWORDS)) crypts[name] = await sha512Crypt(password);
      await workspace.create();
    });

    afterAll(async () => {
      // Whatever the tests got to: the tunnel's service stopped, then the rest (live.ts).
      if (tunnelService && !process.env.KEEP_LIVE)
        await stopProcessGroup(tunnelService, 3000).catch(() => undefined);
      await workspace.remove(state([]));
    });

    it('runs openvpn in the workspace namespace on UDP at its address', async () => {
      const { report } = await pass(state([vpnUser('alice'), vpnUser('bob')]));
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });
      expect(report.drivers.find((d) => d.driver === 'vpn')).toEqual({
        driver: 'vpn',
        live: true,
        serving: true,
        // A serving daemon says since when (the API's uptime and restarts).
        started_at: expect.any(String) as string,
      });
      pid = await serverPid();
      expect(pid).toBeDefined();
      expect(await socketBound(pid!, ADDRESS, PORT)).toBe(true);
      // It runs in the workspace's network namespace, not the node's.
      const ns = await runCommand('readlink', [`/proc/${pid}/ns/net`], { check: true });
      const wsNs = await runCommand('ip', ['netns', 'identify', String(pid)]);
      expect(ns.stdout.trim()).not.toBe((await runCommand('readlink', ['/proc/self/ns/net'])).stdout.trim());
      expect(wsNs.stdout.trim()).toBe(networkNames(SERVICE).netns);
      // Its namespace holds no PKI: the CA key is not where openvpn could read it.
      expect(layout().vpn.pkiDir.startsWith(`${layout().vpn.dir}/`)).toBe(false);

      // A small TCP service on the tunnel's server address, to reach through the tunnel.
      const service = spawn(
        'nsenter',
        [
          `--net=${netnsPath(networkNames(SERVICE).netns)}`,
          '--',
          process.execPath,
          '-e',
          `require('net').createServer((s) => s.end('through the tunnel\\n')).listen(7777, '${TUNNEL_SERVER}')`,
        ],
        { detached: true, stdio: 'ignore' },
      );
      tunnelService = service.pid;
    });

    it('a second pass on the unchanged state runs no program and writes nothing', async () => {
      const ran: string[] = [];
      const started = Date.now();
      const { result } = await pass(
        state([vpnUser('alice'), vpnUser('bob')]),
        (command, args) => ran.push([command, ...args].join(' ')),
        true, // the same generation again: a full check of an applied workspace
      );
      console.warn(`[agent] VPN no-op pass of one workspace in ${Date.now() - started} ms`);
      expect(result.actions).toEqual([]);
      expect(ran).toEqual([]);
      expect(await serverPid()).toBe(pid);
    });

    it('an issued config connects with the right password and reaches the server through the tunnel', async () => {
      const desired = state([vpnUser('alice'), vpnUser('bob')]);
      aliceConfig = await issueClientConfig(desired, layout(), 'alice', 1, runCommand);
      const alice = await connect(aliceConfig, 'alice', PASSWORDS.alice);
      try {
        expect(alice.outcome, alice.log).toBe('connected');
        expect(await reachesTunnelServer()).toBe('through the tunnel');
      } finally {
        await alice.stop();
      }
      bobConfig = await issueClientConfig(desired, layout(), 'bob', 1, runCommand);
    });

    it('a wrong password is refused; the other user’s password on one’s certificate too', async () => {
      const wrong = await connect(aliceConfig, 'alice', 'not-her-password');
      expect(wrong.outcome, wrong.log).toBe('auth_failed');
      const crossed = await connect(aliceConfig, 'bob', PASSWORDS.bob);
      expect(crossed.outcome, crossed.log).toBe('auth_failed');
      expect(await serverPid()).toBe(pid);
    });

    it('a user disabled in the desired state is refused at the next connect, without a restart', async () => {
      const { result } = await pass(state([vpnUser('alice', { enabled: false }), vpnUser('bob')]));
      expect(result.actions.join('\n')).not.toMatch(/started openvpn|reloaded openvpn|stopped openvpn/);
      expect(await serverPid()).toBe(pid);
      const alice = await connect(aliceConfig, 'alice', PASSWORDS.alice);
      expect(alice.outcome, alice.log).toBe('auth_failed');
      const bob = await connect(bobConfig, 'bob', PASSWORDS.bob);
      await bob.stop();
      expect(bob.outcome, bob.log).toBe('connected');
    });

    it('a raised cert_generation revokes the old config (refused by the CRL); the new one connects; no restart', async () => {
      const desired = state([vpnUser('alice', { enabled: false }), vpnUser('bob', { cert_generation: 2 })]);
      const { result } = await pass(desired);
      expect(result.actions.join('\n')).toContain('revoked VPN certificate bob.g1');
      expect(result.actions.join('\n')).not.toMatch(/started openvpn|reloaded openvpn|stopped openvpn/);
      expect(await serverPid()).toBe(pid);
      const old = await connect(bobConfig, 'bob', PASSWORDS.bob);
      expect(old.outcome, old.log).toBe('cert_refused');
      const fresh = await connect(
        await issueClientConfig(desired, layout(), 'bob', 2, runCommand),
        'bob',
        PASSWORDS.bob,
      );
      await fresh.stop();
      expect(fresh.outcome, fresh.log).toBe('connected');
      expect(await serverPid()).toBe(pid);
    });

    it('a connected user is in the report’s sessions and wakes the agent; the disconnect call ends its session', async () => {
      const desired = state([vpnUser('alice', { enabled: false }), vpnUser('bob', { cert_generation: 2 })]);
      // What the agent watches (wake-files.ts): openvpn writes it as a client comes and goes.
      let wakes = 0;
      const wakeFiles = createWakeFiles(() => (wakes += 1), silentLogger);
      const wakeOn = createDefaultDrivers({ live: true })
        .find((driver) => driver.name === 'vpn')
        ?.wakeOn?.(desired, layout().root);
      expect(wakeOn).toBe(layout().vpn.sessionsChanged);
      wakeFiles.sync(new Set([wakeOn!]));
      onTestFinished(() => wakeFiles.close());
      const bob = await connect(
        await issueClientConfig(desired, layout(), 'bob', 2, runCommand),
        'bob',
        PASSWORDS.bob,
      );
      try {
        expect(bob.outcome, bob.log).toBe('connected');
        await expect.poll(() => wakes, { timeout: 2000 }).toBeGreaterThan(0);
        const { report } = await pass(desired);
        const sessions = report.features?.vpn?.sessions ?? [];
        expect(sessions.map((session) => session.user)).toEqual(['bob']);
        expect(sessions[0]!.virtual_address).toMatch(/^10\.8\.0\./);
        expect(sessions[0]!.real_address).toContain(CLIENT.address);
        const handlers = createDefaultDrivers({ live: true, addressPool: [ADDRESS] }).find(
          (driver) => driver.name === 'vpn',
        )?.calls;
        const context = {
          desired,
          layout: layout(),
          dataDir: dataDir(),
          run: runCommand,
          logger: silentLogger,
        };
        const wakesConnected = wakes;
        expect(await handlers?.['vpn.disconnect']?.({ user: 'bob' }, context)).toEqual({ disconnected: 1 });
        await expect.poll(() => wakes, { timeout: 8000 }).toBeGreaterThan(wakesConnected);
        const after = await pass(desired);
        expect(after.report.features?.vpn?.sessions).toEqual([]);
        expect(await serverPid()).toBe(pid);
      } finally {
        await bob.stop();
      }
    });
  },
);
