// Every job that runs on a clock, with its cron (UTC) and payload: the worker registers these at
// start, and the operator CLI lists and runs them (`ops jobs`) from the same list, so what an
// operator runs by hand is what the schedule would send.
import { BACKUP_TICK_CRON } from '../modules/backups/backups.scheduler.ts';
import { MONITORING_PRUNE_CRON, MONITORING_TICK_CRON } from '../modules/monitoring/monitoring.tick.ts';
import { CARD_EXPIRY_CRON } from '../modules/payments/card-expiry.ts';
import { RENEWALS_CRON } from '../modules/payments/renewals.ts';
import { LIFECYCLE_SWEEP_CRON, PLACEMENT_RETRY_CRON } from '../modules/services/lifecycle.constants.ts';
import type { JobMap, JobName } from './job-map.ts';

export interface ScheduledJob<N extends JobName = JobName> {
  name: N;
  cron: string;
  payload: JobMap[N];
}

export const SCHEDULES: readonly ScheduledJob[] = [
  { name: 'maintenance.prune', cron: '17 * * * *', payload: {} },
  { name: 'services.retry-placement', cron: PLACEMENT_RETRY_CRON, payload: {} },
  { name: 'services.sweep', cron: LIFECYCLE_SWEEP_CRON, payload: {} },
  { name: 'backups.tick', cron: BACKUP_TICK_CRON, payload: {} },
  { name: 'monitoring.tick', cron: MONITORING_TICK_CRON, payload: {} },
  { name: 'monitoring.prune', cron: MONITORING_PRUNE_CRON, payload: {} },
  { name: 'payments.card-expiry', cron: CARD_EXPIRY_CRON, payload: {} },
  { name: 'billing.renewals', cron: RENEWALS_CRON, payload: {} },
];

export function scheduledJob(name: string): ScheduledJob | undefined {
  return SCHEDULES.find((job) => job.name === name);
}
