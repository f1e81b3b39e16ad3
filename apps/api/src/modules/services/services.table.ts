import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A purchased workspace. Created in `processing` by the payment of its order (exactly once: the
 * order id is unique here); the workspace issue adds placement, nodes and the lifecycle.
 */
export const services = pgTable(
  'services',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    accountId: uuid('account_id').notNull(),
    orderId: uuid('order_id').notNull(),
    productId: text('product_id').notNull(),
    name: text('name').notNull(),
    status: text('status', {
      enum: [
        'awaitingPayment',
        'processing',
        'resourcePending',
        'failed',
        'active',
        'suspended',
        'quarantined',
        'cancelled',
        'terminated',
        'expired',
      ],
    }).notNull(),
    diskSpace: integer('disk_space').notNull(),
    usersCount: integer('users_count').notNull(),
    periodId: text('period_id').notNull(),
    monthlyPriceMinor: integer('monthly_price_minor').notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /**
     * The paid span ending at valid_until: its start and its length in months. A plan change is
     * prorated over it; an extension bought before valid_until lengthens it, a later one starts
     * a new span.
     */
    paidFrom: timestamp('paid_from', { withTimezone: true }).notNull(),
    paidMonths: integer('paid_months').notNull(),
    /** What the workspace uses, as its node last reported (the workspace issue keeps them current). */
    diskUsedBytes: bigint('disk_used_bytes', { mode: 'number' }),
    usersInUse: integer('users_in_use').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('services_order_unique').on(table.orderId),
    index('services_account_idx').on(table.accountId),
  ],
);
