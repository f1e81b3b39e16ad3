// Acceptance point 3 of issue 14, live as root: the Samba definition fails (its smbd path does
// not exist), and the rest of the workspace still stands: its storage is mounted, its address is
// there, its users are written with their homes; the report says Samba failed and why. Once
// Samba works again, the next pass serves it. Skipped (with the reason) where it cannot run.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { SAMBA_SERVER_DEFAULTS, WORKSPACE_ID_FIRST_BASE as B } from '@debesis/contract';
import type { Driver } from './drivers/driver.ts';
import { createDefaultDrivers } from './drivers/registry.ts';
import { createSambaDriver, SAMBA_DRIVER } from './drivers/samba.driver.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { canConnect } from './net/wait-for-port.ts';
import { createReconcileMemory, reconcileOnce } from './reconcile.ts';
import { exists, firstMissingProgram, isRoot } from './system/host.ts';
import { loopDevicesOf } from './system/loop-devices.ts';
import { mountAt } from './system/mounts.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { workspaceLayout } from './workspace-layout.ts';

async function skipReason(): Promise<string | undefined> {
  if (!isRoot()) return 'not root';
  const missing = await firstMissingProgram(['smbd', 'testparm', 'pdbedit', 'losetup', 'mkfs.ext4', 'ip']);
  if (missing) return `${missing} is not installed`;
  if (!(await exists('/dev/loop-control'))) return 'no loop devices';
  return undefined;
}
const reason = await skipReason();
if (reason) console.warn(`[agent] live feature-failure test skipped: ${reason}`);

const SERVICE = `live-${randomUUID()}`;
const ADDRESS = `127.0.11.${10 + Math.floor(Math.random() * 200)}`;
const PORT = 445;
let dataDir: string;
let generation = 0;
const memory = createReconcileMemory();
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));

const state = (extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState =>
  desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 32 * 1024 * 1024,
    id_base: B,
    users: [desiredUser('alice', B + 1)],
    samba: {
      shares: [desiredShare('docs', { users: [{ name: 'alice', ...perms(true, true) }] })],
      settings: SAMBA_SERVER_DEFAULTS,
    },
    ...extra,
  });

function drivers(smbd?: string): readonly Driver[] {
  const all = createDefaultDrivers({ live: true, smbPort: PORT, addressPool: [ADDRESS] });
  if (!smbd) return all;
  return all.map((d) => (d.name === SAMBA_DRIVER ? createSambaDriver({ port: PORT, program: smbd }) : d));
}

async function pass(desired: WorkspaceDesiredState, with_: readonly Driver[]): Promise<WorkspaceReport> {
  generation += 1;
  const reports: NodeReportRequest[] = [];
  await reconcileOnce(
    {
      api: {
        desiredState: () =>
          Promise.resolve({ node_id: randomUUID(), workspaces: [{ ...desired, generation }] }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir,
      addresses: [ADDRESS],
      agentVersion: 'test',
      drivers: with_,
      logger: silentLogger,
      run: runCommand,
      fullCheckEvery: 1,
    },
    memory,
  );
  return reports[0]!.workspaces[0]!;
}

async function aliasPresent(): Promise<boolean> {
  return (await runCommand('ip', ['-o', 'addr', 'show', 'dev', 'lo'])).stdout.includes(`${ADDRESS}/32`);
}

describe.skipIf(reason !== undefined)('a failing feature (live, root)', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'agent-feature-'));
  });
  afterAll(async () => {
    if (!dataDir) return;
    // Removal stops smbd, drops the alias, unmounts and deletes; then make sure of each.
    await pass(state({ state: 'removed' }), drivers()).catch(() => undefined);
    const l = layout();
    if (await mountAt(l.dataRoot)) await runCommand('umount', ['-l', l.dataRoot]);
    for (const device of await loopDevicesOf(l.image)) await runCommand('losetup', ['-d', device]);
    if (await aliasPresent()) await runCommand('ip', ['addr', 'del', `${ADDRESS}/32`, 'dev', 'lo']);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('acceptance 3: Samba with a bad program path fails with its reason; storage, address and users stand', async () => {
    const report = await pass(state(), drivers('/nonexistent/sbin/smbd'));
    expect(report).toMatchObject({
      ok: false,
      observed_generation: generation,
      error_code: 'driver_failed',
      error_params: { driver: 'samba' },
    });
    const samba = report.drivers.find((d) => d.driver === 'samba');
    expect(samba).toMatchObject({ live: false, serving: false });
    expect(samba?.reason).toMatch(/^smbd did not start: the daemon exited before listening/);
    expect(samba?.reason).toContain('/nonexistent/sbin/smbd');
    expect(report.failures).toEqual([
      {
        kind: 'share',
        name: 'docs',
        error: expect.stringMatching(/^not served: samba: smbd did not start/) as string,
      },
    ]);
    expect(report.drivers.filter((d) => d.driver !== 'samba').map((d) => [d.driver, d.live])).toEqual([
      ['workspace-dir', true],
      ['storage', true],
      ['address', true],
      ['users', true],
    ]);
    // Storage, address and users are applied.
    expect(await mountAt(layout().dataRoot)).toMatchObject({ fsType: 'ext4' });
    expect(await aliasPresent()).toBe(true);
    expect(await readFile(layout().passwd, 'utf8')).toContain(`alice:x:${B + 1}:${B}:`);
    const home = await stat(join(layout().homesRoot, 'alice'));
    expect([home.uid, home.mode & 0o777]).toEqual([B + 1, 0o700]);
    expect(await canConnect(ADDRESS, PORT)).toBe(false);
  });

  it('with a working smbd the next pass serves the workspace and the report is ok again', async () => {
    const report = await pass(state(), drivers());
    expect(report).toMatchObject({ ok: true, failures: [] });
    expect(report.drivers.find((d) => d.driver === 'samba')).toEqual({
      driver: 'samba',
      live: true,
      serving: true,
    });
    expect(await canConnect(ADDRESS, PORT)).toBe(true);
  });
});
