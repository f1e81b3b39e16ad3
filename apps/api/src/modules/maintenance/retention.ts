// What the hourly maintenance job deletes because the privacy page promises it: contact
// messages and analytics events older than RETENTION_MONTHS. Invoices, accounts and their
// history follow their own rules (the law, the account's life) and are not touched here.
import { RETENTION_MONTHS } from '@debesis/contract';
import type { AnalyticsQueries } from '../analytics/analytics.queries.ts';
import type { ContactQueries } from '../contact/contact.queries.ts';

/**
 * The same day and time `months` calendar months earlier, in UTC. A day the earlier month lacks
 * rolls over (31 March less one month is 3 March): a few days either way do not matter here.
 */
export function monthsBefore(at: Date, months: number): Date {
  const earlier = new Date(at.getTime());
  earlier.setUTCMonth(earlier.getUTCMonth() - months);
  return earlier;
}

export function createRetention(deps: {
  contact: Pick<ContactQueries, 'pruneBefore'>;
  analytics: Pick<AnalyticsQueries, 'pruneBefore'>;
  now: () => Date;
}) {
  return {
    /** Deletes what has outlived its retention; answers how many rows of each went. */
    async prune(): Promise<{ contactMessages: number; analyticsEvents: number }> {
      const now = deps.now();
      return {
        contactMessages: await deps.contact.pruneBefore(monthsBefore(now, RETENTION_MONTHS.contactMessages)),
        analyticsEvents: await deps.analytics.pruneBefore(
          monthsBefore(now, RETENTION_MONTHS.analyticsEvents),
        ),
      };
    },
  };
}
