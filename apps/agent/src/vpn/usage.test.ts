// The monthly counters from fake readings of the server's sessions: growth within a session,
// reconnects, an agent restart in between (a fresh call reads the file), a month changing and
// the limit deciding who is over (and written for the auth script).
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VpnSessionReport } from '@debesis/contract';
import { countUsage, OVER_LIMIT_FILE, USAGE_FILE } from './usage.ts';
import { useTempDir } from '../testing/temp-dir.ts';

const dir = useTempDir('vpn-usage-');

const NOV = new Date('2026-11-23T12:00:00Z');
const DEC = new Date('2026-12-01T00:00:05Z');

function session(
  user: string,
  received: number,
  sent: number,
  options: { from?: string; since?: string } = {},
): VpnSessionReport {
  return {
    user,
    real_address: options.from ?? '192.0.2.2:40000',
    virtual_address: '10.8.0.2',
    bytes_received: received,
    bytes_sent: sent,
    connected_since: options.since ?? '2026-11-23T10:00:00.000Z',
  };
}

const unlimited = [
  { name: 'alice', traffic_limit_bytes: 0 },
  { name: 'bob', traffic_limit_bytes: 0 },
];

const read = (sessions: VpnSessionReport[], users = unlimited, now = NOV) =>
  countUsage({ dir: dir(), sessions, users, now });
const overLimitFile = () => readFile(join(dir(), OVER_LIMIT_FILE), 'utf8');

describe('counting', () => {
  it('adds a new session whole, then only what it moved since the last reading; a gone session adds nothing', async () => {
    expect((await read([session('alice', 100, 1000)])).usage).toEqual([
      { user: 'alice', month: '2026-11', bytes_received: 100, bytes_sent: 1000, over_limit: false },
    ]);
    await read([session('alice', 150, 1200)]);
    const gone = await read([]);
    expect(gone.usage).toEqual([
      { user: 'alice', month: '2026-11', bytes_received: 150, bytes_sent: 1200, over_limit: false },
    ]);
  });

  it('adds up reconnects (a new port or a new start is a new session) and keeps users apart', async () => {
    await read([session('alice', 100, 100), session('bob', 5, 5, { from: '192.0.2.3:1' })]);
    // alice reconnected: a new session from a new port, her old one gone with its last bytes.
    await read([
      session('alice', 10, 20, { from: '192.0.2.2:40001', since: '2026-11-23T11:00:00.000Z' }),
      session('bob', 7, 9, { from: '192.0.2.3:1' }),
    ]);
    // and again from the same address and port, later.
    const { usage } = await read([
      session('alice', 1, 2, { from: '192.0.2.2:40001', since: '2026-11-23T11:30:00.000Z' }),
    ]);
    expect(usage).toEqual([
      { user: 'alice', month: '2026-11', bytes_received: 111, bytes_sent: 122, over_limit: false },
      { user: 'bob', month: '2026-11', bytes_received: 7, bytes_sent: 9, over_limit: false },
    ]);
  });

  it('an agent restart neither loses the month nor counts a live session twice', async () => {
    await read([session('alice', 100, 100)]);
    // A restart: nothing is held in memory; the next call reads only the folder.
    const after = await countUsage({
      dir: dir(),
      sessions: [session('alice', 130, 100)],
      users: unlimited,
      now: NOV,
    });
    expect(after.usage[0]).toMatchObject({ bytes_received: 130, bytes_sent: 100 });
    const file = JSON.parse(await readFile(join(dir(), USAGE_FILE), 'utf8')) as { month: string };
    expect(file.month).toBe('2026-11');
  });

  it('a new month starts from zero; a session across the turn counts what it moves after it', async () => {
    await read([session('alice', 100, 100), session('bob', 50, 50, { from: '192.0.2.3:1' })]);
    const december = await read([session('alice', 140, 110)], unlimited, DEC);
    expect(december.usage).toEqual([
      { user: 'alice', month: '2026-12', bytes_received: 40, bytes_sent: 10, over_limit: false },
    ]);
  });

  it('counts only the desired users: a deleted user’s counters go, a new one of its name starts at zero', async () => {
    await read([session('alice', 100, 100), session('bob', 50, 50, { from: '192.0.2.3:1' })]);
    const withoutBob = await read([session('bob', 60, 60, { from: '192.0.2.3:1' })], [unlimited[0]!]);
    expect(withoutBob.usage).toEqual([
      { user: 'alice', month: '2026-11', bytes_received: 100, bytes_sent: 100, over_limit: false },
    ]);
    const bobAgain = await read([session('bob', 61, 60, { from: '192.0.2.3:1' })]);
    expect(bobAgain.usage.find((u) => u.user === 'bob')).toMatchObject({ bytes_received: 1, bytes_sent: 0 });
  });

  it('starts afresh from a file that is not its own', async () => {
    await writeFile(join(dir(), USAGE_FILE), '{"not":"usage"');
    expect((await read([session('alice', 1, 2)])).usage).toHaveLength(1);
  });
});

describe('limits', () => {
  const limited = (limit: number) => [
    { name: 'alice', traffic_limit_bytes: limit },
    { name: 'bob', traffic_limit_bytes: 0 },
  ];

  it('a user that has moved its limit is over it, listed for the auth script; raising the limit lifts it', async () => {
    const under = await read(
      [session('alice', 400, 500), session('bob', 10_000, 10_000, { from: '192.0.2.3:1' })],
      limited(1000),
    );
    expect(under.overLimit).toEqual([]);
    expect(await overLimitFile()).toBe('');

    const over = await read(
      [session('alice', 500, 500), session('bob', 10_000, 10_000, { from: '192.0.2.3:1' })],
      limited(1000),
    );
    expect(over.overLimit).toEqual(['alice']);
    expect(over.usage.find((u) => u.user === 'alice')?.over_limit).toBe(true);
    expect(await overLimitFile()).toBe('alice\n');

    // Cut off (its session gone); it stays over while the limit stands.
    expect((await read([], limited(1000))).overLimit).toEqual(['alice']);
    const raised = await read([], limited(5000));
    expect(raised.overLimit).toEqual([]);
    expect(raised.usage.find((u) => u.user === 'alice')?.over_limit).toBe(false);
    expect(await overLimitFile()).toBe('');
  });

  it('a new month lifts it', async () => {
    await read([session('alice', 2000, 0)], limited(1000));
    expect(await overLimitFile()).toBe('alice\n');
    expect((await read([], limited(1000), DEC)).overLimit).toEqual([]);
    expect(await overLimitFile()).toBe('');
  });

  it('writes the over-limit list only when it changes', async () => {
    await read([session('alice', 2000, 0)], limited(1000));
    const first = await stat(join(dir(), OVER_LIMIT_FILE));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await read([session('alice', 2500, 0)], limited(1000));
    expect((await stat(join(dir(), OVER_LIMIT_FILE))).mtimeMs).toBe(first.mtimeMs);
  });
});
