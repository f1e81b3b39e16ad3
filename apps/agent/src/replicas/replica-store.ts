// A workspace's replica snapshots (issue 37; contract: replicas.ts): read-only snapshots of its
// `data` in the `replicas` subvolume at the image's top level (layout.pool), named by the UTC
// millisecond they were taken (REPLICA_NAME_PATTERN), so names sort by time. The primary takes one
// for every send and keeps the few a standby may still name as a parent; the standby keeps the
// ones it received. Samba and the customer's snapshot list never see them: only `snapshots` is
// mounted for smbd and listed (snapshots/snapshots.ts). Taking, receiving and pruning on one
// storage go through one queue, so a prune never deletes the parent a send is reading.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REPLICA_NAME_PATTERN } from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { exists } from '../system/host.ts';
import { DATA_SUBVOLUME, REPLICAS_SUBVOLUME } from '../snapshots/snapshots.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import { createKeyedQueue } from '../system/keyed-queue.ts';

/** The most replicas a primary keeps whatever its standby last named. */
export const PRIMARY_KEEPS_AT_MOST = 4;
/** What a standby keeps after a pull: the newest and the one before (a send in flight's parent). */
export const STANDBY_KEEPS = 2;

export const replicasPath = (layout: WorkspaceLayout) => join(layout.pool, REPLICAS_SUBVOLUME);

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `r-20261207T014512345Z` for that UTC millisecond. */
export function replicaName(at: Date): string {
  return (
    `r-${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}` +
    `${pad(at.getUTCMilliseconds(), 3)}Z`
  );
}

/** The time a replica's name stands for; undefined for a name that is not one. */
export function replicaTime(name: string): Date | undefined {
  if (!REPLICA_NAME_PATTERN.test(name)) return undefined;
  const [, y, mo, d, h, mi, s, ms] = /^r-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})Z$/
    .exec(name)!
    .map(Number);
  const at = new Date(Date.UTC(y!, mo! - 1, d, h, mi, s, ms));
  return replicaName(at) === name ? at : undefined;
}

/**
 * The replicas held whole, newest first: read-only. `btrfs receive` makes its subvolume writable
 * and sets it read-only only once the stream has arrived whole, so one under way, or cut short by a
 * crash, is never a promotion's source or a pull's parent.
 */
export async function wholeReplicas(layout: WorkspaceLayout, run: CommandRunner): Promise<string[]> {
  const whole: string[] = [];
  for (const name of await listReplicas(layout)) {
    const flag = await run('btrfs', ['property', 'get', '-ts', join(replicasPath(layout), name), 'ro'], {
      timeoutMs: 30_000,
    });
    if (flag.ok && /ro=true/.test(flag.stdout)) whole.push(name);
  }
  return whole;
}

/** The replicas the storage holds, newest first (nothing when it has no `replicas` yet). */
export async function listReplicas(layout: WorkspaceLayout): Promise<string[]> {
  const names = await readdir(replicasPath(layout)).catch(() => [] as string[]);
  return names.filter((name) => replicaTime(name) !== undefined).sort((a, b) => b.localeCompare(a));
}

// One queue per storage (by its folder).
const storageQueue = createKeyedQueue();
export function replicaQueued<T>(layout: WorkspaceLayout, work: () => Promise<T>): Promise<T> {
  return storageQueue(layout.root, work);
}

/** Makes the `replicas` subvolume when the storage has none; whether it did. */
export async function ensureReplicasSubvolume(layout: WorkspaceLayout, run: CommandRunner): Promise<boolean> {
  if (await exists(replicasPath(layout))) return false;
  await run('btrfs', ['subvolume', 'create', replicasPath(layout)], { check: true, timeoutMs: 60_000 });
  return true;
}

/**
 * Takes a replica of `data` now (from the top level, so a stopped workspace's works too: a move's
 * final sync). Two in one millisecond get the next free one.
 */
export function takeReplica(layout: WorkspaceLayout, run: CommandRunner, now = new Date()): Promise<string> {
  return replicaQueued(layout, async () => {
    await ensureReplicasSubvolume(layout, run);
    let at = now.getTime();
    while (await exists(join(replicasPath(layout), replicaName(new Date(at))))) at += 1;
    const name = replicaName(new Date(at));
    await run(
      'btrfs',
      ['subvolume', 'snapshot', '-r', join(layout.pool, DATA_SUBVOLUME), join(replicasPath(layout), name)],
      { check: true, timeoutMs: 60_000 },
    );
    return name;
  });
}

/**
 * What a primary keeps after sending `sent`: it, the parent the standby named (held here) and
 * what is newer than that parent, never more than PRIMARY_KEEPS_AT_MOST. Without a parent (a whole
 * send) the standby holds nothing older worth a parent: only `sent` stays.
 */
export function primaryKeeps(held: readonly string[], sent: string, parent: string | undefined): Set<string> {
  const keep = new Set([sent]);
  if (parent === undefined || !held.includes(parent)) return keep;
  keep.add(parent);
  const between = held
    .filter((name) => name > parent && name !== sent)
    .sort()
    .reverse();
  for (const name of between) {
    if (keep.size >= PRIMARY_KEEPS_AT_MOST) break;
    keep.add(name);
  }
  return keep;
}

/** What a standby keeps: its newest `count` replicas. */
export const newestKeeps = (held: readonly string[], count = STANDBY_KEEPS): Set<string> =>
  new Set([...held].sort().reverse().slice(0, count));

/** Deletes every replica not in `keep`; the names deleted. */
export function pruneReplicas(
  layout: WorkspaceLayout,
  run: CommandRunner,
  keep: (held: string[]) => Set<string>,
): Promise<string[]> {
  return replicaQueued(layout, async () => {
    const held = await listReplicas(layout);
    const kept = keep(held);
    const deleted: string[] = [];
    for (const name of held) {
      if (kept.has(name)) continue;
      await run('btrfs', ['subvolume', 'delete', join(replicasPath(layout), name)], {
        check: true,
        timeoutMs: 60_000,
      });
      deleted.push(name);
    }
    return deleted;
  });
}
