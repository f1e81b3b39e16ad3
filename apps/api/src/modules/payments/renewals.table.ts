import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountIdColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * One automatic renewal of a service: the end date it renews (unique with the service, so each
 * end date is renewed once), its extension order, the charges of the kept card tried so far and
 * when the next is due (dunning, RENEWAL_RETRY_DAYS). A run claims a row by a conditional update
 * (`claimed_until`) before charging, so two workers or API processes never work it at once; a
 * run that died holding it is overtaken when the claim lapses. The idempotency key of a charge is
 * `renewal-<id>-<attempts>`: a crash between the charge and its record is repaired by charging
 * again with the same key, which the provider answers with the same charge.
 */
export const serviceRenewals = pgTable(
  'service_renewals',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    serviceId: uuid('service_id').notNull(),
    /** The service's valid_until this renewal extends. */
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** The extension order it pays; set once, by the run that made it. */
    orderId: uuid('order_id'),
    /**
     * open: charges still to try; paid: the order is paid (by the card or by the invoice's link);
     * failed: every retry declined; lapsed: the service ended first; cancelled: its order was.
     */
    status: text('status', { enum: ['open', 'paid', 'failed', 'lapsed', 'cancelled'] })
      .notNull()
      .default('open'),
    /** Charges whose failure is recorded (the next charge's key counts them). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }),
    /** The last refusal's code (`card_declined`, `authentication_required`, `no_card`…). */
    lastError: text('last_error'),
    /**
     * A charge the provider answered `pending`, by its reference: the next run reads its outcome
     * (and its `charge.settled` event makes that run come at once) instead of charging again.
     */
    chargeReference: text('charge_reference'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('service_renewals_service_period_unique').on(table.serviceId, table.periodEnd),
    index('service_renewals_due_idx').on(table.status, table.nextAttemptAt),
  ],
);

export type ServiceRenewalRow = typeof serviceRenewals.$inferSelect;
