// Snapshots' figures of issue 37: the time to take one (`btrfs subvolume snapshot -r` of the
// workspace's data subvolume, through the agent's own takeSnapshot) on a 1 GiB btrfs workspace
// holding 10,000 small files, and what snapshots add to each reconcile pass: the storage driver's
// report when no snapshot is due (list + retention check) and when one is (it takes it), and its
// observe (reads the image's superblock and the mounts). And replication to a standby storage on
// the same host (snapshots/replication.ts): a whole send of a snapshot holding 256 MiB of new
// data, then an incremental one after 256 MiB more: bytes carried and time, per changed GiB. Live
// only: root with btrfs-progs; the storage driver alone (no network, no daemons), in a temporary
// data folder removed after.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createStorageImageDriver,
  firstMissingProgram,
  isRoot,
  replicateSnapshot,
  runCommand,
  silentLogger,
  takeSnapshot,
  workspaceLayout,
} from '@debesis/agent';
import { WORKSPACE_ID_FIRST_BASE, type WorkspaceDesiredState } from '@debesis/contract';
import { median } from './vpn.ts';

export interface SnapshotFigures {
  skipped?: string;
  files: number;
  takeMs: number[];
  reportIdleMs: number[];
  reportDueMs: number;
  observeMs: number[];
  snapshotsHeld: number;
  replication?: {
    wholeBytes: number;
    wholeMs: number;
    changedBytes: number;
    incrementBytes: number;
    incrementMs: number;
  };
}

const FILES = 10_000;
const RUNS = 9;
/** New data written before each replication, in chunks (random: btrfs cannot compress it away). */
const CHANGED_BYTES = 256 * 1024 * 1024;
const CHUNK = 32 * 1024 * 1024;

export async function measureSnapshots(): Promise<SnapshotFigures> {
  const empty = {
    files: FILES,
    takeMs: [],
    reportIdleMs: [],
    reportDueMs: 0,
    observeMs: [],
    snapshotsHeld: 0,
  };
  if (!isRoot()) return { ...empty, skipped: 'not root' };
  const missing = await firstMissingProgram(['mkfs.btrfs', 'btrfs', 'losetup']);
  if (missing) return { ...empty, skipped: `${missing} is not installed` };

  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-snapshots-'));
  const serviceId = `bench-${randomUUID()}`;
  const workspaceDir = path.join(dataDir, 'workspaces', serviceId);
  const layout = workspaceLayout(workspaceDir);
  const driver = createStorageImageDriver();
  const context = { dataDir, workspaceDir, logger: silentLogger, run: runCommand };
  const standbyId = `bench-${randomUUID()}`;
  const standbyDir = path.join(dataDir, 'workspaces', standbyId);
  const standbyContext = { ...context, workspaceDir: standbyDir };
  const desired: WorkspaceDesiredState = {
    service_id: serviceId,
    generation: 1,
    state: 'running',
    address: '198.18.0.1',
    storage_bytes: 1024 * 1024 * 1024,
    id_base: WORKSPACE_ID_FIRST_BASE,
    users: [],
    groups: [],
  };
  const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
    const started = performance.now();
    const result = await work();
    return [performance.now() - started, result];
  };
  try {
    await mkdir(workspaceDir, { recursive: true });
    await driver.apply(desired, context);
    const folder = path.join(layout.dataRoot, 'shares', 'bench');
    await mkdir(folder, { recursive: true });
    for (let index = 0; index < FILES; index += 1)
      await writeFile(path.join(folder, `file-${index}.txt`), `file ${index}\n`);

    // The first report finds a scheduled snapshot due (none yet) and takes it.
    const [reportDueMs] = await timed(() => driver.report!(desired, context));
    const reportIdleMs: number[] = [];
    const observeMs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      reportIdleMs.push((await timed(() => driver.report!(desired, context)))[0]);
      observeMs.push((await timed(() => driver.observe!(desired, context)))[0]);
    }
    const takeMs: number[] = [];
    const start = Date.now() + 60_000;
    for (let run = 0; run < RUNS; run += 1) {
      // A second of its own each (a name is the UTC second), and a file changed between them.
      await writeFile(path.join(folder, `file-${run}.txt`), `file ${run}, changed\n`);
      takeMs.push(
        (await timed(() => takeSnapshot(layout, runCommand, 'manual', new Date(start + run * 1000))))[0],
      );
    }
    const report = await driver.report!(desired, context);

    // Replication: into a second storage's snapshots, whole, then only what changed.
    const standby = { ...desired, service_id: standbyId };
    await mkdir(standbyDir, { recursive: true });
    await driver.apply(standby, standbyContext);
    const writeNew = async (name: string) => {
      for (let part = 0; part < CHANGED_BYTES / CHUNK; part += 1)
        await writeFile(path.join(folder, name), randomBytes(CHUNK), { flag: part === 0 ? 'w' : 'a' });
    };
    await writeNew('replicated-1.bin');
    const first = await takeSnapshot(layout, runCommand, 'manual', new Date(start + RUNS * 1000));
    const [wholeMs, whole] = await timed(() =>
      replicateSnapshot(layout, workspaceLayout(standbyDir), first.name, undefined, runCommand),
    );
    await writeNew('replicated-2.bin');
    const second = await takeSnapshot(layout, runCommand, 'manual', new Date(start + (RUNS + 1) * 1000));
    const [incrementMs, increment] = await timed(() =>
      replicateSnapshot(layout, workspaceLayout(standbyDir), second.name, first.name, runCommand),
    );
    await driver.apply({ ...standby, state: 'removed' }, standbyContext);
    return {
      files: FILES,
      takeMs,
      reportIdleMs,
      reportDueMs,
      observeMs,
      snapshotsHeld: report.snapshots?.snapshots.length ?? 0,
      replication: {
        wholeBytes: whole.bytes,
        wholeMs,
        changedBytes: CHANGED_BYTES,
        incrementBytes: increment.bytes,
        incrementMs,
      },
    };
  } finally {
    await driver.apply({ ...desired, state: 'removed' }, context).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printSnapshots(figures: SnapshotFigures): void {
  console.log('\nSnapshots (btrfs, the storage driver alone, 1 GiB workspace)');
  if (figures.skipped) {
    console.log(`  skipped: ${figures.skipped}`);
    return;
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const spread = (values: number[]) =>
    `${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
  console.log('| what | median (min–max) |');
  console.log('|---|---:|');
  console.log(
    `| take a snapshot on demand, ${figures.files.toLocaleString('en-US')} files in the storage, ${figures.takeMs.length} runs | ${spread(figures.takeMs)} |`,
  );
  console.log(`| a pass's snapshot report, none due (list + retention) | ${spread(figures.reportIdleMs)} |`);
  console.log(`| a pass's snapshot report that takes the scheduled one | ${ms(figures.reportDueMs)} |`);
  console.log(`| the storage driver's observe (superblock + mounts) | ${spread(figures.observeMs)} |`);
  console.log(
    `| snapshots held after (retention kept every one: all are recent) | ${figures.snapshotsHeld} |`,
  );
  const r = figures.replication;
  if (!r) return;
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const changedGiB = r.changedBytes / 1024 ** 3;
  console.log('\nReplication to a standby storage on this host (btrfs send | btrfs receive)');
  console.log('| send | carried | time | per changed GiB |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| whole: 10,000 files + ${mib(r.changedBytes)} new | ${mib(r.wholeBytes)} | ${ms(r.wholeMs)} | - |`,
  );
  console.log(
    `| incremental: ${mib(r.changedBytes)} new since the parent | ${mib(r.incrementBytes)} | ${ms(r.incrementMs)} | ${(r.incrementMs / 1000 / changedGiB).toFixed(2)} s, ${(r.incrementBytes / r.changedBytes).toFixed(3)} bytes per byte |`,
  );
}
