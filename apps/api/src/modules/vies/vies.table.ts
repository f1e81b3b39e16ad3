import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The latest VIES answer per VAT number, shared by every API process and kept across restarts,
 * so that VIES is asked at most once a day per number and its answer can stand in while VIES is
 * down (rules in vies.service.ts). Rows older than the longest use are pruned.
 */
export const viesChecks = pgTable(
  'vies_checks',
  {
    /** Prefix and number as VIES knows it, e.g. DE136695976, EL094259216. */
    vatNumber: text('vat_number').primaryKey(),
    valid: boolean('valid').notNull(),
    /** Trader name and address as VIES gave them; null where the member state gives none. */
    name: text('name'),
    address: text('address'),
    /** VIES's own date of the answer (YYYY-MM-DD...), kept as evidence of the check. */
    requestDate: text('request_date'),
    /** VIES's consultation number for the answer (asked with the seller as requester). */
    requestIdentifier: text('request_identifier'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('vies_checks_checked_at_idx').on(table.checkedAt)],
);
