// Which drivers a workspace runs (reconcile.ts workspaceDrivers) and passes on the node's own word
// (applyLocally), with fake drivers: a standby runs only its storage phase, applied and observed;
// promoted it runs every driver; removed, every driver in reverse. A fenced workspace is applied
// `stopped` locally and applied again, running, by the next pass that brings the API's word, at
// the same generation.
import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import type { Driver } from './drivers/driver.ts';
import { silentLogger } from './logger.ts';
import { applyLocally, createReconcileMemory, workspaceDrivers } from './reconcile.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { fakePass } from './testing/fake-pass.ts';
import { useTempDir } from './testing/temp-dir.ts';

const dataDir = useTempDir('reconcile-standby-');

/** A driver that records what it was asked to do, as `<name> <verb> <state>` (and its role, read as the storage reads it). */
function recording(name: string, log: string[], standby = false): Driver {
  return {
    name,
    ...(standby ? { standby: true } : {}),
    async apply(desired, context) {
      await mkdir(context.workspaceDir, { recursive: true });
      log.push(`${name} apply ${desired.state}${desired.role === 'standby' ? ' standby' : ''}`);
      return { changed: false, actions: [], status: { driver: name, live: true } };
    },
    async observe(desired) {
      log.push(`${name} observe ${desired.state}`);
      return {};
    },
    async report() {
      log.push(`${name} report`);
      return {};
    },
  };
}

const workspace = (extra: Partial<WorkspaceDesiredState> = {}) =>
  desiredWorkspace({ service_id: 'ws-1', generation: 3, ...extra });

describe('a standby runs its storage phase only', () => {
  it('selects the drivers marked standby, all of them otherwise, all of them for a removal', () => {
    const log: string[] = [];
    const drivers = [recording('dir', log, true), recording('storage', log, true), recording('network', log)];
    const names = (desired: WorkspaceDesiredState) => workspaceDrivers(desired, drivers).map((d) => d.name);
    expect(names(workspace({ role: 'standby' }))).toEqual(['dir', 'storage']);
    expect(names(workspace({ role: 'standby', state: 'stopped' }))).toEqual(['dir', 'storage']);
    expect(names(workspace({ role: 'primary' }))).toEqual(['dir', 'storage', 'network']);
    expect(names(workspace())).toEqual(['dir', 'storage', 'network']);
    expect(names(workspace({ role: 'standby', state: 'removed' }))).toEqual(['dir', 'storage', 'network']);
  });

  it('applies, observes and reports only those; promoted, every driver applies', async () => {
    const log: string[] = [];
    const drivers = [recording('dir', log, true), recording('storage', log, true), recording('network', log)];
    const memory = createReconcileMemory();
    const pass = (desired: WorkspaceDesiredState) =>
      fakePass({ dataDir: dataDir(), drivers, desired, memory, fullCheckEvery: 1000 });

    const first = await pass(workspace({ role: 'standby' }));
    expect(first.report).toMatchObject({ ok: true, observed_generation: 3 });
    expect(first.report.drivers.map((d) => d.driver)).toEqual(['dir', 'storage']);
    expect(log).toEqual([
      'dir apply running standby',
      'storage apply running standby',
      'dir report',
      'storage report',
    ]);

    log.length = 0;
    await pass(workspace({ role: 'standby' }));
    expect(log).toEqual(['dir observe running', 'storage observe running', 'dir report', 'storage report']);

    log.length = 0;
    const promoted = await pass(workspace({ role: 'primary', generation: 4 }));
    expect(promoted.report).toMatchObject({ ok: true, observed_generation: 4 });
    expect(log.filter((line) => line.includes('apply'))).toEqual([
      'dir apply running',
      'storage apply running',
      'network apply running',
    ]);
  });
});

describe('a pass on the node’s own word (a fence)', () => {
  it('applies the stopped state locally, and the API’s running state again at the same generation', async () => {
    const log: string[] = [];
    const drivers = [recording('storage', log, true), recording('samba', log)];
    const memory = createReconcileMemory();
    const running = workspace({ failover: true });
    await fakePass({ dataDir: dataDir(), drivers, desired: running, memory, fullCheckEvery: 1000 });

    log.length = 0;
    await applyLocally(
      {
        dataDir: dataDir(),
        addresses: [],
        agentVersion: 'test',
        drivers,
        logger: silentLogger,
        run: () => Promise.reject(new Error('none')),
        fullCheckEvery: 1000,
      },
      memory,
      [{ ...running, state: 'stopped' }],
    );
    expect(log).toEqual(['storage apply stopped', 'samba apply stopped', 'storage report', 'samba report']);
    expect(memory.applied.get('ws-1')?.state).toBe('stopped');

    // The API reached again, with the same generation: its word applies, not the local one.
    log.length = 0;
    await fakePass({ dataDir: dataDir(), drivers, desired: running, memory, fullCheckEvery: 1000 });
    expect(log.filter((line) => line.includes('apply'))).toEqual([
      'storage apply running',
      'samba apply running',
    ]);
    expect(memory.applied.get('ws-1')?.state).toBe('running');

    // And then it is only observed, as any applied workspace.
    log.length = 0;
    await fakePass({ dataDir: dataDir(), drivers, desired: running, memory, fullCheckEvery: 1000 });
    expect(log.filter((line) => line.includes('apply'))).toEqual([]);
  });
});
