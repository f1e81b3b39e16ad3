// Attack 12.2, the status half: a failed pass reported the daemon as it was last seen (its start
// time kept, nothing saying it was down), so the API showed the workspace running while nothing
// served it. The failed report says what serves now.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Driver } from './drivers/driver.ts';
import { createReconcileMemory } from './reconcile.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { fakePass } from './testing/fake-pass.ts';

const desired = desiredWorkspace({ service_id: 'ws-1' });
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'reconcile-security-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function daemonDriver(running: { now: boolean }): Driver {
  return {
    name: 'samba',
    apply: () =>
      Promise.resolve({
        changed: false,
        actions: [],
        status: { driver: 'samba', live: true, serving: true },
        facts: { started_at: '2026-01-01T00:00:00.000Z' },
      }),
    observe: () =>
      Promise.resolve(
        running.now
          ? { serving: true, facts: { started_at: '2026-01-01T00:00:00.000Z' } }
          : { serving: false, drift: 'smbd is not running', facts: { started_at: null } },
      ),
    quiesce: () => {
      running.now = false;
      return Promise.resolve();
    },
  };
}

async function passWith(drivers: Driver[], memory = createReconcileMemory()) {
  return (await fakePass({ dataDir, drivers, desired, memory, fullCheckEvery: 1 })).report;
}

describe('a failed pass reports what really serves', () => {
  it('attack 12.2: storage fails after stopping the daemon: the daemon is reported down, with no start time', async () => {
    const running = { now: true };
    const memory = createReconcileMemory();
    const ok = await passWith(
      [
        {
          name: 'storage',
          apply: () =>
            Promise.resolve({ changed: false, actions: [], status: { driver: 'storage', live: true } }),
        },
        daemonDriver(running),
      ],
      memory,
    );
    expect(ok.facts?.started_at).toBe('2026-01-01T00:00:00.000Z');

    const failing: Driver = {
      name: 'storage',
      async apply(_desired, context) {
        await context.quiesce?.();
        throw new Error('the storage image is still in use (/dev/loop7)');
      },
    };
    const report = await passWith([failing, daemonDriver(running)], memory);
    expect(report.ok).toBe(false);
    expect(report.error).toContain('still in use');
    expect(report.facts?.started_at).toBeNull();
    expect(report.drivers).toEqual([
      { driver: 'storage', live: false, reason: 'the storage image is still in use (/dev/loop7)' },
      { driver: 'samba', live: true, serving: false, reason: 'not applied: storage failed' },
    ]);
  });

  it('attack 12.2: the daemon itself fails to start: reported down', async () => {
    const running = { now: false };
    const samba: Driver = {
      ...daemonDriver(running),
      apply: () => Promise.reject(new Error('smbd did not start')),
    };
    const report = await passWith([samba]);
    expect(report.ok).toBe(false);
    expect(report.drivers).toEqual([
      { driver: 'samba', live: false, reason: 'smbd did not start', serving: false },
    ]);
    expect(report.facts?.started_at).toBeNull();
  });
});
