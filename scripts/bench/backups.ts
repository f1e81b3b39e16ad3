// Backups' figures of issue 18 (acceptance 5), with the real restic through the node agent's own
// job code: a backup of 10,000 small files, first (full, the repository made first) and then
// incremental (nothing changed, then 100 files changed), and the `backup.browse` node call on a
// folder of 10,000 entries (target under 300 ms). Each backup writes its snapshot's listing index
// (apps/agent/src/backup/snapshot-index.ts), which the browses read: its own time, taken from the
// job's log line, is shown apart (it runs beside the repository's measure, so a backup takes less
// longer than that). The storage is a plain folder here: what is timed is restic and the agent's
// handling of it, not a disk image.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  browseSnapshot,
  createRestic,
  firstMissingProgram,
  repositoryPaths,
  runBackupJob,
  silentLogger,
  workspaceLayout,
  type LogFn,
} from '@debesis/agent';
import type { BackupJob } from '@debesis/contract';
import { median } from './vpn.ts';

export interface BackupFigures {
  skipped?: string;
  files: number;
  firstMs: number;
  unchangedMs: number;
  changedMs: number;
  browseMs: number[];
  /** The listing index each backup wrote (first, unchanged, changed), as the job logged it. */
  indexMs: number[];
}

const FILES = 10_000;
const CHANGED = 100;
const BROWSE_RUNS = 7;

export async function measureBackups(): Promise<BackupFigures> {
  const empty = { files: FILES, firstMs: 0, unchangedMs: 0, changedMs: 0, browseMs: [], indexMs: [] };
  const missing = await firstMissingProgram(['restic']);
  if (missing) return { ...empty, skipped: `${missing} is not installed` };

  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-backups-'));
  const serviceId = `bench-${randomUUID()}`;
  const layout = workspaceLayout(path.join(dataDir, 'workspaces', serviceId));
  const folder = path.join(layout.dataRoot, 'shares', 'bench');
  try {
    await mkdir(folder, { recursive: true });
    for (let index = 0; index < FILES; index += 1)
      await writeFile(path.join(folder, `file-${index}.txt`), `file ${index}\n`);

    const paths = repositoryPaths(dataDir, serviceId);
    const restic = createRestic(paths);
    const indexMs: number[] = [];
    const info: LogFn = (fields: string | object, message?: string) => {
      if (message === 'snapshot listing index written' && typeof fields === 'object' && 'ms' in fields)
        indexMs.push(Number(fields.ms));
    };
    const context = {
      paths,
      restic,
      layout,
      usageFile: path.join(dataDir, 'usage.json'),
      now: () => new Date(),
      logger: { ...silentLogger, info },
      signal: new AbortController().signal,
      onLost: async () => undefined,
    };
    const job = (type: BackupJob['type']): BackupJob => ({
      id: randomUUID(),
      kind: 'backup',
      type,
      paths: ['shares/bench'],
      tags: ['schedule:bench', type],
      retention: null,
    });
    const timed = async (type: BackupJob['type']) => {
      const started = performance.now();
      const result = await runBackupJob(job(type), context, () => undefined);
      return { ms: performance.now() - started, snapshotId: result.snapshot_id };
    };

    const first = await timed('full');
    const unchanged = await timed('incremental');
    for (let index = 0; index < CHANGED; index += 1)
      await writeFile(path.join(folder, `file-${index}.txt`), `file ${index}, changed\n`);
    const changed = await timed('incremental');

    const browseMs: number[] = [];
    for (let run = 0; run < BROWSE_RUNS; run += 1) {
      const started = performance.now();
      const listed = await browseSnapshot(paths, { snapshot_id: changed.snapshotId, path: '/shares/bench' });
      browseMs.push(performance.now() - started);
      if (listed.entries.length !== FILES) throw new Error(`browse listed ${listed.entries.length} entries`);
    }
    return {
      files: FILES,
      firstMs: first.ms,
      unchangedMs: unchanged.ms,
      changedMs: changed.ms,
      browseMs,
      indexMs,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printBackups(figures: BackupFigures): void {
  console.log('\nBackups (restic through the agent’s job code, plain folder)');
  if (figures.skipped) {
    console.log(`  skipped: ${figures.skipped}`);
    return;
  }
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log('| what | time |');
  console.log('|---|---:|');
  console.log(
    `| first backup of ${figures.files.toLocaleString('en-US')} small files (repository made first) | ${ms(figures.firstMs)} |`,
  );
  console.log(`| incremental, nothing changed | ${ms(figures.unchangedMs)} |`);
  console.log(`| incremental, ${CHANGED} files changed | ${ms(figures.changedMs)} |`);
  if (figures.indexMs.length > 0)
    console.log(
      `| of each: the snapshot’s listing index, beside the repository’s measure (first, unchanged, changed) | ${figures.indexMs.map(ms).join(', ')} |`,
    );
  console.log(
    `| browse a folder of ${figures.files.toLocaleString('en-US')} entries (target < 300 ms), median of ${figures.browseMs.length} (min) | ${ms(median(figures.browseMs))} (${ms(Math.min(...figures.browseMs))}) |`,
  );
}
