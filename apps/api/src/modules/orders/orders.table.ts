import { index, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PriceBreakdownResponse } from '@debesis/contract';
import { accountIdColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * What a customer asked to buy and its price at that moment. The breakdown is frozen when the
 * order is made, so a later catalogue change never changes what they pay.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    kind: text('kind', { enum: ['new', 'extension', 'plan_change'] }).notNull(),
    status: text('status', { enum: ['AWAITING_PAYMENT', 'PAID', 'FAILED', 'CANCELLED'] }).notNull(),
    serviceId: uuid('service_id'),
    /** What a `new` order's service is called when it is created; null: after the plan (today's default). */
    serviceName: text('service_name'),
    productId: text('product_id').notNull(),
    productName: text('product_name').notNull(),
    diskSpace: integer('disk_space').notNull(),
    usersCount: integer('users_count').notNull(),
    periodId: text('period_id').notNull(),
    months: integer('months').notNull(),
    /** What is charged: the breakdown's total, after account credit and VAT. */
    amountMinor: integer('amount_minor').notNull(),
    /** Account credit this order uses (before VAT); taken from the ledger when it is paid. */
    creditAppliedMinor: integer('credit_applied_minor').notNull().default(0),
    /** The plan change a `plan_change` order pays for. */
    planChangeId: uuid('plan_change_id'),
    currency: text('currency', { enum: ['EUR'] })
      .notNull()
      .default('EUR'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    breakdown: jsonb('breakdown').$type<PriceBreakdownResponse>().notNull(),
    /** Who bought, as it was then: country, business status, VAT number. */
    customer: jsonb('customer')
      .$type<{ country: string; is_business: boolean; vat_number: string | null }>()
      .notNull(),
    errorMessage: text('error_message'),
    errorDetails: text('error_details'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [index('orders_account_idx').on(table.accountId, table.createdAt)],
);
