// The backup clients' repositories off the node (issue 37 part 5; docs/features/backup-clients.md):
// with a backup target, the node copies the clients' folder (`<data>/backups/<id>/clients`, the
// quota image's mount) into a restic repository of its own on the target (the desired state's
// `backup.clients_repository`), and a node that takes the workspace over restores it before the
// clients may push again. Decisions:
// - restic backs the folder up, not a file copy: it reaches every backend an operator may
//   configure (REST, SFTP, S3) the same way the workspace's backups do, stores only what changed,
//   and a restore is one command. The node cannot `restic copy` the clients' snapshots: it does not
//   hold their keys, and it must not.
// - Only a whole state is kept. A push writes packs, then the index, then the snapshot; a copy
//   taken while one runs could hold an index naming a pack it missed, and a client pushing on
//   into such a repository would lose data silently. So the copy starts only when no push holds a
//   live lock, and is forgotten again when any repository changed while it ran (its folders'
//   change times, the lock files): the next interval tries again. restic refreshes its locks every
//   5 minutes and calls one older than 30 stale; a stale lock (a client killed mid-push) does not
//   stop the copies.
// - After a copy, the older copies are forgotten but the last three; when a client's repository
//   was deleted since, all but the newest, and the target's repository pruned, so a deleted
//   client's backups leave the target too.
// - A node restores once per workspace it takes (marker `clients-restored`), before its REST
//   server starts (the backup clients' definition's `sync`), and only into an empty folder: a
//   node that holds repositories already (its own workspace, an older agent) keeps them. No copy
//   is taken before that marker exists, so an empty folder on a new node never becomes the
//   newest copy.
// - What was copied and when is kept in `clients-mirror.json`; the report tells each client's
//   `off_node_at` from it.
import { lstat, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import { exists } from '../system/host.ts';
import { clientRepositories } from './client-repositories.ts';
import {
  openRepository,
  repositoryPresent,
  targetRepositoryPaths,
  type RepositoryTarget,
} from './repository.ts';
import { parseSnapshots } from './restic-json.ts';
import type { Restic } from './restic.ts';

/** The host and tag of the copies, apart from anything else restic may find in the repository. */
const HOST = 'debesis';
const TAG = 'debesis-clients';
/** How many copies stay on the target. */
const KEEP = 3;
/** restic's own rule: a lock not refreshed for 30 minutes is stale. */
const STALE_LOCK_MS = 30 * 60_000;

export interface ClientMirrorPaths {
  /** The clients' folder (the REST server's root). */
  root: string;
  /** The workspace's backups folder, where the node's files of the copy live. */
  dir: string;
  /** What was copied last: `clients-mirror.json`. */
  state: string;
  /** The restore is done (or had nothing to do) on this node: `clients-restored`. */
  restored: string;
}

/** The copy's files, beside the workspace's backups (`dir`, `<data>/backups/<id>`). */
export const clientMirrorPaths = (dir: string, root: string): ClientMirrorPaths => ({
  root,
  dir,
  state: join(dir, 'clients-mirror.json'),
  restored: join(dir, 'clients-restored'),
});

/** restic's paths of the copy's repository on the target. */
export const clientMirrorRepository = (paths: ClientMirrorPaths, target: RepositoryTarget) =>
  targetRepositoryPaths(paths.dir, target, 'clients-');

/** What was copied: when, and each repository's state then. */
export interface MirrorState {
  at: string;
  repositories: Record<string, string>;
}

/** The repositories' state now: what a push changes, and whether one is under way. */
export async function clientsSignature(
  root: string,
  nowMs: number,
): Promise<{ busy: boolean; repositories: Record<string, string> }> {
  let busy = false;
  const repositories: Record<string, string> = {};
  for (const name of await clientRepositories(root)) {
    const repository = join(root, name);
    // A push adds to index/ and snapshots/ (data/ has a folder per pack prefix: the index names
    // every pack); `restic init` writes config and keys/.
    const parts = await Promise.all(
      ['config', 'keys', 'index', 'snapshots'].map(async (entry) => {
        const info = await stat(join(repository, entry)).catch(() => undefined);
        return info ? `${info.ctimeMs}/${info.size}` : '-';
      }),
    );
    repositories[name] = parts.join(' ');
    const locks = join(repository, 'locks');
    for (const lock of await readdir(locks).catch(() => [] as string[])) {
      const info = await lstat(join(locks, lock)).catch(() => undefined);
      if (info && nowMs - info.mtimeMs < STALE_LOCK_MS) busy = true;
    }
  }
  return { busy, repositories };
}

export async function readMirrorState(paths: ClientMirrorPaths): Promise<MirrorState | undefined> {
  const text = await readFile(paths.state, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as MirrorState;
    return typeof value.at === 'string' && typeof value.repositories === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function writeMirrorState(paths: ClientMirrorPaths, state: MirrorState): Promise<void> {
  await writeFile(paths.state, JSON.stringify(state), { mode: 0o600 });
}

const sameRepositories = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([name, key]) => b[name] === key);

export interface MirrorDeps {
  paths: ClientMirrorPaths;
  restic: Restic;
  target: RepositoryTarget;
  logger: Logger;
  signal?: AbortSignal;
  nowMs?: () => number;
}

/**
 * Copies the clients' repositories to the target when they changed since the last copy and no
 * push runs; whether a copy was kept.
 */
export async function mirrorClients({ paths, restic, target, logger, signal, nowMs = Date.now }: MirrorDeps) {
  if (!(await exists(paths.restored))) return false;
  const before = await clientsSignature(paths.root, nowMs());
  if (before.busy) return false;
  const last = await readMirrorState(paths);
  if (last && sameRepositories(before.repositories, last.repositories)) return false;

  const repository = clientMirrorRepository(paths, target);
  await openRepository(repository, restic, { create: true, logger, ...(signal ? { signal } : {}) });
  const output = await restic.output(
    ['backup', '--json', `--host=${HOST}`, `--tag=${TAG}`, '--exclude=lost+found', '.'],
    { cwd: paths.root, background: true, ...(signal ? { signal } : {}) },
  );
  const snapshotId = summaryOf(output)?.snapshot_id;
  if (!snapshotId) throw new Error('restic named no snapshot for the copy of the backup clients');

  const after = await clientsSignature(paths.root, nowMs());
  if (after.busy || !sameRepositories(before.repositories, after.repositories)) {
    // A push ran meanwhile: this copy may hold half of it. The next interval copies again.
    await restic.output(['forget', '--', snapshotId], { background: true });
    return false;
  }
  const deletedSince = Object.keys(last?.repositories ?? {}).some((name) => !(name in before.repositories));
  await restic.output(
    ['forget', `--host=${HOST}`, `--tag=${TAG}`, `--keep-last=${deletedSince ? 1 : KEEP}`, '--group-by='],
    { background: true },
  );
  if (deletedSince) await restic.output(['prune'], { background: true });
  await writeMirrorState(paths, { at: new Date(nowMs()).toISOString(), repositories: before.repositories });
  return true;
}

/** The summary line of `restic backup --json`. */
function summaryOf(output: string): { snapshot_id?: string } | undefined {
  for (const line of output.trim().split('\n').reverse()) {
    try {
      const value = JSON.parse(line) as { message_type?: string; snapshot_id?: string };
      if (value.message_type === 'summary') return value;
    } catch {
      // A line that is no JSON (restic's warnings) is no summary.
    }
  }
  return undefined;
}

/**
 * Once per workspace this node takes: the newest copy restored into an empty clients' folder
 * before the REST server starts. Returns what it did.
 */
export async function restoreClientsOnce({
  paths,
  restic,
  target,
  signal,
}: Omit<MirrorDeps, 'logger'>): Promise<string[]> {
  if (await exists(paths.restored)) return [];
  const done = async (actions: string[]) => {
    await writeFile(paths.restored, `${new Date().toISOString()}\n`, { mode: 0o600 });
    return actions;
  };
  if ((await clientRepositories(paths.root)).length > 0) return done([]);
  const repository = clientMirrorRepository(paths, target);
  if (!(await repositoryPresent(repository, restic, signal))) return done([]);
  const copies = parseSnapshots(
    await restic.output(['--no-lock', 'snapshots', '--json', `--host=${HOST}`, `--tag=${TAG}`], {
      ...(signal ? { signal } : {}),
    }),
  );
  const newest = copies.sort((a, b) => a.time.localeCompare(b.time)).at(-1);
  if (!newest) return done([]);
  await restic.output(['restore', newest.id, '--target', paths.root], {
    timeoutMs: 24 * 3_600_000,
    ...(signal ? { signal } : {}),
  });
  const restored = await clientsSignature(paths.root, Date.now());
  // What was restored is what the copy holds: no new copy until a client pushes.
  await writeMirrorState(paths, { at: newest.time, repositories: restored.repositories });
  return done([
    `restored ${Object.keys(restored.repositories).length} backup client repositories from the backup target (copy of ${newest.time})`,
  ]);
}

/** When each repository was last copied as it is now: `off_node_at` of the report. */
export async function offNodeTimes(paths: ClientMirrorPaths): Promise<Map<string, string>> {
  const state = await readMirrorState(paths);
  if (!state) return new Map();
  return new Map(Object.keys(state.repositories).map((name) => [name, state.at]));
}
