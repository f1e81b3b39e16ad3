// The only SQL on billing_info, invoice_counters, credit_note_counters and invoices (invoices and
// credit notes). Every query on customer rows filters by account_id; the counters are the
// seller's and belong to no account.
import { and, eq, sql, sum, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { billingInfo, creditNoteCounters, invoiceCounters, invoices } from './billing.table.ts';
import type { InvoiceReference } from '@debesis/contract';

export type BillingInfoRow = typeof billingInfo.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;

/** The placeholders of `invoicePageOf`: null for a filter not asked for. */
export type InvoicePageParameters = {
  startDate: string | null;
  endDate: string | null;
  type: InvoiceRow['type'] | null;
  kind: InvoiceRow['kind'] | null;
  status: InvoiceRow['status'] | null;
  serviceId: string | null;
  limit: number;
  offset: number;
};

/** One page of the list as `invoicePageOf` reads it: each document, its status and (an invoice's)
 * credit notes, newest first (by number within a day, so the order is stable). */
export interface InvoicePage {
  total: number;
  items: Array<[InvoiceRow['document'], InvoiceRow['status'], InvoiceReference[]]> | null;
}

/** What an invoice's credit notes have given back so far, as positive amounts. */
export interface Credited {
  total: number;
  vat: number;
}

const parameter = (name: keyof InvoicePageParameters) => sql.placeholder(name);
/** The list's filters as placeholders (a null one matches every row): one statement for all. */
const pageFilter = (accountId: SQLWrapper) => sql`${invoices.accountId} = ${accountId}
  and (${parameter('startDate')}::date is null or ${invoices.issueDate} >= ${parameter('startDate')}::date)
  and (${parameter('endDate')}::date is null or ${invoices.issueDate} <= ${parameter('endDate')}::date)
  and (${parameter('type')}::text is null or ${invoices.type} = ${parameter('type')}::text)
  and (${parameter('kind')}::text is null or ${invoices.kind} = ${parameter('kind')}::text)
  and (${parameter('status')}::text is null or ${invoices.status} = ${parameter('status')}::text)
  and (${parameter('serviceId')}::uuid is null or ${invoices.serviceId} = ${parameter('serviceId')}::uuid)`;
const newestFirst = sql`${invoices.issuedAt} desc, ${invoices.year} desc, ${invoices.sequence} desc`;
/** The credit notes of the invoice `invoiceId` (a column or value) as JSON references, oldest first. */
const creditNotesOf = (invoiceId: SQLWrapper) => sql`(select coalesce(json_agg(json_build_object(
    'id', note.id, 'number', note.number, 'total', note.total_minor) order by note.year, note.sequence), '[]'::json)
  from ${invoices} note where note.credited_invoice_id = ${invoiceId})`;

export function createBillingQueries(db: Executor) {
  /** An account's unpaid invoice (not a credit note) matching `which`, moved to `status`. */
  async function leaveUnpaid(
    accountId: string,
    which: SQL,
    status: 'paid' | 'void',
  ): Promise<InvoiceRow | undefined> {
    const [row] = await db
      .update(invoices)
      .set({ status })
      .where(
        and(
          eq(invoices.accountId, accountId),
          which,
          eq(invoices.kind, 'invoice'),
          eq(invoices.status, 'unpaid'),
        ),
      )
      .returning();
    return row;
  }

  return {
    async findInfo(accountId: string): Promise<BillingInfoRow | undefined> {
      const [row] = await db.select().from(billingInfo).where(eq(billingInfo.accountId, accountId)).limit(1);
      return row;
    },

    async saveInfo(values: typeof billingInfo.$inferInsert): Promise<BillingInfoRow> {
      const { accountId: _accountId, ...changes } = values;
      const [row] = await db
        .insert(billingInfo)
        .values(values)
        .onConflictDoUpdate({ target: billingInfo.accountId, set: changes })
        .returning();
      if (!row) throw new Error('billing info upsert returned no row');
      return row;
    },

    /**
     * The next number of `year`'s sequence. Call it only inside the transaction that inserts the
     * invoice: the updated row stays locked until that transaction ends, so concurrent payments
     * take consecutive numbers, and a rollback returns the number to the sequence.
     */
    async nextSequence(year: number): Promise<number> {
      const [row] = await db
        .insert(invoiceCounters)
        .values({ year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: invoiceCounters.year,
          set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
        })
        .returning({ lastNumber: invoiceCounters.lastNumber });
      if (!row) throw new Error('invoice counter returned no row');
      return row.lastNumber;
    },

    /** The credit notes' own series, taken like `nextSequence` (same lock, same rollback). */
    async nextCreditNoteSequence(year: number): Promise<number> {
      const [row] = await db
        .insert(creditNoteCounters)
        .values({ year, lastNumber: 1 })
        .onConflictDoUpdate({
          target: creditNoteCounters.year,
          set: { lastNumber: sql`${creditNoteCounters.lastNumber} + 1` },
        })
        .returning({ lastNumber: creditNoteCounters.lastNumber });
      if (!row) throw new Error('credit note counter returned no row');
      return row.lastNumber;
    },

    async insertInvoice(values: NewInvoiceRow): Promise<InvoiceRow> {
      const [row] = await db.insert(invoices).values(values).returning();
      if (!row) throw new Error('invoice insert returned no row');
      return row;
    },

    async findInvoiceForOrder(accountId: string, orderId: string): Promise<InvoiceRow | undefined> {
      const [row] = await db
        .select()
        .from(invoices)
        .where(
          and(eq(invoices.accountId, accountId), eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')),
        )
        .limit(1);
      return row;
    },

    async findInvoice(accountId: string, id: string): Promise<InvoiceRow | undefined> {
      const [row] = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id)))
        .limit(1);
      return row;
    },

    /** An invoice's credit notes as references, oldest first (none for a credit note). */
    async creditNotesOf(accountId: string, invoiceId: string): Promise<InvoiceReference[]> {
      const rows = await db
        .select({ id: invoices.id, number: invoices.number, total: invoices.totalMinor })
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.creditedInvoiceId, invoiceId)))
        .orderBy(invoices.year, invoices.sequence);
      return rows;
    },

    /** What the credit notes of an invoice have given back so far (total and VAT, positive). */
    async creditedOn(accountId: string, invoiceId: string): Promise<Credited> {
      const [row] = await db
        .select({
          total: sql<string | null>`sum(-${invoices.totalMinor})`,
          vat: sql<string | null>`sum(-(${invoices.document}->>'vat_amount')::int)`,
        })
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.creditedInvoiceId, invoiceId)));
      return { total: Number(row?.total ?? 0), vat: Number(row?.vat ?? 0) };
    },

    /**
     * unpaid → void: an unpaid invoice whose order or payment was cancelled stays in the trail
     * with nothing due (the table's trigger lets only the status change). Undefined when it is
     * not this account's unpaid invoice (paid, already void, or a credit note).
     */
    voidInvoice: (accountId: string, id: string) => leaveUnpaid(accountId, eq(invoices.id, id), 'void'),

    /** The order's unpaid invoice, paid now (its document stays as issued); none when it is not unpaid. */
    markInvoiceOfOrderPaid: (accountId: string, orderId: string) =>
      leaveUnpaid(accountId, eq(invoices.orderId, orderId), 'paid'),

    /** `voidInvoice` for the unpaid invoice of an order (there is at most one invoice per order). */
    voidInvoiceOfOrder: (accountId: string, orderId: string) =>
      leaveUnpaid(accountId, eq(invoices.orderId, orderId), 'void'),

    /**
     * `listInvoices` as one scalar subquery (JSON: the count and the page's documents), for the
     * statement that reads the caller's session along (auth.queries.ts createSessionBoundReads):
     * the invoices page costs one round trip instead of three. Its filters and page are the
     * placeholders of InvoicePageParameters.
     */
    invoicePageOf(accountId: SQLWrapper): SQL<InvoicePage> {
      return sql<InvoicePage>`(select json_build_object(
        'total', (select count(*) from ${invoices} where ${pageFilter(accountId)}),
        'items', (select json_agg(json_build_array(page.document, page.status, page.credit_notes)
                    order by page.issued_at desc, page.year desc, page.sequence desc)
          from (select ${invoices.document} as document, ${invoices.status} as status,
                  ${creditNotesOf(invoices.id)} as credit_notes,
                  ${invoices.issuedAt} as issued_at, ${invoices.year} as year, ${invoices.sequence} as sequence
                from ${invoices} where ${pageFilter(accountId)}
                order by ${newestFirst}
                limit ${parameter('limit')}::int offset ${parameter('offset')}::int) page)))`;
    },

    /** Paid invoices, and what they took less what credit notes gave back. */
    async totals(accountId: string): Promise<{ count: number; paid: number }> {
      const [row] = await db
        .select({
          count: sql<string>`count(*) filter (where ${invoices.kind} = 'invoice')`,
          paid: sum(invoices.totalMinor),
        })
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'paid')));
      return { count: Number(row?.count ?? 0), paid: Number(row?.paid ?? 0) };
    },
  };
}

export type BillingQueries = ReturnType<typeof createBillingQueries>;
