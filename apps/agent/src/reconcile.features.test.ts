// What features observe reaches the workspace report on every pass: a fake daemon definition
// with a `report`, run by the generic daemon driver on a host that cannot run it (so no program
// runs), through a full pass and the observe-only passes after it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState, WorkspaceFeatureReports } from '@debesis/contract';
import { daemonDriver } from './daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition } from './daemons/definition.ts';
import type { Driver } from './drivers/driver.ts';
import { createReconcileMemory, type ReconcileMemory } from './reconcile.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { fakePass } from './testing/fake-pass.ts';
import { useTempDir } from './testing/temp-dir.ts';

const dataDir = useTempDir('reconcile-features-');

const SERVICE = 'ws-1';

const pass = (drivers: readonly Driver[], desired: WorkspaceDesiredState, memory: ReconcileMemory) =>
  // The first pass applies; the next ones only observe.
  fakePass({ dataDir: dataDir(), drivers, desired, memory, fullCheckEvery: 1000 });

/** A VPN-like definition whose report counts how often it was asked, and where. */
function reportingDefinition(
  asked: DaemonContext[],
  options: { fails?: () => boolean; needed?: (d: WorkspaceDesiredState) => boolean } = {},
): DaemonDefinition {
  return {
    name: 'fakevpn',
    daemon: 'fakevpnd',
    programs: [],
    notNeeded: (desired) => ((options.needed?.(desired) ?? true) ? undefined : 'no users'),
    resources: () => [],
    render: () => Promise.resolve({ files: [], failures: [], actions: [] }),
    argv: () => ['fakevpnd'],
    listens: () => ({ host: '127.0.0.1', port: 1 }),
    reload: () => ({ kind: 'restart' }),
    report(_desired, context) {
      asked.push(context);
      if (options.fails?.()) return Promise.reject(new Error('management socket timed out'));
      const section: WorkspaceFeatureReports = {
        vpn: {
          sessions: [],
          usage: [
            {
              user: 'alice',
              month: '2026-11',
              bytes_received: asked.length,
              bytes_sent: 0,
              over_limit: false,
            },
          ],
        },
      };
      return Promise.resolve(section);
    },
  };
}

const notLive = { whyNotLive: () => Promise.resolve('not live: a test') };
const received = (report: { features?: WorkspaceFeatureReports }) =>
  report.features?.vpn?.usage[0]?.bytes_received;

describe('feature reports', () => {
  it('are asked on the full pass and afresh on every observe-only pass, in the feature’s own folder', async () => {
    const asked: DaemonContext[] = [];
    const drivers = [daemonDriver(reportingDefinition(asked), notLive)];
    const memory = createReconcileMemory();
    const desired = desiredWorkspace({ service_id: SERVICE });

    const first = await pass(drivers, desired, memory);
    expect(first.result.applied).toEqual([SERVICE]);
    expect(first.report.ok).toBe(true);
    expect(received(first.report)).toBe(1);

    const second = await pass(drivers, desired, memory);
    expect(second.result.skipped).toEqual([SERVICE]);
    expect(received(second.report)).toBe(2);
    const third = await pass(drivers, desired, memory);
    expect(received(third.report)).toBe(3);
    expect(asked.map((context) => context.dir)).toEqual(
      Array(3).fill(join(dataDir(), 'workspaces', SERVICE, 'fakevpn')),
    );
  });

  it('a feature that cannot say is left out and the workspace stays ok; the others still report', async () => {
    const asked: DaemonContext[] = [];
    let failing = false;
    const failingOne = daemonDriver(reportingDefinition(asked, { fails: () => failing }), notLive);
    const other: Driver = {
      name: 'other',
      kind: 'feature',
      apply: () => Promise.resolve({ changed: false, actions: [], status: { driver: 'other', live: true } }),
      report: () => Promise.resolve({}),
    };
    const memory = createReconcileMemory();
    const desired = desiredWorkspace({ service_id: SERVICE });
    expect((await pass([failingOne, other], desired, memory)).report.features?.vpn).toBeDefined();

    failing = true;
    const { report, result } = await pass([failingOne, other], desired, memory);
    expect(result.skipped).toEqual([SERVICE]);
    expect(report.ok).toBe(true);
    // Not the last pass's section either: what is not known now is not reported.
    expect(report.features).toBeUndefined();
  });

  it('are not asked of a feature the workspace does not need, nor of a removed workspace', async () => {
    const asked: DaemonContext[] = [];
    const drivers = [daemonDriver(reportingDefinition(asked, { needed: () => false }), notLive)];
    const memory = createReconcileMemory();
    const first = await pass(drivers, desiredWorkspace({ service_id: SERVICE }), memory);
    expect(first.report.features).toBeUndefined();
    const removed = await pass(
      [daemonDriver(reportingDefinition(asked), notLive)],
      desiredWorkspace({ service_id: SERVICE, state: 'removed', generation: 2 }),
      memory,
    );
    expect(removed.report.features).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
