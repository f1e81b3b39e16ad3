// What the repository holds, measured after each job that changed it and kept in
// `<ws>/backup/usage.json`, so every pass reports it without running restic: the bytes it takes
// on the node's disk, the bytes of data restic stores (after deduplication and compression), and
// the snapshots (full ids), from which the API learns what retention forgot.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { backupUsageReportSchema, type BackupUsageReport } from '@debesis/contract';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { RepositoryPaths } from './repository.ts';
import type { Restic } from './restic.ts';
import { parseSnapshots, parseStatsTotalSize, type ResticSnapshot } from './restic-json.ts';

export interface RepositoryUsage {
  usage: BackupUsageReport | null;
  snapshot_ids: string[] | null;
}

const usageFileSchema = z.object({
  usage: backupUsageReportSchema.nullable(),
  snapshot_ids: z.array(z.string()).nullable(),
});

export const NOT_MEASURED: RepositoryUsage = { usage: null, snapshot_ids: null };

/** Bytes a folder's files take on disk (blocks, not lengths), every file counted. */
export async function diskBytes(root: string): Promise<number> {
  let bytes = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const info = await lstat(join(dir, name)).catch(() => undefined);
      if (!info) continue;
      bytes += info.blocks * 512;
      if (info.isDirectory()) pending.push(join(dir, name));
    }
  }
  return bytes;
}

/** The repository's snapshots (read-only, no lock). */
export async function listSnapshots(restic: Restic, signal?: AbortSignal): Promise<ResticSnapshot[]> {
  return parseSnapshots(await restic.output(['--no-lock', 'snapshots', '--json'], { signal }));
}

export async function measureRepository(
  paths: RepositoryPaths,
  restic: Restic,
  now: Date,
  signal?: AbortSignal,
): Promise<{ measured: RepositoryUsage; snapshots: ResticSnapshot[] }> {
  const snapshots = await listSnapshots(restic, signal);
  const storedBytes = parseStatsTotalSize(
    await restic.output(['--no-lock', 'stats', '--json', '--mode', 'raw-data'], { background: true, signal }),
  );
  return {
    snapshots,
    measured: {
      usage: {
        // On the backup target no folder of the node's can be walked: the data restic stores
        // is the size (its index and snapshot files, a few percent, are left out).
        repository_bytes: paths.remote ? storedBytes : await diskBytes(paths.repository),
        stored_bytes: storedBytes,
        snapshots: snapshots.length,
        measured_at: now.toISOString(),
      },
      snapshot_ids: snapshots.map((snapshot) => snapshot.id),
    },
  };
}

/** The gone repository's measure: nothing left (the API marks every snapshot forgotten). */
export const emptyUsage = (now: Date): RepositoryUsage => ({
  usage: { repository_bytes: 0, stored_bytes: 0, snapshots: 0, measured_at: now.toISOString() },
  snapshot_ids: [],
});

/** The last measure per file, as written: a pass reads no file for it after the first. */
const known = new Map<string, RepositoryUsage>();

export async function readUsage(file: string): Promise<RepositoryUsage> {
  const cached = known.get(file);
  if (cached) return cached;
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return NOT_MEASURED;
  let usage = NOT_MEASURED;
  try {
    const parsed = usageFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) usage = parsed.data;
  } catch {
    // Not what this agent writes: measured again after the next job.
  }
  known.set(file, usage);
  return usage;
}

export async function writeUsage(file: string, usage: RepositoryUsage): Promise<void> {
  await writeIfChanged(file, `${JSON.stringify(usage)}\n`, { mode: 0o640 });
  known.set(file, usage);
}

export function forgetUsage(file: string): void {
  known.delete(file);
}
