// Where a workspace's backups live on the node, and their repository's life: outside the
// workspace's folder and its storage image, so neither a full storage nor the workspace's own
// files can reach them, and no daemon's namespace holds them (the data folder is covered there).
//
//   <data>/backups/                     0700, root
//   <data>/backups/<service id>/        0700: password (the repository's key, 32 random bytes,
//                                       0600), repository/ (restic's), initialized (marker),
//                                       cache/ (restic's cache), tmp/ (restic's temporary files),
//                                       index/ (snapshot listings, snapshot-index.ts), clients/
//                                       (backup clients' repositories, client-repositories.ts)
//
// The repository is made at the first job (`restic init`) and the marker written. When the
// repository is gone later (a disk replaced, a folder deleted by hand) while the marker says it
// was made, the job that finds it fails `repository_missing`: the older backups are lost, and
// the marker goes, so the next job starts a new repository. A removed workspace's folder is
// deleted whole.
//
// Off the node (docs/features/backups.md "Backups off the node"): when the desired state names a
// repository (a URL on the operator's backup target, and the API's key for it), restic uses that
// instead, and the node keeps only what it can lose: the key as the API sent it (`target-password`,
// 0600, beside and apart from the node's own `password`, so a node that had a local repository
// before still opens it), its marker (`target-initialized`), the cache and the listing index. Such
// a repository may have been made by another node (the workspace moved, its node died): whether it
// is there is asked of restic (`cat config`), and one that is there is opened, never made again
// (restic's `init` refuses an existing one too). It is not made cheap (below): that writes restic's
// key files by hand, which only a local repository allows, so every call there derives restic's own
// key (~0.5 s). Removing the workspace deletes the node's folder; the repository on the target
// stays for the target's operator to clear (its key stays with the API's row of the service).
import { randomBytes } from 'node:crypto';
import { copyFile, lstat, open, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureDir } from '../fs/ensure-dir.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { Logger } from '../logger.ts';
import { exists } from '../system/host.ts';
import { workspaceDir } from '../workspace-paths.ts';
import { BackupJobFailure } from './failure.ts';
import { failureCode, ResticError, withoutUrlPasswords, type Restic } from './restic.ts';
import { cheapKeyFile, CHEAP_SCRYPT } from './restic-key.ts';

export interface RepositoryPaths {
  /** `<data>/backups/<service id>`. */
  dir: string;
  repository: string;
  password: string;
  marker: string;
  cache: string;
  tmp: string;
  /** The repository is on the backup target: `repository` is restic's URL, `password` holds `key`. */
  remote?: { key: string };
}

/** A repository on the backup target, as the desired state names it. */
export interface RepositoryTarget {
  url: string;
  password: string;
}

export const backupsRoot = (dataDir: string) => join(resolve(dataDir), 'backups');

export function repositoryPaths(
  dataDir: string,
  serviceId: string,
  target?: RepositoryTarget,
): RepositoryPaths {
  // The same check as the workspace's folder: a service id becomes a path.
  workspaceDir(dataDir, serviceId);
  const dir = join(backupsRoot(dataDir), serviceId);
  if (target) return targetRepositoryPaths(dir, target, '');
  return {
    dir,
    repository: join(dir, 'repository'),
    password: join(dir, 'password'),
    marker: join(dir, 'initialized'),
    cache: join(dir, 'cache'),
    tmp: join(dir, 'tmp'),
  };
}

/**
 * A repository on the backup target, its node-side files in the workspace's backups folder `dir`
 * named with `prefix` (the workspace's own: none; the backup clients' copy: `clients-`), so two
 * restic runs on two repositories never share a key file, marker or temporary folder. The cache
 * is shared: restic keeps one folder per repository in it.
 */
export function targetRepositoryPaths(
  dir: string,
  target: RepositoryTarget,
  prefix: string,
): RepositoryPaths {
  return {
    dir,
    repository: target.url,
    password: join(dir, `${prefix}target-password`),
    marker: join(dir, `${prefix}target-initialized`),
    cache: join(dir, 'cache'),
    tmp: join(dir, `${prefix}tmp`),
    remote: { key: target.password },
  };
}

/** How long asking the target whether a repository is there may take (restic retries a while). */
const TARGET_CHECK_TIMEOUT_MS = 60_000;

/** restic's words for a repository without its config file, on each backend it is given. */
const NO_CONFIG =
  /unable to open config file: .*(does not exist|no such file|NoSuchKey|specified key does not exist)/i;

/**
 * Whether the repository is there (restic's config file is what makes one): on the node's disk,
 * or asked of the target. A target that cannot be asked (down, a wrong key) throws: that is no
 * answer that the repository is gone.
 */
export async function repositoryPresent(
  paths: RepositoryPaths,
  restic?: Restic,
  signal?: AbortSignal,
): Promise<boolean> {
  if (!paths.remote) return exists(join(paths.repository, 'config'));
  if (!restic) throw new Error('a repository on the backup target is asked of restic');
  await writeTargetKey(paths);
  const result = await restic.run(['--no-lock', 'cat', 'config'], {
    signal,
    timeoutMs: TARGET_CHECK_TIMEOUT_MS,
  });
  if (result.ok) return true;
  if (NO_CONFIG.test(result.stderr) && !result.stopped) return false;
  throw new ResticError(result, failureCode(result));
}

/** The API's key in the file restic reads (0600), written when it is not there or differs. */
async function writeTargetKey(paths: RepositoryPaths): Promise<void> {
  if (!paths.remote) return;
  await ensureDir(resolve(paths.dir, '..'), { mode: 0o700, uid: 0, gid: 0 });
  await ensureDir(paths.dir, { mode: 0o700, uid: 0, gid: 0 });
  // A browse on a node that never ran a job here (the workspace came from a dead node) needs them.
  await ensureDir(paths.cache, { mode: 0o700 });
  await ensureDir(paths.tmp, { mode: 0o700 });
  // Written beside and renamed when it differs: a restic started meanwhile reads the old key or
  // the new, whole.
  await writeIfChanged(paths.password, paths.remote.key, { mode: 0o600 });
}

/** The folders and the key, made when missing; restic's temporary files of a run before cleared. */
async function prepareFolders(paths: RepositoryPaths): Promise<void> {
  await ensureDir(resolve(paths.dir, '..'), { mode: 0o700, uid: 0, gid: 0 });
  await ensureDir(paths.dir, { mode: 0o700, uid: 0, gid: 0 });
  await ensureDir(paths.cache, { mode: 0o700 });
  await rm(paths.tmp, { recursive: true, force: true });
  await ensureDir(paths.tmp, { mode: 0o700 });
  if (paths.remote) return writeTargetKey(paths);
  const key = await lstat(paths.password).catch(() => undefined);
  if (key && !key.isFile()) throw new Error(`${paths.password} is not a file`);
  if (!key) {
    // base64url: no newline or space for restic to trim, nothing a shell would read.
    const handle = await open(paths.password, 'wx', 0o600);
    try {
      await handle.writeFile(randomBytes(32).toString('base64url'));
    } finally {
      await handle.close();
    }
  }
}

/**
 * Makes the repository ready for a job: there already, or made now (`create`, a backup), or
 * gone (`repository_missing`, the marker cleared so the next backup makes a new one).
 */
export async function openRepository(
  paths: RepositoryPaths,
  restic: Restic,
  options: { create: boolean; logger: Logger; signal?: AbortSignal; onLost?: () => Promise<void> },
): Promise<'ready' | 'created'> {
  await prepareFolders(paths);
  if (await repositoryPresent(paths, restic, options.signal)) {
    if (!(await exists(paths.marker)))
      await writeFile(paths.marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
    // A lock left by a restic that was killed (the agent died): removed when stale, else kept.
    await restic.run(['unlock'], { signal: options.signal });
    return 'ready';
  }
  if (await exists(paths.marker)) {
    await options.onLost?.();
    await unlink(paths.marker);
    throw new BackupJobFailure(
      'repository_missing',
      `the backup repository ${withoutUrlPasswords(paths.repository)} is gone: the backups made before are lost; the next backup starts a new repository`,
    );
  }
  if (!options.create)
    throw new BackupJobFailure(
      'repository_missing',
      'this workspace has no backup repository yet: nothing to restore',
    );
  // What is left without restic's config is no repository restic can open: start afresh.
  if (!paths.remote) await rm(paths.repository, { recursive: true, force: true });
  await restic.output(['init'], { signal: options.signal });
  if (!paths.remote) await makeKeyCheap(paths, restic, options.logger);
  await writeFile(paths.marker, `${new Date().toISOString()}\n`, { mode: 0o600 });
  return 'created';
}

/**
 * Writes the new repository's key again with cheap scrypt parameters (restic-key.ts says why).
 * restic must first open a copy of the repository's config with the new key alone; only then is
 * the new key put beside restic's own, which then goes. On any trouble restic's own key stays:
 * slower, never broken. (A crash between the two steps leaves both keys, both good.)
 */
async function makeKeyCheap(paths: RepositoryPaths, restic: Restic, logger: Logger): Promise<void> {
  const keysDir = join(paths.repository, 'keys');
  const names = await readdir(keysDir);
  const [name] = names;
  if (names.length !== 1 || name === undefined) return;
  const probe = join(paths.tmp, 'key-probe');
  try {
    const text = await readFile(join(keysDir, name), 'utf8');
    if ((JSON.parse(text) as { N?: unknown }).N === CHEAP_SCRYPT.N) return;
    const password = (await readFile(paths.password, 'utf8')).trim();
    const fresh = await cheapKeyFile(text, password);
    await ensureDir(probe, { mode: 0o700 });
    await ensureDir(join(probe, 'keys'), { mode: 0o700 });
    await copyFile(join(paths.repository, 'config'), join(probe, 'config'));
    await writeFile(join(probe, 'keys', fresh.name), fresh.content, { mode: 0o400 });
    const check = await restic.run(['--repo', probe, '--no-lock', '--no-cache', 'cat', 'config']);
    if (!check.ok)
      throw new Error(`restic does not open the repository with the new key: ${check.stderr.trim()}`);
    await writeFile(join(keysDir, fresh.name), fresh.content, { mode: 0o400, flag: 'wx' });
    await unlink(join(keysDir, name));
  } catch (error) {
    logger.warn({ err: error }, "kept restic's own key (every restic call derives it for ~0.5 s)");
  } finally {
    await rm(probe, { recursive: true, force: true });
  }
}

/** A removed workspace: its repository and key, all of it. */
export async function deleteRepository(paths: RepositoryPaths): Promise<boolean> {
  if (!(await exists(paths.dir))) return false;
  await rm(paths.dir, { recursive: true, force: true });
  return true;
}
