// The standby's pull scheduling with a fake clock and fake pulls: at once for a new standby, then
// every interval, at once again when sync_token changes; one pull per workspace at a time, at most
// two per node (the most overdue first); a failure is tried again the next interval; primaries are
// never pulled; stopping aborts the pulls in flight and waits for them.
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { silentLogger } from '../logger.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { createPullLoop } from './pull-loop.ts';

const standby = (id: string, extra: Partial<WorkspaceDesiredState> = {}) =>
  desiredWorkspace({ service_id: id, generation: 1, role: 'standby', ...extra });

function setup(
  workspaces: WorkspaceDesiredState[],
  pull?: (id: string, signal: AbortSignal) => Promise<void>,
) {
  let now = 1_000_000;
  const pulls: string[] = [];
  const pulled: string[] = [];
  const loop = createPullLoop({
    applied: () => workspaces,
    pull: async (id, signal) => {
      pulls.push(id);
      await pull?.(id, signal);
      return true;
    },
    intervalMs: 30_000,
    logger: silentLogger,
    onPulled: (id) => pulled.push(id),
    nowMs: () => now,
  });
  return {
    loop,
    pulls,
    pulled,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('the standby pull loop', () => {
  it('pulls a standby at once, then every interval, and at once when its sync_token changes', async () => {
    const workspaces = [standby('a'), desiredWorkspace({ service_id: 'p', generation: 1 })];
    const t = setup(workspaces);
    await t.loop.tick();
    expect(t.pulls).toEqual(['a']);
    expect(t.pulled).toEqual(['a']);

    t.advance(29_999);
    await t.loop.tick();
    expect(t.pulls).toEqual(['a']);
    t.advance(1);
    await t.loop.tick();
    expect(t.pulls).toEqual(['a', 'a']);

    t.advance(1000);
    workspaces[0] = standby('a', { sync_token: 'move-1' });
    await t.loop.tick();
    expect(t.pulls).toEqual(['a', 'a', 'a']);
    // The same token again is not a new sync.
    t.advance(1000);
    await t.loop.tick();
    expect(t.pulls).toHaveLength(3);
    await t.loop.stop();
  });

  it('runs one pull per workspace and two per node at once, the most overdue first', async () => {
    const releases: Array<() => void> = [];
    const workspaces = [standby('a'), standby('b'), standby('c')];
    const t = setup(workspaces, () => new Promise<void>((resolve) => releases.push(resolve)));
    const first = t.loop.tick();
    expect(t.pulls).toEqual(['a', 'b']);
    // A tick while they run starts nothing more: a and b are under way, c waits for a place.
    t.advance(60_000);
    void t.loop.tick();
    expect(t.pulls).toEqual(['a', 'b']);
    releases.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    const second = t.loop.tick();
    expect(t.pulls).toEqual(['a', 'b', 'c']);
    for (const release of releases.splice(0)) release();
    await Promise.all([first, second]);
    await t.loop.stop();
  });

  it('tries a failed pull again the next interval, not before', async () => {
    let fail = true;
    const t = setup([standby('a')], async () => {
      if (fail) throw new Error('the primary is away');
    });
    await t.loop.tick();
    expect(t.pulled).toEqual([]);
    t.advance(10_000);
    await t.loop.tick();
    expect(t.pulls).toHaveLength(1);
    fail = false;
    t.advance(20_000);
    await t.loop.tick();
    expect(t.pulled).toEqual(['a']);
    await t.loop.stop();
  });

  it('ends the pull under way of a workspace no longer held as a standby (promoted)', async () => {
    let aborted = false;
    const workspaces = [standby('a')];
    const t = setup(workspaces, (_id, signal) => {
      return new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        });
      });
    });
    const pulling = t.loop.tick();
    workspaces[0] = desiredWorkspace({ service_id: 'a', generation: 2, role: 'primary' });
    await t.loop.tick();
    await pulling;
    expect(aborted).toBe(true);
    expect(t.pulled).toEqual([]);
    await t.loop.stop();
  });

  it('stops: the pull in flight is aborted and waited for, and no new one starts', async () => {
    let aborted = false;
    const t = setup([standby('a')], (_id, signal) => {
      return new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        });
      });
    });
    void t.loop.tick();
    await t.loop.stop();
    expect(aborted).toBe(true);
    t.advance(60_000);
    await t.loop.tick();
    expect(t.pulls).toEqual(['a']);
  });
});
