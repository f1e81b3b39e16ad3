// The VPN feature's report against a stand-in management interface: sessions and usage reported,
// and the sessions of users over their limit, disabled or deleted ended (and left out).
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VpnSessionReport, VpnUserState } from '@debesis/contract';
import { desiredWorkspace } from '../testing/desired.ts';
import { startFakeManagement, type FakeManagement } from '../testing/fake-openvpn-management.ts';
import { observeVpn } from './observe.ts';
import { OVER_LIMIT_FILE } from './usage.ts';

let root: string;
let dir: string;
let socketPath: string;
let fake: FakeManagement | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vpn-observe-'));
  dir = join(root, 'vpn');
  await mkdir(dir);
  socketPath = join(dir, 'management.sock');
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await rm(root, { recursive: true, force: true });
});

const NOW = new Date('2026-11-23T12:00:00Z');

function user(name: string, overrides: Partial<VpnUserState> = {}): VpnUserState {
  return {
    name,
    enabled: true,
    password_crypt: `$6$salt$${name}`,
    traffic_limit_bytes: 0,
    cert_generation: 1,
    ...overrides,
  };
}

function session(name: string, bytes: number, port = 40000): VpnSessionReport {
  return {
    user: name,
    real_address: `192.0.2.2:${port}`,
    virtual_address: '10.8.0.2',
    bytes_received: bytes,
    bytes_sent: bytes,
    connected_since: '2026-11-23T10:00:00.000Z',
  };
}

const withUsers = (users: VpnUserState[]) =>
  desiredWorkspace({ service_id: 'ws-1', vpn: { port: 1194, users } });
const observe = (users: VpnUserState[]) => observeVpn(withUsers(users), { dir, socketPath }, { now: NOW });

describe('observeVpn', () => {
  it('reports the sessions and this month’s usage', async () => {
    fake = await startFakeManagement(socketPath, {
      sessions: [session('alice', 100), session('bob', 5, 40001)],
    });
    const report = await observe([user('alice'), user('bob')]);
    expect(report.vpn?.sessions.map((s) => s.user)).toEqual(['alice', 'bob']);
    expect(report.vpn?.usage).toEqual([
      { user: 'alice', month: '2026-11', bytes_received: 100, bytes_sent: 100, over_limit: false },
      { user: 'bob', month: '2026-11', bytes_received: 5, bytes_sent: 5, over_limit: false },
    ]);
    expect(fake.commands).toEqual(['status 3']);
  });

  it('ends the sessions of a user over its limit, a disabled one and one no longer there', async () => {
    fake = await startFakeManagement(socketPath, {
      sessions: [
        session('alice', 600),
        session('bob', 1, 40001),
        session('carol', 1, 40002),
        session('dave', 1, 40003),
      ],
    });
    const report = await observe([
      user('alice', { traffic_limit_bytes: 1000 }),
      user('bob', { enabled: false }),
      user('dave'),
    ]);
    expect(report.vpn?.sessions.map((s) => s.user)).toEqual(['dave']);
    expect(fake.sessions.map((s) => s.user)).toEqual(['dave']);
    expect(report.vpn?.usage.find((u) => u.user === 'alice')?.over_limit).toBe(true);
    expect(await readFile(join(dir, OVER_LIMIT_FILE), 'utf8')).toBe('alice\n');
  });

  it('has no sessions when the server is down, and still reports the month', async () => {
    fake = await startFakeManagement(socketPath, { sessions: [session('alice', 100)] });
    await observe([user('alice')]);
    await fake.close();
    fake = undefined;
    const report = await observe([user('alice')]);
    expect(report.vpn?.sessions).toEqual([]);
    expect(report.vpn?.usage).toHaveLength(1);
  });

  it('says nothing for a workspace without VPN, and makes nothing before its folder exists', async () => {
    expect(await observeVpn(desiredWorkspace({ service_id: 'ws-1' }), { dir, socketPath })).toEqual({});
    const missing = join(root, 'not-yet');
    expect(
      await observeVpn(withUsers([user('alice')]), { dir: missing, socketPath: join(missing, 's') }),
    ).toEqual({ vpn: { sessions: [], usage: [] } });
  });
});
