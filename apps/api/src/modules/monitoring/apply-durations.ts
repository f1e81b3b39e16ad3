// What operators' metrics may read of monitoring (http/metrics.ts): how long nodes took to apply
// the changes of the last hour, from asking (a new generation) to the node reporting it applied.
import type { Db } from '../../db/database.ts';
import { createMonitoringQueries } from './monitoring.queries.ts';

export const APPLY_DURATION_WINDOW_MS = 3_600_000;

export function recentApplyDurations(db: Db, now: Date) {
  return createMonitoringQueries(db).applyDurations(new Date(now.getTime() - APPLY_DURATION_WINDOW_MS));
}
