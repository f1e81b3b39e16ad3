// What the hourly maintenance job deletes because the privacy page promises it: contact
// messages, analytics events and share links' access logs older than RETENTION_MONTHS. Invoices, accounts and their
// history follow their own rules (the law, the account's life) and are not touched here.
import { RETENTION_MONTHS } from '@debesis/contract';
import { monthsBefore } from '@debesis/pricing';
import type { AnalyticsQueries } from '../analytics/analytics.queries.ts';
import type { ContactQueries } from '../contact/contact.queries.ts';
import type { ShareLinksQueries } from '../share-links/share-links.queries.ts';

export function createRetention(deps: {
  contact: Pick<ContactQueries, 'pruneBefore'>;
  analytics: Pick<AnalyticsQueries, 'pruneBefore'>;
  shareLinks: Pick<ShareLinksQueries, 'pruneAccessLogs'>;
  now: () => Date;
}) {
  return {
    /** Deletes what has outlived its retention; answers how many rows of each went. */
    async prune(): Promise<{
      contactMessages: number;
      analyticsEvents: number;
      shareLinkAccessLogs: number;
    }> {
      const now = deps.now();
      return {
        shareLinkAccessLogs: await deps.shareLinks.pruneAccessLogs(
          monthsBefore(now, RETENTION_MONTHS.shareLinkAccessLogs),
        ),
        contactMessages: await deps.contact.pruneBefore(monthsBefore(now, RETENTION_MONTHS.contactMessages)),
        analyticsEvents: await deps.analytics.pruneBefore(
          monthsBefore(now, RETENTION_MONTHS.analyticsEvents),
        ),
      };
    },
  };
}
