// The management client against a real OpenVPN 2.6 server, as root: the server runs in a network
// namespace of its own with its management socket in a temporary folder (the agent's side of it
// is in the host's namespace, as on a node), and real clients connect from a second namespace
// over a veth pair. Proves `sessions` (both addresses, bytes that grow with traffic through the
// tunnel, the start time), `disconnectUser` and `killAll` with their counts, that a server that
// is gone has none, and the VPN report ending a real session over its limit. PKI: easy-rsa, EC
// keys, `dh none`. Skipped with its reason elsewhere.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { exists, firstMissingProgram, isRoot } from '../system/host.ts';
import { processArgv, stopProcessGroup } from '../system/processes.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { disconnectUser, killAll, sessions } from './management.ts';
import { observeVpn } from './observe.ts';
import { OVER_LIMIT_FILE } from './usage.ts';

const EASYRSA = '/usr/share/easy-rsa/easyrsa';

async function skipReason(): Promise<string | undefined> {
  if (!isRoot()) return 'not root';
  const missing = await firstMissingProgram(['openvpn', 'ip', 'openssl']);
  if (missing) return `${missing} is not installed`;
  if (!(await exists(EASYRSA))) return 'easy-rsa is not installed';
  if (!(await exists('/dev/net/tun'))) return 'no /dev/net/tun';
  return undefined;
}
const reason = await skipReason();
if (reason) console.warn(`[agent] live OpenVPN management test skipped: ${reason}`);

const suffix = randomUUID().slice(0, 6);
// Addresses only inside the two namespaces made here (nothing is routed from the host).
const third = Math.floor(Math.random() * 256);
const NET = {
  server: `debesis-vpns-${suffix}`,
  client: `debesis-vpnc-${suffix}`,
  serverEnd: `dvs-${suffix}`,
  clientEnd: `dvc-${suffix}`,
  serverAddress: `198.19.${third}.1`,
  clientAddress: `198.19.${third}.2`,
};
const PORT = 1194;

let dir: string;
let socketPath: string;
const processes = new Set<number>();

async function run(command: string, args: string[], timeoutMs = 30_000): Promise<string> {
  const result = await runCommand(command, args, { check: true, timeoutMs });
  return result.stdout;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** openvpn in a namespace, in a process group of its own (stopped with it). */
function start(netns: string, config: string, log: string): number {
  const child = spawn('ip', ['netns', 'exec', netns, 'openvpn', '--config', config, '--log', log], {
    detached: true,
    stdio: 'ignore',
  });
  if (child.pid === undefined) throw new Error('openvpn did not start');
  child.unref();
  processes.add(child.pid);
  return child.pid;
}

async function stop(pid: number): Promise<void> {
  await stopProcessGroup(pid, 3000);
  processes.delete(pid);
}

async function makePki(): Promise<void> {
  const env = {
    ...process.env,
    EASYRSA_BATCH: '1',
    EASYRSA_PKI: join(dir, 'pki'),
    EASYRSA_ALGO: 'ec',
    EASYRSA_CURVE: 'prime256v1',
  };
  const easyrsa = async (...args: string[]) => {
    const result = await runCommand(EASYRSA, args, { env, timeoutMs: 60_000 });
    if (!result.ok) throw new Error(`easyrsa ${args.join(' ')}: ${result.stderr}`);
  };
  await easyrsa('init-pki');
  await runCommand(EASYRSA, ['build-ca', 'nopass'], {
    env: { ...env, EASYRSA_REQ_CN: `test-ca-${suffix}` },
    check: true,
    timeoutMs: 60_000,
  });
  await easyrsa('build-server-full', 'server', 'nopass');
  await easyrsa('build-client-full', 'alice', 'nopass');
  await easyrsa('build-client-full', 'bob', 'nopass');
}

const pki = (path: string) => join(dir, 'pki', path);

/** A client of `name` from the client namespace; `bare`: no address on its tunnel (a second client). */
async function connect(name: string, bare = false): Promise<number> {
  const config = join(dir, `${name}.conf`);
  await writeFile(
    config,
    [
      'client',
      'dev tun',
      'proto udp',
      `remote ${NET.serverAddress} ${PORT}`,
      'nobind',
      'remote-cert-tls server',
      `ca ${pki('ca.crt')}`,
      `cert ${pki(`issued/${name}.crt`)}`,
      `key ${pki(`private/${name}.key`)}`,
      'verb 3',
      ...(bare ? ['ifconfig-noexec', 'route-noexec'] : []),
      '',
    ].join('\n'),
  );
  const pid = start(NET.client, config, join(dir, `${name}.log`));
  try {
    await until(`${name}'s session`, async () =>
      (await sessions(socketPath)).some((s) => s.user === name) ? true : undefined,
    );
  } catch (error) {
    const tail = async (log: string) =>
      (await readFile(join(dir, log), 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
    throw new Error(
      `${(error as Error).message}\n${name}.log:\n${await tail(`${name}.log`)}\nserver.log:\n${await tail('server.log')}`,
    );
  }
  return pid;
}

/** UDP datagrams from the client namespace into the tunnel, to the server's tunnel address. */
async function sendThroughTunnel(bytes: number): Promise<void> {
  const script = `
    const socket = require('node:dgram').createSocket('udp4');
    const payload = Buffer.alloc(1000);
    let left = ${Math.ceil(bytes / 1000)};
    const next = () => left-- > 0 ? socket.send(payload, 9, '10.8.0.1', next) : socket.close();
    next();`;
  await run('ip', ['netns', 'exec', NET.client, process.execPath, '-e', script]);
}

/** A server in the server namespace; resolves with its pid once its interface answers. */
async function startServer(name: string, port: number, socket: string, network: string): Promise<number> {
  const config = join(dir, `${name}.conf`);
  await writeFile(
    config,
    [
      'dev tun',
      'proto udp',
      `local ${NET.serverAddress}`,
      `port ${port}`,
      'topology subnet',
      `server ${network} 255.255.255.0`,
      `ca ${pki('ca.crt')}`,
      `cert ${pki('issued/server.crt')}`,
      `key ${pki('private/server.key')}`,
      'dh none',
      'remote-cert-tls client',
      'keepalive 10 60',
      `management ${socket} unix`,
      'verb 3',
      '',
    ].join('\n'),
  );
  const pid = start(NET.server, config, join(dir, `${name}.log`));
  // Ready once its interface answers (the socket appears before it listens).
  await until(`${name}'s management interface`, async () => {
    if (!(await exists(socket))) return undefined;
    return sessions(socket).then(
      () => true,
      () => undefined,
    );
  });
  return pid;
}

// Each test leaves the server without sessions and stops its clients, so they run in any order.
describe.skipIf(reason !== undefined)('OpenVPN management interface (live, as root)', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vpn-mgmt-live-'));
    socketPath = join(dir, 'management.sock');
    await makePki();
    await run('ip', ['netns', 'add', NET.server]);
    await run('ip', ['netns', 'add', NET.client]);
    await run('ip', ['link', 'add', NET.serverEnd, 'type', 'veth', 'peer', 'name', NET.clientEnd]);
    await run('ip', ['link', 'set', NET.serverEnd, 'netns', NET.server]);
    await run('ip', ['link', 'set', NET.clientEnd, 'netns', NET.client]);
    for (const [netns, end, address] of [
      [NET.server, NET.serverEnd, NET.serverAddress],
      [NET.client, NET.clientEnd, NET.clientAddress],
    ] as const) {
      await run('ip', ['-n', netns, 'addr', 'add', `${address}/30`, 'dev', end]);
      await run('ip', ['-n', netns, 'link', 'set', end, 'up']);
      await run('ip', ['-n', netns, 'link', 'set', 'lo', 'up']);
    }
    await startServer('server', PORT, socketPath, '10.8.0.0');
  }, 120_000);

  afterAll(async () => {
    for (const pid of processes) if (await processArgv(pid)) await stopProcessGroup(pid, 3000);
    for (const netns of [NET.server, NET.client])
      if (await exists(`/run/netns/${netns}`)) await runCommand('ip', ['netns', 'del', netns]);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('has no sessions and ends none before anyone connects', async () => {
    expect(await sessions(socketPath)).toEqual([]);
    expect(await disconnectUser(socketPath, 'alice')).toBe(0);
    expect(await killAll(socketPath)).toBe(0);
  });

  it('lists real clients with both addresses, the start time and bytes that grow; ends them by user and all at once', async () => {
    const startedAround = Date.now();
    const clients = [await connect('alice'), await connect('bob', true)];
    onTestFinished(async () => {
      for (const pid of clients) await stop(pid);
    });
    const listed = await sessions(socketPath);
    expect(listed.map((s) => s.user).toSorted()).toEqual(['alice', 'bob']);
    const alice = listed.find((s) => s.user === 'alice')!;
    expect(alice.real_address).toMatch(new RegExp(`^${NET.clientAddress.replaceAll('.', '\\.')}:\\d+$`));
    expect(alice.virtual_address).toMatch(/^10\.8\.0\.\d+$/);
    expect(alice.bytes_received).toBeGreaterThan(0);
    expect(alice.bytes_sent).toBeGreaterThan(0);
    expect(Math.abs(Date.parse(alice.connected_since) - startedAround)).toBeLessThan(60_000);

    await sendThroughTunnel(50_000);
    const grown = await until('alice’s bytes to grow', async () => {
      const now = (await sessions(socketPath)).find((s) => s.user === 'alice');
      return now && now.bytes_received >= alice.bytes_received + 50_000 ? now : undefined;
    });
    expect(grown.connected_since).toBe(alice.connected_since);
    expect(grown.real_address).toBe(alice.real_address);

    expect(await disconnectUser(socketPath, 'alice')).toBe(1);
    expect((await sessions(socketPath)).map((s) => s.user)).toEqual(['bob']);
    // Told to halt, alice's client ends by itself instead of coming back a minute later.
    const ended = (pid: number) => async () => ((await processArgv(pid)) ? undefined : true);
    await until('alice’s client to end', ended(clients[0]!), 10_000);
    expect(await disconnectUser(socketPath, 'alice')).toBe(0);
    expect(await killAll(socketPath)).toBe(1);
    expect(await sessions(socketPath)).toEqual([]);
  }, 60_000);

  it('the VPN report counts a real session and ends it once its user is over the limit', async () => {
    const vpnDir = join(dir, 'vpn');
    await mkdir(vpnDir);
    const desired = (limit: number) =>
      desiredWorkspace({
        service_id: `vpn-live-${suffix}`,
        vpn: {
          port: PORT,
          users: [
            {
              name: 'alice',
              enabled: true,
              password_crypt: '$6$unused$unused',
              traffic_limit_bytes: limit,
              cert_generation: 1,
            },
          ],
        },
      });
    const client = await connect('alice');
    onTestFinished(() => stop(client));
    const under = await observeVpn(desired(10_000_000), { dir: vpnDir, socketPath });
    expect(under.vpn?.sessions.map((s) => s.user)).toEqual(['alice']);
    const counted = under.vpn?.usage[0];
    expect(counted?.bytes_received).toBeGreaterThan(0);

    await sendThroughTunnel(20_000);
    const over = await observeVpn(desired(20_000), { dir: vpnDir, socketPath });
    expect(over.vpn?.sessions).toEqual([]);
    expect(over.vpn?.usage[0]?.over_limit).toBe(true);
    expect(over.vpn?.usage[0]?.bytes_received).toBeGreaterThan(counted!.bytes_received);
    expect(await sessions(socketPath)).toEqual([]);
    expect(await readFile(join(vpnDir, OVER_LIMIT_FILE), 'utf8')).toBe('alice\n');
  }, 60_000);

  it('a server that is gone has no sessions (its socket left behind or not)', async () => {
    const goneSocket = join(dir, 'gone.sock');
    const gone = await startServer('gone', PORT + 1, goneSocket, '10.9.0.0');
    await stop(gone);
    expect(await sessions(goneSocket)).toEqual([]);
    expect(await killAll(goneSocket)).toBe(0);
    expect(await disconnectUser(goneSocket, 'alice')).toBe(0);
  }, 30_000);
});
