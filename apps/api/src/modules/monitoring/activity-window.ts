// The time arithmetic of an activity window: which buckets it has and where it starts and ends.
// Real time is the last N minutes, minute by minute, read from the events; a window of hours is
// read from the hourly rollup, by the hour up to a week and by the day beyond. A window ends with
// the bucket now is in, so the newest events are always inside it.
import type { ActivityBucket, ActivitySource } from '@debesis/contract';
import { sourceOf } from './monitoring.codes.ts';
import type { BucketRow } from './monitoring.queries.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface ActivityWindow {
  from: Date;
  to: Date;
  bucketMs: number;
  /** Whether it is read from the events (real time) or the hourly rollup. */
  realtime: boolean;
}

export function activityWindow(
  query: { hours: number; minutes?: number | undefined },
  now: Date,
): ActivityWindow {
  if (query.minutes !== undefined) {
    const to = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    return {
      from: new Date(to - query.minutes * MINUTE_MS),
      to: new Date(to),
      bucketMs: MINUTE_MS,
      realtime: true,
    };
  }
  const bucketMs = query.hours <= 168 ? HOUR_MS : DAY_MS;
  const to = Math.floor(now.getTime() / bucketMs) * bucketMs + bucketMs;
  const buckets = Math.ceil((query.hours * HOUR_MS) / bucketMs);
  return { from: new Date(to - buckets * bucketMs), to: new Date(to), bucketMs, realtime: false };
}

/** Every bucket of the window, oldest first, the empty ones at zero. */
export function fillBuckets(window: ActivityWindow, rows: readonly BucketRow[]): ActivityBucket[] {
  const count = Math.round((window.to.getTime() - window.from.getTime()) / window.bucketMs);
  const buckets: ActivityBucket[] = Array.from({ length: count }, (_, index) => ({
    start: new Date(window.from.getTime() + index * window.bucketMs).toISOString(),
    events: 0,
    bytes: 0,
    by_source: {},
  }));
  for (const row of rows) {
    const index = Math.floor((row.start.getTime() - window.from.getTime()) / window.bucketMs);
    const bucket = buckets[index];
    const source: ActivitySource | undefined = sourceOf(row.source);
    if (!bucket || !source) continue;
    bucket.events += row.events;
    bucket.bytes += row.bytes;
    bucket.by_source[source] = (bucket.by_source[source] ?? 0) + row.events;
  }
  return buckets;
}

/** The cursor of the next page after an event: its time (ms) and id. */
export function cursorOf(event: { at: Date; id: number }): string {
  return `${event.at.getTime()}.${event.id}`;
}

export function parseCursor(cursor: string | undefined): { at: Date; id: number } | undefined {
  if (!cursor) return undefined;
  const [at, id] = cursor.split('.');
  return { at: new Date(Number(at)), id: Number(id) };
}
