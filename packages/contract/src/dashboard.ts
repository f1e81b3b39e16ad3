// GET /api/v1/dashboard/ (spec accounts-ordering-billing §7 "Other"): the account at a glance —
// its services by status, the ones about to expire with the days left, orders waiting for
// payment, the account credit and the newest activity.
import { z } from 'zod';
import { text } from './strings.ts';
import { activityEntrySchema } from './activity.ts';
import { ORDER_KINDS } from './orders.ts';
import { EXPIRY_WARNINGS, SERVICE_STATUSES } from './services.ts';

/** How many of the newest activity entries the summary carries. */
export const DASHBOARD_LATEST_ACTIVITY = 5;

export const dashboardExpiringServiceSchema = z.object({
  id: text(),
  name: text(),
  status: z.enum(SERVICE_STATUSES),
  valid_until: text(),
  /** Whole days until valid_until, rounded up (0 once passed). */
  days_left: z.number().int(),
  expiry_warning: z.enum(EXPIRY_WARNINGS),
});
export type DashboardExpiringService = z.infer<typeof dashboardExpiringServiceSchema>;

export const dashboardUnpaidOrderSchema = z.object({
  id: text(),
  kind: z.enum(ORDER_KINDS),
  product_name: text(),
  service_id: text().nullable(),
  amount: z.number().int(),
  currency: z.literal('EUR'),
  created_at: text(),
});
export type DashboardUnpaidOrder = z.infer<typeof dashboardUnpaidOrderSchema>;

export const dashboardSummarySchema = z.object({
  services: z.object({
    total: z.number().int(),
    /** Every status, 0 when the account has none in it. */
    by_status: z.record(z.enum(SERVICE_STATUSES), z.number().int()),
  }),
  /** Services in their paid period that end within `within_days` days, soonest first. */
  expiring_soon: z.object({
    within_days: z.number().int(),
    services: z.array(dashboardExpiringServiceSchema),
  }),
  /**
   * Orders still to pay, newest first: awaiting payment or their payment failed (the same as
   * GET /orders/open, which the services page lists below this count).
   */
  unpaid_orders: z.object({
    count: z.number().int(),
    amount: z.number().int(),
    currency: z.literal('EUR'),
    orders: z.array(dashboardUnpaidOrderSchema),
  }),
  /** Account credit, before VAT, in minor units. */
  credit: z.object({ balance: z.number().int(), currency: z.literal('EUR') }),
  latest_activity: z.array(activityEntrySchema),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
