// How a pass treats the two kinds of driver and the owner's restart, with fake drivers: a base
// driver that throws stops the workspace's pass; a feature driver that throws is reported with
// its reason and the others still apply; the restart_token is acted on once for the whole
// workspace. (Task drivers' jobs: daemons/task-driver.test.ts.)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMBA_NOT_USED, type WorkspaceDesiredState } from '@debesis/contract';
import type { Driver } from './drivers/driver.ts';
import { createReconcileMemory, type ReconcileMemory } from './reconcile.ts';
import { fakePass } from './testing/fake-pass.ts';
import { desiredShare, desiredWorkspace } from './testing/desired.ts';
import { useTempDir } from './testing/temp-dir.ts';

const dataDir = useTempDir('reconcile-drivers-');

const SERVICE = 'ws-1';
const wsDir = () => join(dataDir(), 'workspaces', SERVICE);

const pass = (
  drivers: readonly Driver[],
  desired: WorkspaceDesiredState,
  memory: ReconcileMemory = createReconcileMemory(),
  fullCheckEvery = 1,
) => fakePass({ dataDir: dataDir(), drivers, desired, memory, fullCheckEvery });

/** A driver that records each apply (and whether it was asked to restart). */
function recording(
  name: string,
  kind: 'base' | 'feature',
  log: string[],
  options: { fails?: () => boolean; serving?: boolean } = {},
): Driver {
  return {
    name,
    kind,
    async apply(_desired, context) {
      await mkdir(context.workspaceDir, { recursive: true });
      log.push(context.restart ? `${name} (restart)` : name);
      if (options.fails?.()) throw new Error(`${name} did not start: bad program path`);
      return {
        changed: false,
        actions: [],
        status: { driver: name, live: true, ...(options.serving ? { serving: true } : {}) },
      };
    },
    observe: () => Promise.resolve(options.serving ? { serving: false, facts: { started_at: null } } : {}),
    resources: (desired) =>
      (desired.samba ?? SAMBA_NOT_USED).shares.map((s) => ({ kind: 'share' as const, name: s.name })),
  };
}

const desired = (extra: Partial<WorkspaceDesiredState> = {}) =>
  desiredWorkspace({
    service_id: SERVICE,
    generation: 5,
    samba: {
      shares: [desiredShare('docs'), desiredShare('team')],
      settings: { workgroup: 'W', server_string: '', min_protocol: 'SMB2' },
    },
    ...extra,
  });

describe('facts of several daemons', () => {
  const daemon = (name: string, startedAt: string | null): Driver => ({
    name,
    kind: 'feature',
    async apply(_desired, context) {
      await mkdir(context.workspaceDir, { recursive: true });
      return {
        changed: false,
        actions: [],
        status: { driver: name, live: true, serving: startedAt !== null },
        facts: { started_at: startedAt },
      };
    },
    observe: () => Promise.resolve({ serving: startedAt !== null, facts: { started_at: startedAt } }),
  });

  it('the workspace has served since its earliest running daemon started, whichever reports last', async () => {
    const drivers = [
      daemon('samba', '2026-11-23T10:00:00.000Z'),
      daemon('vpn', '2026-11-23T12:00:00.000Z'),
      daemon('ftp', null),
    ];
    const memory = createReconcileMemory();
    const { report } = await pass(drivers, desired(), memory);
    expect(report.facts?.started_at).toBe('2026-11-23T10:00:00.000Z');
    const observed = await pass(drivers, desired(), memory, 1_000_000);
    expect(observed.report.facts?.started_at).toBe('2026-11-23T10:00:00.000Z');
    const none = await pass([daemon('samba', null), daemon('vpn', null)], desired());
    expect(none.report.facts?.started_at).toBeNull();
  });
});

describe('base and feature drivers', () => {
  it('a failing feature is reported with its reason; the base drivers and the other features are applied', async () => {
    const log: string[] = [];
    const drivers = [
      recording('storage', 'base', log),
      recording('users', 'base', log),
      recording('samba', 'feature', log, { fails: () => true, serving: true }),
      recording('vpn', 'feature', log),
    ];
    const { report } = await pass(drivers, desired());
    expect(log).toEqual(['storage', 'users', 'samba', 'vpn']);
    expect(report).toEqual({
      service_id: SERVICE,
      // What it asked of the folder, storage and users is applied: users show applied.
      observed_generation: 5,
      ok: false,
      error: 'samba: samba did not start: bad program path',
      error_code: 'driver_failed',
      error_params: { driver: 'samba' },
      drivers: [
        { driver: 'storage', live: true },
        { driver: 'users', live: true },
        { driver: 'samba', live: false, reason: 'samba did not start: bad program path', serving: false },
        { driver: 'vpn', live: true },
      ],
      failures: [
        { kind: 'share', name: 'docs', error: 'not served: samba: samba did not start: bad program path' },
        { kind: 'share', name: 'team', error: 'not served: samba: samba did not start: bad program path' },
      ],
      facts: { disk_used_bytes: 0, file_count: 0, started_at: null },
    });
  });

  it('a failing base driver still stops the pass (nothing after it is applied)', async () => {
    const log: string[] = [];
    const drivers = [
      recording('storage', 'base', log, { fails: () => true }),
      recording('users', 'base', log),
      recording('samba', 'feature', log),
    ];
    const { report } = await pass(drivers, desired());
    expect(log).toEqual(['storage']);
    expect(report).toMatchObject({ ok: false, observed_generation: 0, error_code: 'driver_failed' });
  });

  it('a failed feature is applied again on the next pass, and the report is ok once it works', async () => {
    const log: string[] = [];
    let broken = true;
    const drivers = [
      recording('users', 'base', log),
      recording('samba', 'feature', log, { fails: () => broken }),
    ];
    const memory = createReconcileMemory();
    expect((await pass(drivers, desired(), memory, 1000)).report.ok).toBe(false);
    broken = false;
    const { result, report } = await pass(drivers, desired(), memory, 1000);
    expect(result.applied).toEqual([SERVICE]);
    expect(report).toMatchObject({ ok: true, observed_generation: 5, failures: [] });
  });
});

describe('the owner’s restart, once per workspace', () => {
  it('a new restart_token restarts every daemon of the workspace once', async () => {
    const log: string[] = [];
    const drivers = [
      recording('users', 'base', log),
      recording('samba', 'feature', log),
      recording('vpn', 'feature', log),
    ];
    const memory = createReconcileMemory();
    await pass(drivers, desired(), memory);
    await pass(drivers, desired({ restart_token: '7' }), memory);
    await pass(drivers, desired({ restart_token: '7' }), memory);
    expect(log).toEqual([
      ...['users', 'samba', 'vpn'],
      ...['users (restart)', 'samba (restart)', 'vpn (restart)'],
      ...['users', 'samba', 'vpn'],
    ]);
  });

  it('is not acted on while a base driver fails, and is once it works', async () => {
    const log: string[] = [];
    let broken = true;
    const drivers = [
      recording('storage', 'base', log, { fails: () => broken }),
      recording('samba', 'feature', log),
    ];
    const memory = createReconcileMemory();
    await pass(drivers, desired({ restart_token: '8' }), memory);
    broken = false;
    await pass(drivers, desired({ restart_token: '8' }), memory);
    await pass(drivers, desired({ restart_token: '8' }), memory);
    expect(log).toEqual(['storage (restart)', 'storage (restart)', 'samba (restart)', 'storage', 'samba']);
  });

  it('takes the token the Samba driver recorded before an upgrade as acted on', async () => {
    await mkdir(join(wsDir(), 'samba'), { recursive: true });
    await writeFile(join(wsDir(), 'samba', 'restart-token'), '9\n');
    const log: string[] = [];
    await pass([recording('samba', 'feature', log)], desired({ restart_token: '9' }));
    expect(log).toEqual(['samba']);
  });
});
