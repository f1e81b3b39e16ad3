import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Invoice } from '@debesis/contract';
import { accountIdColumn, updatedAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * An issued invoice or credit note as stored; those issued before workspace names were kept have
 * no name, those issued before credit notes existed no kind (an invoice). An invoice's credit
 * notes are not part of it: they are read along (the document never changes).
 */
export type StoredInvoiceDocument = Omit<
  Invoice,
  'status' | 'service_name' | 'kind' | 'credited_invoice' | 'credit_notes'
> & {
  service_name?: string | null;
  kind?: Invoice['kind'];
  credited_invoice?: Invoice['credited_invoice'];
};

/** Who an account's invoices are made out to (spec §3 Billing info); one row per account, once saved. */
export const billingInfo = pgTable('billing_info', {
  accountId: uuid('account_id').primaryKey(),
  companyName: text('company_name'),
  vatNumber: text('vat_number'),
  street: text('street').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  country: text('country').notNull().default(''),
  updatedAt: updatedAtColumn(),
});

/**
 * The invoice number sequence, one row per year. Taking a number is one
 * `INSERT … ON CONFLICT (year) DO UPDATE SET last_number = last_number + 1 RETURNING` inside the
 * payment's transaction: the row lock orders concurrent payments (in any number of processes), and
 * a transaction that rolls back gives its number back, so the numbers have no gaps and no twins.
 * Not customer data: the sequence is the seller's.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/** The credit notes' own number sequence (CN-YEAR-000001), taken like `invoiceCounters`. */
export const creditNoteCounters = pgTable('credit_note_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

/**
 * Issued invoices and credit notes (`kind`). `document` is the invoice frozen as it was issued (seller, buyer, lines, sums,
 * VAT wording keys), so rendering it again, in either language, gives the same document. A
 * trigger (migration 0010_billing) refuses any change but `status`, and any delete: a correction is a new
 * document. The other columns are copies of the document for listing and filtering.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    /** `credit_note`: money given back on the invoice `creditedInvoiceId`; its amounts are negative. */
    kind: text('kind', { enum: ['invoice', 'credit_note'] })
      .notNull()
      .default('invoice'),
    /** e.g. DEB-2026-000123 (a credit note CN-2026-000001): prefix, year, the series' number. */
    number: text('number').notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    orderId: uuid('order_id').notNull(),
    serviceId: uuid('service_id'),
    /** A credit note's invoice. */
    creditedInvoiceId: uuid('credited_invoice_id').references((): AnyPgColumn => invoices.id),
    type: text('type', { enum: ['PURCHASE', 'RENEWAL', 'PLAN_CHANGE'] }).notNull(),
    status: text('status', { enum: ['paid', 'unpaid', 'void', 'draft'] }).notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    totalMinor: integer('total_minor').notNull(),
    currency: text('currency', { enum: ['EUR'] })
      .notNull()
      .default('EUR'),
    /** The account's language when it was issued: the confirmation mail's. */
    language: text('language', { enum: ['en', 'lt'] }).notNull(),
    document: jsonb('document').$type<StoredInvoiceDocument>().notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('invoices_number_unique').on(table.number),
    // Each series (invoices, credit notes) numbers its own years.
    uniqueIndex('invoices_kind_year_sequence_unique').on(table.kind, table.year, table.sequence),
    // One invoice per paid order: a replayed payment finds the first. Credit notes: any number.
    uniqueIndex('invoices_order_unique')
      .on(table.orderId)
      .where(sql`${table.kind} = 'invoice'`),
    index('invoices_credited_invoice_idx')
      .on(table.creditedInvoiceId)
      .where(sql`${table.creditedInvoiceId} is not null`),
    index('invoices_account_date_idx').on(table.accountId, table.issueDate),
  ],
);
