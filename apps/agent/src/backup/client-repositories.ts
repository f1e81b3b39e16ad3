// The repositories backup clients push into (docs/features/backup-clients.md), beside the
// workspace's own backups and like them outside its folder and storage:
//
//   <data>/backups/<service id>/clients/          0700, root: the REST server's root, live the
//                                                 mount of the clients' quota image
//                                                 (client-quota.ts)
//   <data>/backups/<service id>/clients/<name>/   one client's restic repository, made by the
//                                                 client's `restic init` through the server
//
// What the node tells of each (its snapshots, size, last push, a push under way) is read from the
// repository's files, never with restic: the node does not hold the client's key. Its snapshots
// folder changes exactly when a push ends (restic writes one file per snapshot, and append-only
// forbids deleting), so the counts and the size are measured again only then; a lock file says a
// push is under way. Everything is read on every report pass, so the measure is kept in memory.
import { lstat, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKSPACE_NAME_PATTERN, type BackupClientReport } from '@debesis/contract';
import { diskBytes } from './usage.ts';
import { repositoryPaths } from './repository.ts';

/** `<data>/backups/<service id>/clients`. */
export const clientRepositoriesRoot = (dataDir: string, serviceId: string) =>
  join(repositoryPaths(dataDir, serviceId).dir, 'clients');

interface Measured {
  /** The snapshots folder's change time when measured (ms), or -1 when it had none. */
  snapshotsChanged: number;
  snapshots: number;
  lastPushAt: string | null;
  bytes: number;
}

const measured = new Map<string, Measured>();

async function listNames(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

async function measure(repository: string, snapshotsChanged: number): Promise<Measured> {
  const snapshotsDir = join(repository, 'snapshots');
  const names = await listNames(snapshotsDir);
  let newest = 0;
  for (const name of names) {
    const info = await stat(join(snapshotsDir, name)).catch(() => undefined);
    if (info && info.mtimeMs > newest) newest = info.mtimeMs;
  }
  return {
    snapshotsChanged,
    snapshots: names.length,
    lastPushAt: newest > 0 ? new Date(newest).toISOString() : null,
    bytes: await diskBytes(repository),
  };
}

/** One client's repository as the report tells it. */
export async function clientRepositoryReport(root: string, name: string): Promise<BackupClientReport> {
  const repository = join(root, name);
  const snapshotsInfo = await stat(join(repository, 'snapshots')).catch(() => undefined);
  const changed = snapshotsInfo ? snapshotsInfo.ctimeMs : -1;
  let known = measured.get(repository);
  if (!known || known.snapshotsChanged !== changed) {
    known = await measure(repository, changed);
    measured.set(repository, known);
  }
  const locks = await listNames(join(repository, 'locks'));
  return {
    name,
    snapshots: known.snapshots,
    repository_bytes: known.bytes,
    last_push_at: known.lastPushAt,
    pushing: locks.length > 0,
  };
}

/** Every client repository under `root` (folders of client names; anything else is not one). */
export async function clientRepositories(root: string): Promise<string[]> {
  const names: string[] = [];
  for (const name of (await listNames(root)).sort()) {
    if (!WORKSPACE_NAME_PATTERN.test(name)) continue;
    const info = await lstat(join(root, name)).catch(() => undefined);
    if (info?.isDirectory()) names.push(name);
  }
  return names;
}

/**
 * Deletes what under `root` is no repository to keep (a deleted client's, or anything else put
 * there); returns what it deleted. Entries are taken by lstat, never followed.
 */
export async function deleteOtherRepositories(root: string, keep: readonly string[]): Promise<string[]> {
  // lost+found: the quota image's own (backup/client-quota.ts), no client's (not a client name).
  const kept = new Set([...keep, 'lost+found']);
  const deleted: string[] = [];
  for (const name of await listNames(root)) {
    if (kept.has(name)) continue;
    const path = join(root, name);
    await rm(path, { recursive: true, force: true });
    measured.delete(path);
    deleted.push(path);
  }
  return deleted;
}
