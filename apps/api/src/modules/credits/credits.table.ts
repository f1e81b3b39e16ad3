import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountIdColumn, createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * The account-credit ledger: a downgrade adds credit (positive), a paid order uses it
 * (negative), and money paid for an order cancelled meanwhile comes back as credit (`payment`,
 * positive; such an order uses none). The balance is the sum. Each plan change credits once and
 * each order uses or gives credit once (unique keys), so a repeated payment event cannot take or
 * give twice.
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    kind: text('kind', { enum: ['downgrade', 'order', 'payment'] }).notNull(),
    /** Minor units before VAT. */
    amountMinor: integer('amount_minor').notNull(),
    serviceId: uuid('service_id'),
    orderId: uuid('order_id'),
    planChangeId: uuid('plan_change_id'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    index('credit_entries_account_idx').on(table.accountId, table.createdAt),
    uniqueIndex('credit_entries_order_unique').on(table.orderId),
    uniqueIndex('credit_entries_plan_change_unique').on(table.planChangeId),
  ],
);
