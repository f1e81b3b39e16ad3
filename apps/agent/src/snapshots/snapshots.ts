// A workspace's snapshots on its btrfs storage (workspace-layout.ts): read-only subvolumes of its
// `data` subvolume in the `snapshots` subvolume, named by the UTC second they were taken in
// Samba's Previous Versions form (@GMT-YYYY.MM.DD-HH.MM.SS), so smbd's shadow_copy2 maps a
// client's @GMT token straight to one. A snapshot is made from the mounted `data` subvolume in
// one step (`btrfs subvolume snapshot -r`), atomic: crash-consistent, the storage as it was at
// one instant. Read-only subvolumes are also what `btrfs send -p` replicates to a standby next.
//
// Taken on a schedule (every SNAPSHOT_INTERVAL_MINUTES, one per slot of the clock, by the storage
// driver's report on the pass that finds one due) and on demand (node call `snapshot.take`);
// both go through one queue per workspace, so two never race for a name. Which were taken on
// demand is kept in snapshots.json beside the image (a subvolume has no room for it); a name
// missing there is a scheduled one.
import { readdir, readFile, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import {
  SNAPSHOT_INTERVAL_MINUTES,
  SNAPSHOT_NAME_PATTERN,
  type Snapshot,
  type SnapshotKind,
} from '@debesis/contract';
import { z } from 'zod';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import { shortOfRoom, snapshotsToFreeSpace, snapshotsToPrune } from './retention.ts';
import { createKeyedQueue } from '../system/keyed-queue.ts';

/** The btrfs subvolumes of a workspace's image, at its top level (layout.pool). */
export const DATA_SUBVOLUME = 'data';
export const SNAPSHOTS_SUBVOLUME = 'snapshots';
/** A standby's replica snapshots and the primary's last sent ones (replicas/): never Samba's. */
export const REPLICAS_SUBVOLUME = 'replicas';
/** A subvolume that holds read-only snapshots of `data`. */
export type SnapshotFolder = typeof SNAPSHOTS_SUBVOLUME | typeof REPLICAS_SUBVOLUME;

const pad = (value: number) => String(value).padStart(2, '0');

/** `@GMT-2026.12.06-18.54.31` for that UTC second. */
export function snapshotName(at: Date): string {
  return (
    `@GMT-${at.getUTCFullYear()}.${pad(at.getUTCMonth() + 1)}.${pad(at.getUTCDate())}` +
    `-${pad(at.getUTCHours())}.${pad(at.getUTCMinutes())}.${pad(at.getUTCSeconds())}`
  );
}

/** The UTC time a snapshot's name stands for; undefined for a name that is not one. */
export function snapshotTime(name: string): Date | undefined {
  if (!SNAPSHOT_NAME_PATTERN.test(name)) return undefined;
  const [, y, mo, d, h, mi, s] = /^@GMT-(\d+)\.(\d+)\.(\d+)-(\d+)\.(\d+)\.(\d+)$/.exec(name)!.map(Number);
  const at = new Date(Date.UTC(y!, mo! - 1, d, h, mi, s));
  return snapshotName(at) === name ? at : undefined;
}

/** The share of the storage free now (what the customer could still write). */
async function freeRatio(layout: WorkspaceLayout): Promise<number> {
  const fs = await statfs(layout.dataRoot);
  return fs.blocks > 0 ? fs.bavail / fs.blocks : 1;
}

/** Where the agent makes and deletes snapshots (its own mount of the image's top level). */
const snapshotsPath = (layout: WorkspaceLayout) => join(layout.pool, SNAPSHOTS_SUBVOLUME);

const kindsSchema = z.object({ manual: z.array(z.string()) });

async function manualNames(layout: WorkspaceLayout): Promise<Set<string>> {
  const text = await readFile(layout.snapshotKinds, 'utf8').catch(() => undefined);
  if (text === undefined) return new Set();
  try {
    const parsed = kindsSchema.safeParse(JSON.parse(text));
    return new Set(parsed.success ? parsed.data.manual : []);
  } catch {
    return new Set();
  }
}

async function writeManualNames(layout: WorkspaceLayout, names: Iterable<string>): Promise<void> {
  const manual = [...names].sort();
  await writeIfChanged(layout.snapshotKinds, `${JSON.stringify({ manual })}\n`, { mode: 0o600 });
}

/** The workspace's snapshots, newest first. */
export async function listSnapshots(layout: WorkspaceLayout): Promise<Snapshot[]> {
  const names = await readdir(snapshotsPath(layout)).catch(() => [] as string[]);
  const manual = await manualNames(layout);
  const snapshots: Snapshot[] = [];
  for (const name of names) {
    const at = snapshotTime(name);
    if (at)
      snapshots.push({ name, taken_at: at.toISOString(), kind: manual.has(name) ? 'manual' : 'scheduled' });
  }
  return snapshots.sort((a, b) => b.name.localeCompare(a.name));
}

// One queue per workspace: a scheduled snapshot, one on demand and a prune never run at once.
const workspaceQueue = createKeyedQueue();
const queued = <T>(layout: WorkspaceLayout, work: () => Promise<T>) => workspaceQueue(layout.root, work);

/**
 * Takes a snapshot now (a second that has one already answers with it: the storage is the
 * same instant). Throws when btrfs refuses (no space left for its metadata, the storage gone).
 */
export function takeSnapshot(
  layout: WorkspaceLayout,
  run: CommandRunner,
  kind: SnapshotKind,
  now: Date = new Date(),
): Promise<Snapshot> {
  return queued(layout, async () => {
    const name = snapshotName(now);
    const target = join(snapshotsPath(layout), name);
    if (!(await exists(target)))
      await run('btrfs', ['subvolume', 'snapshot', '-r', layout.dataRoot, target], {
        check: true,
        timeoutMs: 60_000,
      });
    const manual = await manualNames(layout);
    if (kind === 'manual' && !manual.has(name)) await writeManualNames(layout, [...manual, name]);
    return {
      name,
      taken_at: snapshotTime(name)!.toISOString(),
      kind: kind === 'manual' || manual.has(name) ? 'manual' : 'scheduled',
    };
  });
}

/** Whether a scheduled snapshot is owed: none yet in the current slot of the clock. */
export function scheduledDue(
  snapshots: readonly Snapshot[],
  now: number,
  intervalMinutes = SNAPSHOT_INTERVAL_MINUTES,
): boolean {
  const slot = intervalMinutes * 60_000;
  const slotStart = Math.floor(now / slot) * slot;
  return !snapshots.some(
    (snapshot) => snapshot.kind === 'scheduled' && Date.parse(snapshot.taken_at) >= slotStart,
  );
}

/**
 * Deletes what retention (retention.ts) no longer keeps, and the oldest snapshot while the storage
 * is short of room; the names deleted.
 */
export function pruneSnapshots(layout: WorkspaceLayout, run: CommandRunner, now: number): Promise<string[]> {
  return queued(layout, async () => {
    const deleted: string[] = [];
    const remove = async (name: string) => {
      // --commit-after: the space a snapshot held is counted free once the command returns.
      const result = await run(
        'btrfs',
        ['subvolume', 'delete', '--commit-after', join(snapshotsPath(layout), name)],
        {
          timeoutMs: 60_000,
        },
      );
      if (result.ok) deleted.push(name);
    };
    for (const name of snapshotsToPrune(await listSnapshots(layout), now)) await remove(name);
    const forRoom = snapshotsToFreeSpace(await listSnapshots(layout), await freeRatio(layout));
    for (const name of forRoom) await remove(name);
    if (forRoom.length > 0) {
      // Wait until btrfs has cleaned the snapshot and committed its blocks as free, so the next
      // pass sees the room it gave (and does not delete another for room that is already there).
      await run('btrfs', ['subvolume', 'sync', layout.pool], { timeoutMs: 120_000 });
      await run('btrfs', ['filesystem', 'sync', layout.pool], { timeoutMs: 60_000 });
    }
    if (deleted.length > 0) {
      const manual = await manualNames(layout);
      for (const name of deleted) manual.delete(name);
      await writeManualNames(layout, manual);
    }
    return deleted;
  });
}

/**
 * The scheduled snapshot when one is due, then the prune; what the storage holds after. Run by
 * the storage driver's report on every pass of a running btrfs workspace.
 */
export async function snapshotPass(
  layout: WorkspaceLayout,
  run: CommandRunner,
  now: Date = new Date(),
): Promise<{ snapshots: Snapshot[]; taken?: Snapshot; deleted: string[] }> {
  let taken: Snapshot | undefined;
  if (!shortOfRoom(await freeRatio(layout)) && scheduledDue(await listSnapshots(layout), now.getTime()))
    taken = await takeSnapshot(layout, run, 'scheduled', now);
  const deleted = await pruneSnapshots(layout, run, now.getTime());
  return { snapshots: await listSnapshots(layout), ...(taken ? { taken } : {}), deleted };
}
