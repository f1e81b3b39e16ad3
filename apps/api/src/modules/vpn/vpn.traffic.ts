// Time arithmetic of VPN traffic, all in UTC: the calendar month a limit counts in, the hour a
// reported delta is stored under, and the buckets of the traffic chart.
import type { VpnTrafficRange, VpnTrafficResponse } from '@debesis/contract';
import type { TrafficRow } from './vpn.queries.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The chart's buckets per range: hourly for a day, daily for a week and a month. */
export const TRAFFIC_RANGES: Record<VpnTrafficRange, { unit: 'hour' | 'day'; count: number }> = {
  '24h': { unit: 'hour', count: 24 },
  '7d': { unit: 'day', count: 7 },
  '30d': { unit: 'day', count: 30 },
};

/** How long hourly history is kept: the longest range, and a day to spare. */
export const TRAFFIC_RETENTION_MS = 31 * DAY_MS;

/** `YYYY-MM` of the UTC calendar month (the node counts a limit per such month). */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function startOfHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

function startOfDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The range's first bucket: the current hour or day is the last one. */
export function rangeStart(range: VpnTrafficRange, now: Date): Date {
  const { unit, count } = TRAFFIC_RANGES[range];
  return unit === 'hour'
    ? new Date(startOfHour(now).getTime() - (count - 1) * HOUR_MS)
    : new Date(startOfDay(now).getTime() - (count - 1) * DAY_MS);
}

/** Every bucket of the range, oldest first, those without traffic at zero. */
export function trafficBuckets(
  range: VpnTrafficRange,
  now: Date,
  rows: readonly TrafficRow[],
): VpnTrafficResponse['buckets'] {
  const { unit, count } = TRAFFIC_RANGES[range];
  const step = unit === 'hour' ? HOUR_MS : DAY_MS;
  const first = rangeStart(range, now).getTime();
  const byStart = new Map(rows.map((row) => [row.start.getTime(), row]));
  return Array.from({ length: count }, (_, index) => {
    const start = first + index * step;
    const row = byStart.get(start);
    return {
      start: new Date(start).toISOString(),
      bytes_sent: row?.bytesSent ?? 0,
      bytes_received: row?.bytesReceived ?? 0,
    };
  });
}
