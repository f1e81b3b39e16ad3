import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { PLAN_CHANGE_STATUSES, type PlanChangeQuote, type PlanConfiguration } from '@debesis/contract';
import { accountIdColumn, createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * A change of a service's plan, with the quote it was made on. An upgrade waits for the payment
 * of its order; a downgrade or an equal-price change is applied when made. At most one change
 * per service awaits payment: a newer one cancels it. A change whose larger disk its node has
 * no room for waits `awaiting_room` (paid) until it has (node-room.ts).
 */
export const planChanges = pgTable(
  'plan_changes',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    serviceId: uuid('service_id').notNull(),
    direction: text('direction', { enum: ['upgrade', 'downgrade', 'same'] }).notNull(),
    status: text('status', { enum: PLAN_CHANGE_STATUSES }).notNull(),
    fromConfiguration: jsonb('from_configuration').$type<PlanConfiguration>().notNull(),
    toConfiguration: jsonb('to_configuration').$type<PlanConfiguration>().notNull(),
    quote: jsonb('quote').$type<PlanChangeQuote>().notNull(),
    orderId: uuid('order_id'),
    creditMinor: integer('credit_minor').notNull().default(0),
    /**
     * A downgrade that shrinks the disk of a placed workspace: its credit is granted only once
     * the node reports the smaller size in place (true until then). A shrink the node refuses
     * (the data does not fit) undoes the change: `cancelled`, no credit.
     */
    creditPending: boolean('credit_pending').notNull().default(false),
    createdAt: createdAtColumn(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    updatedAt: updatedAtColumn(),
  },
  (table) => [
    index('plan_changes_service_idx').on(table.serviceId, table.createdAt),
    uniqueIndex('plan_changes_order_unique').on(table.orderId),
    uniqueIndex('plan_changes_one_open_per_service')
      .on(table.serviceId)
      .where(sql`status = 'awaiting_payment'`),
    // Looked up on every node report: only the few changes still waiting for their node.
    index('plan_changes_credit_pending_idx')
      .on(table.serviceId)
      .where(sql`credit_pending`),
  ],
);
