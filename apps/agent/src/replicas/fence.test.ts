// The fencing lease with a fake clock and a fake local pass: nothing happens while the API is
// reached; past the lease every running workspace with `failover` is applied stopped (the others
// untouched, listed as they are), once, said once; a workspace without `failover` and a standby
// are never fenced; reaching the API again renews the lease.
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import type { Logger } from '../logger.ts';
import { silentLogger } from '../logger.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { createFence } from './fence.ts';

function setup() {
  let now = 0;
  const applied = new Map<string, WorkspaceDesiredState>(
    [
      desiredWorkspace({ service_id: 'mirrored', generation: 1, failover: true }),
      desiredWorkspace({ service_id: 'single', generation: 1 }),
      desiredWorkspace({ service_id: 'off', generation: 1, failover: true, state: 'stopped' }),
      desiredWorkspace({ service_id: 'copy', generation: 1, failover: true, role: 'standby' }),
    ].map((desired) => [desired.service_id, desired]),
  );
  const passes: WorkspaceDesiredState[][] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (...args: unknown[]) => {
      warnings.push(String(args.at(-1)));
    },
  };
  const fence = createFence({
    fenceAfterMs: 40_000,
    applied: () => applied.values(),
    // As reconcile's local pass does: what it applied is what is applied now.
    applyLocally: async (workspaces) => {
      passes.push(workspaces);
      for (const desired of workspaces) applied.set(desired.service_id, desired);
    },
    logger,
    nowMs: () => now,
  });
  return { fence, applied, passes, warnings, advance: (ms: number) => (now += ms) };
}

describe('the fencing lease', () => {
  it('stops only running workspaces with failover once the API has been away too long, once', async () => {
    const t = setup();
    t.advance(40_000);
    await t.fence.check();
    expect(t.passes).toEqual([]);

    t.advance(1);
    expect(t.fence.expired()).toBe(true);
    await t.fence.check();
    expect(t.passes).toHaveLength(1);
    const states = Object.fromEntries(t.passes[0]!.map((d) => [d.service_id, d.state]));
    expect(states).toEqual({ mirrored: 'stopped', single: 'running', off: 'stopped', copy: 'running' });
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/fenced: the API has not been reached for 40 s/);

    // Already stopped: nothing more to do, nothing more said.
    t.advance(2000);
    await t.fence.check();
    expect(t.passes).toHaveLength(1);
    expect(t.warnings).toHaveLength(1);
  });

  it('is renewed by reaching the API', async () => {
    const t = setup();
    t.advance(39_000);
    t.fence.renew();
    t.advance(39_000);
    await t.fence.check();
    expect(t.fence.expired()).toBe(false);
    expect(t.passes).toEqual([]);

    t.advance(2000);
    await t.fence.check();
    expect(t.passes).toHaveLength(1);
    // The API's word back (running again): a later silence fences again, and says so again.
    t.fence.renew();
    t.applied.set('mirrored', desiredWorkspace({ service_id: 'mirrored', generation: 1, failover: true }));
    t.advance(41_000);
    await t.fence.check();
    expect(t.passes).toHaveLength(2);
    expect(t.warnings).toHaveLength(2);
  });
});
