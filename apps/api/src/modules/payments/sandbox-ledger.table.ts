import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SavedCardCharge } from './provider.ts';
import { createdAtColumn } from '../../db/columns.ts';

/**
 * The sandbox provider's own record of the off-session charges of kept cards, as a real
 * provider's dashboard keeps them: one row per idempotency key, the first answer kept and given
 * again to a repeated request (counted in `requests`). Only the sandbox writes it; with Stripe it
 * stays empty. It is how a test tells "charged once" from "asked twice" after a crash.
 */
export const sandboxCharges = pgTable('sandbox_charges', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  customerRef: text('customer_ref').notNull(),
  methodRef: text('method_ref').notNull(),
  amountMinor: integer('amount_minor').notNull(),
  currency: text('currency').notNull(),
  description: text('description').notNull(),
  /** The charge's outcome: succeeded, declined or requires_action (the card's behaviour). */
  status: text('status').notNull(),
  /** The whole first answer, given again to a repeated request. */
  answer: jsonb('answer').$type<SavedCardCharge>().notNull(),
  /** How many times the key was asked: 1, or more when a caller repeated it after a crash. */
  requests: integer('requests').notNull().default(1),
  createdAt: createdAtColumn(),
  lastRequestedAt: timestamp('last_requested_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxChargeRow = typeof sandboxCharges.$inferSelect;
