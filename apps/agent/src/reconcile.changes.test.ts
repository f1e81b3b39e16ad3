// A new generation applies only the drivers whose input changed (driver-inputs.ts), with fake
// drivers that each read one section: the others keep their status, a failed one is applied
// again, and a full check, a drift, a restart or a quiesce applies every driver.
import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SAMBA_SERVER_DEFAULTS, type WorkspaceDesiredState } from '@debesis/contract';
import type { Driver, DriverObservation } from './drivers/driver.ts';
import { createReconcileMemory, type ReconcileMemory } from './reconcile.ts';
import { fakePass } from './testing/fake-pass.ts';
import { desiredShare, desiredUser, desiredWorkspace } from './testing/desired.ts';
import { useTempDir } from './testing/temp-dir.ts';

const dataDir = useTempDir('reconcile-changes-');

const SERVICE = 'ws-1';

const pass = (
  drivers: readonly Driver[],
  desired: WorkspaceDesiredState,
  memory: ReconcileMemory,
  fullCheckEvery = 1_000_000,
) => fakePass({ dataDir: dataDir(), drivers, desired, memory, fullCheckEvery });

interface Behaviour {
  kind?: 'base' | 'feature';
  fails?: () => boolean;
  observe?: () => DriverObservation;
  quiesces?: boolean;
}

/** A driver that reads `read(desired)` (one section) and logs each apply. */
function reading(
  name: string,
  read: (desired: WorkspaceDesiredState) => unknown,
  log: string[],
  behaviour: Behaviour = {},
): Driver {
  return {
    name,
    kind: behaviour.kind ?? 'feature',
    async apply(desired, context) {
      await mkdir(context.workspaceDir, { recursive: true });
      read(desired);
      log.push(context.restart ? `${name} (restart)` : name);
      if (behaviour.fails?.()) throw new Error(`${name} failed`);
      if (behaviour.quiesces) await context.quiesce?.();
      return { changed: true, actions: [], status: { driver: name, live: true } };
    },
    ...(behaviour.observe && { observe: () => Promise.resolve(behaviour.observe?.() ?? {}) }),
  };
}

const workspace = (generation: number, extra: Partial<WorkspaceDesiredState> = {}) =>
  desiredWorkspace({
    service_id: SERVICE,
    generation,
    users: [desiredUser('anna', 3001)],
    ...extra,
  });
const withShare = (name: string): Partial<WorkspaceDesiredState> => ({
  samba: { shares: [desiredShare(name)], settings: SAMBA_SERVER_DEFAULTS },
});

describe('a new generation applies only the drivers it concerns', () => {
  const threeDrivers = (log: string[], samba: Behaviour = {}) => [
    reading('users', (d) => d.users, log, { kind: 'base' }),
    reading('samba', (d) => [d.users, d.samba], log, samba),
    reading('nfs', (d) => d.nfs, log),
  ];

  it('leaves a driver whose input is unchanged alone and applies the changed ones', async () => {
    const log: string[] = [];
    const memory = createReconcileMemory();
    const drivers = threeDrivers(log);
    await pass(drivers, workspace(1), memory);
    expect(log).toEqual(['users', 'samba', 'nfs']);

    log.length = 0;
    const share = await pass(drivers, workspace(2, withShare('docs')), memory);
    expect(log).toEqual(['samba']);
    expect(share.result.unchangedDrivers).toEqual([`${SERVICE}: users`, `${SERVICE}: nfs`]);
    // The report still lists every driver, at the new generation.
    expect(share.report).toMatchObject({ observed_generation: 2, ok: true });
    expect(share.report.drivers.map((d) => d.driver)).toEqual(['users', 'samba', 'nfs']);

    log.length = 0;
    const users = [desiredUser('anna', 3001), desiredUser('ben', 3002)];
    await pass(drivers, workspace(3, { ...withShare('docs'), users }), memory);
    expect(log).toEqual(['users', 'samba']);
  });

  it('applies a driver whose last apply failed again on the next pass, its input unchanged', async () => {
    const log: string[] = [];
    let failing = false;
    const memory = createReconcileMemory();
    const drivers = threeDrivers(log, { fails: () => failing });
    await pass(drivers, workspace(1), memory);

    failing = true;
    log.length = 0;
    const failed = await pass(drivers, workspace(2, withShare('docs')), memory);
    expect(log).toEqual(['samba']);
    expect(failed.report.ok).toBe(false);

    // Another change that samba does not read: samba is applied again all the same.
    failing = false;
    log.length = 0;
    const retried = await pass(
      drivers,
      workspace(3, { ...withShare('docs'), nfs: { port: 2049, exports: [] } }),
      memory,
    );
    expect(log).toEqual(['samba', 'nfs']);
    expect(retried.report).toMatchObject({ observed_generation: 3, ok: true });
  });

  it('applies every driver on a full check, after a start, for a bare new generation and on the owner’s restart', async () => {
    const log: string[] = [];
    const memory = createReconcileMemory();
    const drivers = threeDrivers(log);
    // Passes 0 and 3 are full checks.
    await pass(drivers, workspace(1), memory, 3);
    log.length = 0;
    await pass(drivers, workspace(2, withShare('a')), memory, 3);
    await pass(drivers, workspace(3, withShare('b')), memory, 3);
    expect(log).toEqual(['samba', 'samba']);
    log.length = 0;
    await pass(drivers, workspace(4, withShare('c')), memory, 3);
    expect(log).toEqual(['users', 'samba', 'nfs']);

    log.length = 0;
    await pass(drivers, workspace(5, withShare('c')), createReconcileMemory());
    expect(log).toEqual(['users', 'samba', 'nfs']);

    // Nothing but a new generation: the API asks for the workspace to be applied again.
    log.length = 0;
    await pass(drivers, workspace(6, withShare('c')), memory);
    expect(log).toEqual(['users', 'samba', 'nfs']);

    log.length = 0;
    await pass(drivers, workspace(7, { ...withShare('c'), restart_token: 'r1' }), memory);
    expect(log).toEqual(['users (restart)', 'samba (restart)', 'nfs (restart)']);
  });

  it('applies an unchanged driver whose look finds drift (its daemon died)', async () => {
    const log: string[] = [];
    let died = false;
    const memory = createReconcileMemory();
    const drivers = [
      reading('users', (d) => d.users, log, { kind: 'base' }),
      reading('nfs', (d) => d.nfs, log, {
        observe: () => (died ? { drift: 'ganesha.nfsd is not running', serving: false } : { serving: true }),
      }),
    ];
    await pass(drivers, workspace(1), memory);
    log.length = 0;
    const users = [desiredUser('anna', 3001), desiredUser('ben', 3002)];
    await pass(drivers, workspace(2, { users }), memory);
    expect(log).toEqual(['users']);
    died = true;
    log.length = 0;
    await pass(drivers, workspace(3, { users: [desiredUser('ben', 3002)] }), memory);
    expect(log).toEqual(['users', 'nfs']);
  });

  it('applies every driver after one that quiesced them (an offline resize)', async () => {
    const log: string[] = [];
    const memory = createReconcileMemory();
    const drivers = [
      reading('storage', (d) => d.storage_bytes, log, { kind: 'base', quiesces: true }),
      reading('nfs', (d) => d.nfs, log),
    ];
    await pass(drivers, workspace(1), memory);
    log.length = 0;
    await pass(drivers, workspace(2, { storage_bytes: 128 * 1024 * 1024 }), memory);
    expect(log).toEqual(['storage', 'nfs']);
  });

  it('applies a driver that looked at the whole desired state on every change', async () => {
    const log: string[] = [];
    const memory = createReconcileMemory();
    const drivers = [reading('everything', (d) => ({ ...d }), log), reading('nfs', (d) => d.nfs, log)];
    await pass(drivers, workspace(1), memory);
    log.length = 0;
    await pass(drivers, workspace(2, withShare('docs')), memory);
    expect(log).toEqual(['everything']);
  });
});
