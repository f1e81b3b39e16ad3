import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accountIdColumn, timestampColumns } from '../../db/columns.ts';

/** One attempt to pay an order at a provider (a hosted card page). */
export const paymentSessions = pgTable(
  'payment_sessions',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id').notNull(),
    accountId: accountIdColumn(),
    /** `credit`: an order account credit paid in full, without a provider. */
    provider: text('provider', { enum: ['sandbox', 'stripe', 'credit'] }).notNull(),
    providerSessionId: text('provider_session_id'),
    status: text('status', { enum: ['open', 'pending', 'succeeded', 'failed', 'expired'] }).notNull(),
    url: text('url').notNull(),
    returnUrl: text('return_url').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['EUR'] })
      .notNull()
      .default('EUR'),
    /** The customer asked to keep the card for renewals (Stripe: setup_future_usage=off_session). */
    savePaymentMethod: boolean('save_payment_method').notNull().default(false),
    /** The provider's id of the payment taken in this session (Stripe: its PaymentIntent). */
    paymentReference: text('payment_reference'),
    /**
     * Set when this session took money for an order another session had already paid: the
     * payment is given back through the provider (`pending` until the provider confirms).
     */
    refundStatus: text('refund_status', { enum: ['pending', 'refunded'] }),
    /** The provider's id of that refund. */
    refundReference: text('refund_reference'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [index('payment_sessions_order_idx').on(table.orderId)],
);

/**
 * An operator's refund of a payment, whole or part (`npm run ops -- payments refund`): reserved
 * here (`pending`) under the payment session's row lock before the provider is asked, so the
 * refunds of one payment never add up to more than its invoice; recorded `refunded` with its
 * credit note once, by a conditional update. `key` makes a repeated call the same refund.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => paymentSessions.id),
    accountId: accountIdColumn(),
    invoiceId: uuid('invoice_id').notNull(),
    key: text('key').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency', { enum: ['EUR'] })
      .notNull()
      .default('EUR'),
    endService: boolean('end_service').notNull(),
    reason: text('reason'),
    status: text('status', { enum: ['pending', 'refunded'] }).notNull(),
    /** The provider's id of the refund. */
    reference: text('reference'),
    creditNoteId: uuid('credit_note_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('payment_refunds_session_key_unique').on(table.sessionId, table.key)],
);

/** Every provider event ever received; the key makes a replayed event a no-op. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    sessionId: text('session_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Why the event was not applied: it did not match its session (which, asked, paid). */
    refusal: text('refusal'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);
