// The time sweep (a job every LIFECYCLE_SWEEP_CRON, and callable on demand): services whose time
// has come move on, each step one conditional update over every service due, so a sweep running
// twice, or on two workers at once, moves each service once. Steps run in lifecycle order, so a
// sweep after a long outage catches a service up through every step it missed.
//   active, suspended  → expired      at valid_until (the node stops it; data kept)
//   expired            → quarantined  EXPIRED_GRACE_DAYS later
//   quarantined        → terminated   QUARANTINE_DAYS later (the node deletes the data)
//   cancelled          → terminated   CANCELLED_RETENTION_DAYS after the cancellation
// and it sends the expiry reminders (critical first, so a service found inside both windows
// gets only the critical one).
import type { ServiceStatus } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import {
  CANCELLED_RETENTION_DAYS,
  CRITICAL_DAYS,
  DAY_MS,
  EXPIRED_GRACE_DAYS,
  EXPIRING_SOON_DAYS,
  QUARANTINE_DAYS,
  SERVICE_EVENTS_KEEP_DAYS,
} from './lifecycle.constants.ts';
import type { ServiceNotifier } from './services.notifier.ts';
import { createServicesQueries } from './services.queries.ts';

/** Services whose paid period runs: the ones reminded of its end. */
const REMINDED: ServiceStatus[] = ['active', 'suspended'];

export interface SweepResult {
  expired: number;
  quarantined: number;
  terminated: number;
  reminded: number;
}

export function createLifecycleSweep(deps: {
  db: Db;
  notifier: Pick<ServiceNotifier, 'expired' | 'quarantined' | 'terminated' | 'expiryWarning'>;
  wakeNode: (nodeId: string) => void;
  now: () => Date;
}) {
  const queries = createServicesQueries(deps.db);
  const daysBefore = (at: Date, days: number) => new Date(at.getTime() - days * DAY_MS);
  const daysAfter = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

  return {
    async run(): Promise<SweepResult> {
      const now = deps.now();
      const woken = new Set<string>();
      const wake = (nodeId: string | null) => {
        if (nodeId && !woken.has(nodeId)) {
          woken.add(nodeId);
          deps.wakeNode(nodeId);
        }
      };

      const expired = await queries.expireDue(now);
      for (const service of expired) {
        wake(service.nodeId);
        await deps.notifier.expired(service);
      }
      const quarantined = await queries.quarantineDue(daysBefore(now, EXPIRED_GRACE_DAYS), now);
      for (const service of quarantined) await deps.notifier.quarantined(service);
      const terminated = await queries.terminateDue(
        {
          quarantinedValidUntilBefore: daysBefore(now, EXPIRED_GRACE_DAYS + QUARANTINE_DAYS),
          cancelledBefore: daysBefore(now, CANCELLED_RETENTION_DAYS),
        },
        now,
      );
      for (const service of terminated) {
        wake(service.nodeId);
        await deps.notifier.terminated(service);
      }

      const critical = await queries.markExpiryNotice(
        'critical',
        REMINDED,
        now,
        daysAfter(now, CRITICAL_DAYS),
      );
      for (const service of critical) await deps.notifier.expiryWarning(service, 'critical');
      const soon = await queries.markExpiryNotice(
        'expiring_soon',
        REMINDED,
        now,
        daysAfter(now, EXPIRING_SOON_DAYS),
      );
      for (const service of soon) await deps.notifier.expiryWarning(service, 'expiring_soon');

      await queries.pruneEvents(daysBefore(now, SERVICE_EVENTS_KEEP_DAYS));
      return {
        expired: expired.length,
        quarantined: quarantined.length,
        terminated: terminated.length,
        reminded: critical.length + soon.length,
      };
    },
  };
}

export type LifecycleSweep = ReturnType<typeof createLifecycleSweep>;
