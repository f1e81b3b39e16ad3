// The bandwidth rules as pure functions (contract network.ts says them to the owner): the month of
// the billing period a moment falls in, the month's allowance, the growth of a node's running
// traffic total, and what the use so far asks for (alerts, the throttle).
import { BANDWIDTH_ALERT_PERCENT, type TrafficReport } from '@debesis/contract';
import { addMonths, bandwidthFor } from '@debesis/pricing';
import { STORAGE_BYTES_PER_GB } from '../services/lifecycle.constants.ts';
import type { AlertDecision } from '../monitoring/alert-rules.ts';

/**
 * The month of the billing period (starting at `periodStart`, the paid span's start) that `at`
 * falls in: [start, end). Before the period starts, its first month.
 */
export function bandwidthMonth(periodStart: Date, at: Date): { start: Date; end: Date } {
  let months =
    (at.getUTCFullYear() - periodStart.getUTCFullYear()) * 12 +
    (at.getUTCMonth() - periodStart.getUTCMonth());
  if (months < 0) months = 0;
  // The estimate can be one ahead (an earlier day of the month than the period's).
  while (months > 0 && addMonths(periodStart, months) > at) months -= 1;
  return { start: addMonths(periodStart, months), end: addMonths(periodStart, months + 1) };
}

/** The month's allowance, bytes: twice the disk, in the disk's bytes. */
export function bandwidthLimitBytes(diskSpaceGb: number): number {
  return bandwidthFor(diskSpaceGb) * STORAGE_BYTES_PER_GB;
}

/** The counter as stored (last taken): its id and both ways. */
export interface TakenCounter {
  counterId: string | null;
  received: number;
  sent: number;
}

/**
 * What a report adds: the growth of the node's total over the one last taken. A new counter
 * (its id differs: the node started its total over) counts all it holds; a total below the one
 * taken (never from a sound node) counts nothing.
 */
export function trafficGrowth(
  taken: TakenCounter | undefined,
  reported: TrafficReport,
): { received: number; sent: number } {
  if (!taken || taken.counterId !== reported.counter_id)
    return { received: reported.received_bytes, sent: reported.sent_bytes };
  return {
    received: Math.max(0, reported.received_bytes - taken.received),
    sent: Math.max(0, reported.sent_bytes - taken.sent),
  };
}

/** Whole percent of the allowance used (0 for no allowance). */
export function usedPercent(usedBytes: number, limitBytes: number): number {
  return limitBytes > 0 ? Math.floor((usedBytes / limitBytes) * 100) : 0;
}

/**
 * The month's use past BANDWIDTH_ALERT_PERCENT is a warning, at the allowance an exhausted
 * (critical) alert and the throttle. Each alert is raised once while it lasts and cleared with
 * a new month of the period.
 */
export function bandwidthDecision(
  usedBytes: number,
  limitBytes: number,
): { alerts: AlertDecision; throttle: boolean } {
  const percent = usedPercent(usedBytes, limitBytes);
  const params = { percent, used_bytes: usedBytes, limit_bytes: limitBytes };
  const throttle = limitBytes > 0 && usedBytes >= limitBytes;
  const wanted: AlertDecision['wanted'] = [];
  if (percent >= BANDWIDTH_ALERT_PERCENT)
    wanted.push({ kind: 'bandwidth_warning', level: 'warning', subject: '', params });
  if (throttle) wanted.push({ kind: 'bandwidth_exhausted', level: 'critical', subject: '', params });
  return { alerts: { kinds: ['bandwidth_warning', 'bandwidth_exhausted'], wanted }, throttle };
}
