// Who owns what on a workspace's storage, by file owner, counted cheaply (issue 21): the kernel has
// no user quotas here (the storage is a loop-mounted image per workspace), and walking a 2 TB disk
// on every pass is out of the question. So the count is kept per folder (the bytes and files of
// each owner among the folder's own files) and brought up to date in two ways, both in the
// background, never in the pass:
//   - a full walk when there is no count yet (a new workspace, an agent that lost its file) and
//     then every AGENT_USAGE_FULL_SCAN_HOURS (6 by default): it catches what nothing reported
//     (NFS writes, which no log records; changes made on the node);
//   - between walks, only the folders the daemons' activity named (a file written, renamed or
//     deleted over SMB or FTP): each is listed again, its files stat'ed, a folder new to the
//     count walked, a folder gone dropped with everything under it.
// The pass reports the latest count as it is (`measured_at` says when it was true). Bytes are what
// the files occupy on disk (blocks), as the disk's own usage counts them. The count is kept in
// `<ws>/monitoring/usage.json`, so an agent restart does not walk everything again.
import type { Dirent } from 'node:fs';
import { lstat, opendir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { UsageReport, WorkspaceDesiredState } from '@debesis/contract';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { errorMessage, type Logger } from '../logger.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { usageFile } from './monitoring-files.ts';

/** Per owner uid: [bytes, files]. */
type Owners = Record<string, [number, number]>;

interface Count {
  /** Per folder (relative to the storage's root, '' for the root): its own files' owners. */
  dirs: Record<string, Owners>;
  fullAt: number;
  measuredAt: number;
}

interface WorkspaceCount {
  count: Count | undefined;
  loaded: boolean;
  dirty: Set<string>;
  running: Promise<void> | undefined;
}

export interface UsageCounter {
  /**
   * The workspace's count when it is newer than the last one the API took (undefined otherwise,
   * and before the first), and work started in the background if due: a full walk, or the
   * folders of `changed` paths (as the workspace sees them).
   */
  update(
    desired: WorkspaceDesiredState,
    workspaceDir: string,
    changed: readonly string[],
  ): UsageReport | undefined;
  /** The API took a report carrying this count: it is not sent again until it changes. */
  sent(serviceId: string, usage: UsageReport): void;
  /** Waits for the background work under way (tests, an agent that stops). */
  idle(): Promise<void>;
}

/** Folders listed again per pass at most; more wait for the next pass or the next full walk. */
const DIRTY_PER_RUN = 200;

async function listOwners(dir: string): Promise<{ owners: Owners; subdirs: string[] } | undefined> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch {
    return undefined;
  }
  const owners: Owners = {};
  const subdirs: string[] = [];
  for await (const entry of handle as AsyncIterable<Dirent>) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      subdirs.push(entry.name);
      continue;
    }
    if (!entry.isFile()) continue;
    try {
      const info = await lstat(path);
      const owner = (owners[String(info.uid)] ??= [0, 0]);
      owner[0] += info.blocks * 512;
      owner[1] += 1;
    } catch {
      // Gone since the listing: not counted.
    }
  }
  return { owners, subdirs };
}

/** Walks `rel` and everything under it into `dirs`. */
async function walk(root: string, rel: string, dirs: Record<string, Owners>): Promise<void> {
  const stack = [rel];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const listed = await listOwners(join(root, current));
    if (!listed) continue;
    dirs[current] = listed.owners;
    for (const name of listed.subdirs) stack.push(current === '' ? name : `${current}/${name}`);
  }
}

function dropTree(dirs: Record<string, Owners>, rel: string): void {
  for (const key of Object.keys(dirs)) if (key === rel || key.startsWith(`${rel}/`)) delete dirs[key];
}

/** Lists one folder again: its files, a subfolder new to the count walked, one gone dropped. */
async function rescan(root: string, rel: string, dirs: Record<string, Owners>): Promise<void> {
  const listed = await listOwners(join(root, rel));
  if (!listed) {
    dropTree(dirs, rel);
    return;
  }
  dirs[rel] = listed.owners;
  const present = new Set(listed.subdirs.map((name) => (rel === '' ? name : `${rel}/${name}`)));
  for (const key of Object.keys(dirs)) {
    const parent = key.includes('/') ? key.slice(0, key.lastIndexOf('/')) : '';
    if (key !== '' && parent === rel && !present.has(key)) dropTree(dirs, key);
  }
  for (const sub of present) if (!(sub in dirs)) await walk(root, sub, dirs);
}

/** The folder of a path as the workspace sees it (`/shares/docs/a.txt` → `shares/docs`). */
function folderOf(path: string): string | undefined {
  if (!path.startsWith('/') || path.split('/').includes('..')) return undefined;
  const dir = dirname(path);
  return dir === '/' ? '' : dir.slice(1);
}

async function userNames(passwd: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const text = await readFile(passwd, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [name, , uid] = line.split(':');
    if (name && uid) names.set(uid, name);
  }
  return names;
}

async function totals(count: Count, passwd: string, idBase: number): Promise<UsageReport> {
  const names = await userNames(passwd);
  const users = new Map<string, [number, number]>();
  let otherBytes = 0;
  let otherFiles = 0;
  for (const owners of Object.values(count.dirs))
    for (const [uid, [bytes, files]] of Object.entries(owners)) {
      const name = names.get(uid);
      // The workspace's own users are the ids above its base (the base itself is the workspace).
      if (name && Number(uid) > idBase) {
        const user = users.get(name) ?? [0, 0];
        user[0] += bytes;
        user[1] += files;
        users.set(name, user);
      } else {
        otherBytes += bytes;
        otherFiles += files;
      }
    }
  return {
    users: [...users]
      .map(([user, [bytes, files]]) => ({ user, bytes, files }))
      .sort((a, b) => b.bytes - a.bytes || a.user.localeCompare(b.user))
      .slice(0, 10_000),
    other_bytes: otherBytes,
    other_files: otherFiles,
    measured_at: new Date(count.measuredAt).toISOString(),
  };
}

export function createUsageCounter(options: {
  fullEveryMs: number;
  logger: Logger;
  now?: () => number;
}): UsageCounter {
  const now = options.now ?? (() => Date.now());
  const workspaces = new Map<string, WorkspaceCount>();
  /** The last totals per workspace (recomputed when the count changes). */
  const reported = new Map<string, UsageReport>();
  /** Per workspace, the `measured_at` of the count the API has. */
  const taken = new Map<string, string>();

  async function work(
    id: string,
    state: WorkspaceCount,
    desired: WorkspaceDesiredState,
    workspaceDir: string,
  ) {
    const layout = workspaceLayout(workspaceDir);
    const file = usageFile(workspaceDir);
    if (!state.loaded) {
      state.loaded = true;
      try {
        state.count = JSON.parse(await readFile(file, 'utf8')) as Count;
        reported.set(id, await totals(state.count, layout.passwd, desired.id_base));
      } catch {
        state.count = undefined;
      }
    }
    const started = now();
    if (!state.count || started - state.count.fullAt >= options.fullEveryMs) {
      const dirs: Record<string, Owners> = {};
      state.dirty.clear();
      await walk(layout.dataRoot, '', dirs);
      state.count = { dirs, fullAt: started, measuredAt: started };
    } else if (state.dirty.size > 0) {
      const batch = [...state.dirty].slice(0, DIRTY_PER_RUN);
      for (const rel of batch) {
        state.dirty.delete(rel);
        await rescan(layout.dataRoot, rel, state.count.dirs);
      }
      state.count.measuredAt = started;
    } else return;
    await writeIfChanged(file, JSON.stringify(state.count), { mode: 0o600 });
    reported.set(id, await totals(state.count, layout.passwd, desired.id_base));
  }

  return {
    update(desired, workspaceDir, changed) {
      const id = desired.service_id;
      let state = workspaces.get(id);
      if (!state) {
        state = { count: undefined, loaded: false, dirty: new Set(), running: undefined };
        workspaces.set(id, state);
      }
      for (const path of changed) {
        const folder = folderOf(path);
        if (folder !== undefined) state.dirty.add(folder);
      }
      const current = state;
      current.running ??= work(id, current, desired, workspaceDir)
        .catch((error: unknown) =>
          options.logger.warn({ service_id: id }, `usage count: ${errorMessage(error)}`),
        )
        .finally(() => {
          current.running = undefined;
        });
      const latest = reported.get(id);
      return latest && latest.measured_at !== taken.get(id) ? latest : undefined;
    },
    sent(serviceId, usage) {
      taken.set(serviceId, usage.measured_at);
    },
    async idle() {
      await Promise.all([...workspaces.values()].flatMap((state) => (state.running ? [state.running] : [])));
    },
  };
}
