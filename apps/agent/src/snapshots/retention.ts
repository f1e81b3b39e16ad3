// Which snapshots a workspace keeps (issue 37), decided from the spec's backup presets: the
// provider keeps daily backups for 7 days, and schedules run hourly, daily, weekly or monthly. A
// snapshot is taken every SNAPSHOT_INTERVAL_MINUTES; of those the node keeps
//   - every one of the last 2 hours (the 15-minute steps: "the file as it was this morning"),
//   - the newest of each UTC hour for the last 24 hours,
//   - the newest of each UTC day for the last 7 days,
// and deletes the rest. A snapshot taken on demand is the owner's: kept 7 days whatever the
// steps above, the newest MANUAL_KEEP of them at most (one a minute is allowed, so a busy owner
// cannot fill the storage with them). Older ones go: a week back is the restic backups' work.
// Snapshots share the plan's size with the data (a block a snapshot still holds is not freed when
// the file goes), so a customer who deletes files to make room must get it: while less than
// minFreeRatio of the storage is free, no scheduled snapshot is taken and the oldest one goes on
// every pass, the newest too if need be (it holds what was deleted last), until there is room
// again. A storage kept more than 90% full therefore keeps no snapshots: the data has the room.
// Pure: names and times in, the names to delete out.
import type { Snapshot } from '@debesis/contract';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const SNAPSHOT_RETENTION = {
  /** Everything younger than this is kept. */
  keepAllMs: 2 * HOUR,
  /** The newest of each UTC hour is kept up to this age. */
  hourlyMs: DAY,
  /** The newest of each UTC day is kept up to this age; older snapshots are deleted. */
  dailyMs: 7 * DAY,
  /** At most this many snapshots taken on demand are kept (the newest), each up to dailyMs. */
  manualKeep: 20,
  /** Below this share of the storage free, the oldest snapshot is deleted on every pass. */
  minFreeRatio: 0.1,
} as const;

/** Whether the storage is short of room (then snapshots give theirs back, and none is taken). */
export const shortOfRoom = (freeRatio: number) => freeRatio < SNAPSHOT_RETENTION.minFreeRatio;

/** The snapshot to delete for room (the oldest), or none. */
export function snapshotsToFreeSpace(snapshots: readonly Snapshot[], freeRatio: number): string[] {
  if (!shortOfRoom(freeRatio) || snapshots.length === 0) return [];
  const oldest = [...snapshots].sort((a, b) => Date.parse(a.taken_at) - Date.parse(b.taken_at))[0]!;
  return [oldest.name];
}

/** The snapshots to delete now, oldest first. `snapshots` in any order. */
export function snapshotsToPrune(snapshots: readonly Snapshot[], now: number): string[] {
  const r = SNAPSHOT_RETENTION;
  const newestFirst = [...snapshots].sort((a, b) => Date.parse(b.taken_at) - Date.parse(a.taken_at));
  const keep = new Set<string>();
  const hours = new Set<number>();
  const days = new Set<number>();
  let manual = 0;
  for (const snapshot of newestFirst) {
    const at = Date.parse(snapshot.taken_at);
    const age = now - at;
    if (snapshot.kind === 'manual') {
      if (age < r.dailyMs && manual < r.manualKeep) {
        keep.add(snapshot.name);
        manual += 1;
      }
      continue;
    }
    // Newest first, so the first one seen of an hour or a day is its newest. A snapshot "from
    // the future" (the clock went back) is kept: it is not old.
    const hour = Math.floor(at / HOUR);
    const day = Math.floor(at / DAY);
    const newestOfHour = !hours.has(hour);
    const newestOfDay = !days.has(day);
    hours.add(hour);
    days.add(day);
    if (age < r.keepAllMs || (age < r.hourlyMs && newestOfHour) || (age < r.dailyMs && newestOfDay))
      keep.add(snapshot.name);
  }
  return newestFirst
    .filter((snapshot) => !keep.has(snapshot.name))
    .map((snapshot) => snapshot.name)
    .reverse();
}
