// The management client against a stand-in server on a UNIX socket that answers as OpenVPN 2.6
// does (the answers below were captured from a real server; the live test talks to one).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderStatus3,
  startFakeManagement,
  type FakeManagement,
} from '../testing/fake-openvpn-management.ts';
import { disconnectUser, killAll, ManagementError, parseStatus3, sessions } from './management.ts';

const STATUS_3 = [
  'TITLE\tOpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]',
  'TIME\t2026-11-23 17:25:56\t1795454756',
  'HEADER\tCLIENT_LIST\tCommon Name\tReal Address\tVirtual Address\tVirtual IPv6 Address\tBytes Received\tBytes Sent\tConnected Since\tConnected Since (time_t)\tUsername\tClient ID\tPeer ID\tData Channel Cipher',
  'CLIENT_LIST\talice\t192.0.2.2:36263\t10.8.0.2\t\t2175\t2178\t2026-11-23 17:25:50\t1795454750\talice\t0\t0\tAES-256-GCM',
  'CLIENT_LIST\tUNDEF\t192.0.2.3:40000\t\t\t512\t480\t2026-11-23 17:25:55\t1795454755\tUNDEF\t2\t2\tN/A',
  'CLIENT_LIST\tbob\t192.0.2.3:51000\t10.8.0.3\t\t10\t20\t2026-11-23 17:25:52\t1795454752\tbob\t1\t1\tAES-256-GCM',
  'HEADER\tROUTING_TABLE\tVirtual Address\tCommon Name\tReal Address\tLast Ref\tLast Ref (time_t)',
  'ROUTING_TABLE\t10.8.0.2\talice\t192.0.2.2:36263\t2026-11-23 17:25:50\t1795454750',
  'GLOBAL_STATS\tMax bcast/mcast queue length\t1',
  'GLOBAL_STATS\tdco_enabled\t0',
  'END',
];

let dir: string;
let socketPath: string;
let fake: FakeManagement | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vpn-mgmt-'));
  socketPath = join(dir, 'management.sock');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await rm(dir, { recursive: true, force: true });
});

const lines = (rows: string[]) => rows.map((row) => `${row}\r\n`).join('');

describe('status 3', () => {
  it('parses CLIENT_LIST rows by their HEADER, leaving out clients still in their handshake', () => {
    expect(parseStatus3(STATUS_3)).toEqual([
      {
        user: 'alice',
        real_address: '192.0.2.2:36263',
        virtual_address: '10.8.0.2',
        bytes_received: 2175,
        bytes_sent: 2178,
        connected_since: new Date(1795454750 * 1000).toISOString(),
      },
      {
        user: 'bob',
        real_address: '192.0.2.3:51000',
        virtual_address: '10.8.0.3',
        bytes_received: 10,
        bytes_sent: 20,
        connected_since: '2026-11-23T17:25:52.000Z',
      },
    ]);
  });

  it('reads the sessions over the socket, skipping notifications between banner and answer', async () => {
    fake = await startFakeManagement(socketPath, {
      answer: (command) =>
        command === 'status 3' ? `>LOG:1,I,noise\r\n${lines(STATUS_3)}` : 'ERROR: unknown command\r\n',
    });
    const found = await sessions(socketPath);
    expect(found.map((s) => s.user)).toEqual(['alice', 'bob']);
    expect(fake.commands).toEqual(['status 3']);
  });

  it('has none when the socket is missing or nobody listens on it (the server is down)', async () => {
    expect(await sessions(socketPath)).toEqual([]);
    await writeFile(socketPath, ''); // not a socket
    expect(await sessions(socketPath)).toEqual([]);
    await rm(socketPath);
    // A socket left behind by a server that died: its file is there, nobody accepts.
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`,
    ]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await sessions(socketPath)).toEqual([]);
  });

  it('fails within its deadline when the server does not answer', async () => {
    fake = await startFakeManagement(socketPath, { answer: () => undefined });
    const started = Date.now();
    await expect(sessions(socketPath, { timeoutMs: 200 })).rejects.toBeInstanceOf(ManagementError);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('kill', () => {
  const alice = (port: number) => ({
    user: 'alice',
    real_address: `192.0.2.2:${port}`,
    virtual_address: '10.8.0.2',
    bytes_received: 1,
    bytes_sent: 2,
    connected_since: '2026-11-23T17:25:50.000Z',
  });
  beforeEach(async () => {
    fake = await startFakeManagement(socketPath, {
      sessions: [alice(1), alice(2), { ...alice(3), user: 'bob', real_address: '192.0.2.3:3' }],
    });
  });

  it('disconnectUser ends each of the user’s sessions by client id with HALT (the client stops, it does not come back), and says how many', async () => {
    expect(await disconnectUser(socketPath, 'alice')).toBe(2);
    expect(fake?.commands).toEqual(['status 3', 'client-kill 0 HALT', 'client-kill 1 HALT', 'status 3']);
    expect(fake?.sessions.map((s) => s.user)).toEqual(['bob']);
    expect(await disconnectUser(socketPath, 'carol')).toBe(0);
  });

  it('does not count a session that ended between the listing and its kill', async () => {
    await fake?.close();
    fake = await startFakeManagement(socketPath, {
      answer: (command) =>
        command === 'status 3'
          ? renderStatus3([alice(1)])
          : command.startsWith('client-kill')
            ? 'ERROR: client-kill command failed\r\n'
            : undefined,
    });
    expect(await disconnectUser(socketPath, 'alice')).toBe(0);
  });

  it('refuses a name that could smuggle another command', async () => {
    await expect(disconnectUser(socketPath, 'alice\nsignal SIGTERM')).rejects.toBeInstanceOf(ManagementError);
    await expect(disconnectUser(socketPath, 'a b')).rejects.toBeInstanceOf(ManagementError);
    expect(fake?.commands).toEqual([]);
  });

  it('killAll ends every session (each by its client id, with HALT), beside another caller', async () => {
    const [all, before] = await Promise.all([killAll(socketPath), sessions(socketPath)]);
    expect(all).toBe(3);
    expect(before).toHaveLength(3);
    expect(await sessions(socketPath)).toEqual([]);
    expect(fake?.commands).toEqual([
      'status 3',
      'status 3',
      'client-kill 0 HALT',
      'client-kill 1 HALT',
      'client-kill 2 HALT',
      'status 3',
      'status 3',
    ]);
  });

  it('drops by name a session whose client does not halt within the grace', async () => {
    await fake?.close();
    fake = await startFakeManagement(socketPath, {
      answer: (command) =>
        command === 'status 3'
          ? renderStatus3([alice(1)])
          : command === 'client-kill 0 HALT'
            ? 'SUCCESS: client-kill command succeeded\r\n'
            : command === 'kill alice'
              ? "SUCCESS: common name 'alice' found, 1 client(s) killed\r\n"
              : undefined,
    });
    expect(await disconnectUser(socketPath, 'alice', { haltGraceMs: 300 })).toBe(1);
    expect(fake.commands[1]).toBe('client-kill 0 HALT');
    expect(fake.commands.at(-1)).toBe('kill alice');
  });

  it('ends none when the server is down', async () => {
    await fake?.close();
    fake = undefined;
    expect(await killAll(socketPath)).toBe(0);
    expect(await disconnectUser(socketPath, 'alice')).toBe(0);
  });
});
