// The account at a glance (GET /api/v1/dashboard/): services by status, those about to expire,
// orders waiting for payment (or paid again after a failed payment), account credit and the newest activity. It owns no table: it asks
// the services, orders, credits and activity modules through their own functions.
import {
  DASHBOARD_LATEST_ACTIVITY,
  SERVICE_STATUSES,
  type DashboardExpiringService,
  type DashboardSummary,
  type ServiceStatus,
} from '@debesis/contract';
import type { ActivityService } from '../activity/activity.service.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { EXPIRING_SOON_DAYS } from '../services/lifecycle.constants.ts';
import { daysLeft, expiryWarning } from '../services/lifecycle.ts';
import type { ServicesQueries } from '../services/services.queries.ts';

export function createDashboardService(deps: {
  services: Pick<ServicesQueries, 'listForAccount'>;
  orders: Pick<OrdersService, 'listOpen'>;
  creditBalance: (accountId: string) => Promise<number>;
  activity: Pick<ActivityService, 'list'>;
  now: () => Date;
}) {
  return {
    async summary(accountId: string): Promise<DashboardSummary> {
      const [services, unpaid, balance, latest] = await Promise.all([
        deps.services.listForAccount(accountId),
        // What the services page's card lists (GET /orders/open): awaiting payment, and those
        // whose payment failed, to pay again. Counting fewer than the card below the tile said
        // "Nothing to pay" above an unpaid order.
        deps.orders.listOpen(accountId),
        deps.creditBalance(accountId),
        deps.activity.list(accountId, { skip: 0, limit: DASHBOARD_LATEST_ACTIVITY }),
      ]);
      const now = deps.now();

      const byStatus = Object.fromEntries(SERVICE_STATUSES.map((status) => [status, 0])) as Record<
        ServiceStatus,
        number
      >;
      const expiring: DashboardExpiringService[] = [];
      for (const service of services) {
        byStatus[service.status] += 1;
        // The same rule (and constants) as the services list's warnings and the reminder mails.
        const warning = expiryWarning(service, now);
        if (warning) {
          expiring.push({
            id: service.id,
            name: service.name,
            status: service.status,
            valid_until: service.validUntil.toISOString(),
            days_left: daysLeft(service, now) ?? 0,
            expiry_warning: warning,
          });
        }
      }
      expiring.sort((a, b) => a.valid_until.localeCompare(b.valid_until));

      return {
        services: { total: services.length, by_status: byStatus },
        expiring_soon: { within_days: EXPIRING_SOON_DAYS, services: expiring },
        unpaid_orders: {
          count: unpaid.length,
          amount: unpaid.reduce((sum, order) => sum + order.amount, 0),
          currency: 'EUR',
          orders: unpaid.map((order) => ({
            id: order.id,
            kind: order.kind,
            product_name: order.product_name,
            service_id: order.service_id,
            amount: order.amount,
            currency: order.currency,
            created_at: order.created_at,
          })),
        },
        credit: { balance, currency: 'EUR' },
        latest_activity: latest.items,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
