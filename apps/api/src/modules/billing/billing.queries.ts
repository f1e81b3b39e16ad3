// The only SQL on billing_info, invoice_counters and invoices. Every query on customer rows
// filters by account_id; the counter is the seller's and belongs to no account.
import { and, count, desc, eq, gte, lte, sql, sum, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { billingInfo, invoiceCounters, invoices } from './billing.table.ts';

export type BillingInfoRow = typeof billingInfo.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;

export interface InvoiceFilter {
  startDate?: string | undefined;
  endDate?: string | undefined;
  type?: InvoiceRow['type'] | undefined;
  serviceId?: string | undefined;
}

export function createBillingQueries(db: Executor) {
  function filterFor(accountId: string, filter: InvoiceFilter): SQL | undefined {
    return and(
      eq(invoices.accountId, accountId),
      filter.startDate ? gte(invoices.issueDate, filter.startDate) : undefined,
      filter.endDate ? lte(invoices.issueDate, filter.endDate) : undefined,
      filter.type ? eq(invoices.type, filter.type) : undefined,
      filter.serviceId ? eq(invoices.serviceId, filter.serviceId) : undefined,
    );
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

    async insertInvoice(values: NewInvoiceRow): Promise<InvoiceRow> {
      const [row] = await db.insert(invoices).values(values).returning();
      if (!row) throw new Error('invoice insert returned no row');
      return row;
    },

    async findInvoiceForOrder(accountId: string, orderId: string): Promise<InvoiceRow | undefined> {
      const [row] = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.orderId, orderId)))
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

    /** Newest first (by number within a day, so the order is stable). */
    async listInvoices(
      accountId: string,
      filter: InvoiceFilter,
      page: { limit: number; offset: number },
    ): Promise<{ rows: InvoiceRow[]; total: number }> {
      const where = filterFor(accountId, filter);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(invoices)
          .where(where)
          .orderBy(desc(invoices.issuedAt), desc(invoices.year), desc(invoices.sequence))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: count() }).from(invoices).where(where),
      ]);
      return { rows, total: Number(counted?.total ?? 0) };
    },

    async totals(accountId: string): Promise<{ count: number; paid: number }> {
      const [row] = await db
        .select({ count: count(), paid: sum(invoices.totalMinor) })
        .from(invoices)
        .where(and(eq(invoices.accountId, accountId), eq(invoices.status, 'paid')));
      return { count: Number(row?.count ?? 0), paid: Number(row?.paid ?? 0) };
    },
  };
}

export type BillingQueries = ReturnType<typeof createBillingQueries>;
