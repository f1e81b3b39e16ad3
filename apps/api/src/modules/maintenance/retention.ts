// What the hourly maintenance job deletes because the privacy page promises it: contact
// messages and analytics events older than RETENTION_MONTHS. Invoices, accounts and their
// history follow their own rules (the law, the account's life) and are not touched here.
import { RETENTION_MONTHS } from '@debesis/contract';
import { monthsBefore } from '@debesis/pricing';
import type { AnalyticsQueries } from '../analytics/analytics.queries.ts';
import type { ContactQueries } from '../contact/contact.queries.ts';

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
