import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accountIdColumn, createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * The activity log: every management action and notable account event, with who, from where and
 * on which service. `account_id` is the owning user's id.
 */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    serviceId: text('service_id'),
    action: text('action').notNull(),
    tone: text('tone', { enum: ['success', 'warning', 'error', 'info'] }).notNull(),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAtColumn(),
  },
  (table) => [
    index('activity_account_idx').on(table.accountId, table.createdAt),
    index('activity_service_idx').on(table.serviceId, table.createdAt),
    // The login history: one action of one account, newest first.
    index('activity_account_action_idx').on(table.accountId, table.action, table.createdAt),
  ],
);
