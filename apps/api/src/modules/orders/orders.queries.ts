// The only SQL on orders. Status changes are conditional updates, so two processes racing on
// the same order cannot both move it.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { orders } from './orders.table.ts';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrderRow = typeof orders.$inferInsert;

export function createOrdersQueries(db: Executor) {
  async function paid(id: string, from: Array<OrderRow['status']>, at: Date) {
    const [row] = await db
      .update(orders)
      .set({ status: 'PAID', paidAt: at, errorMessage: null, errorDetails: null, updatedAt: at })
      .where(and(eq(orders.id, id), inArray(orders.status, from)))
      .returning();
    return row;
  }

  return {
    async insert(values: NewOrderRow): Promise<OrderRow> {
      const [row] = await db.insert(orders).values(values).returning();
      if (!row) throw new Error('order insert returned no row');
      return row;
    },
    async findForAccount(accountId: string, id: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.id, id), eq(orders.accountId, accountId)))
        .limit(1);
      return row;
    },
    async findById(id: string): Promise<OrderRow | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
      return row;
    },
    async listForAccount(accountId: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(eq(orders.accountId, accountId))
        .orderBy(desc(orders.createdAt))
        .limit(200);
    },
    /** The account's orders that may still be paid or cancelled, newest first. */
    async listOpenForAccount(accountId: string): Promise<OrderRow[]> {
      return db
        .select()
        .from(orders)
        .where(and(eq(orders.accountId, accountId), inArray(orders.status, ['AWAITING_PAYMENT', 'FAILED'])))
        .orderBy(desc(orders.createdAt))
        .limit(100);
    },
    /**
     * AWAITING_PAYMENT or FAILED → PAID; the row when this call made the change. Never a
     * cancelled order: the credit it had set aside is free again and may be another order's.
     */
    async markPaid(id: string, at: Date): Promise<OrderRow | undefined> {
      return paid(id, ['AWAITING_PAYMENT', 'FAILED'], at);
    },
    /**
     * CANCELLED → PAID, for money taken at a card page opened before the cancellation: the
     * payment is recorded, never dropped, but buys nothing (the payments module credits it).
     */
    async markCancelledPaid(id: string, at: Date): Promise<OrderRow | undefined> {
      return paid(id, ['CANCELLED'], at);
    },
    /** AWAITING_PAYMENT → FAILED with the reason; a paid order is never failed afterwards. */
    async markFailed(id: string, error: { message: string; details: string }, at: Date): Promise<boolean> {
      const rows = await db
        .update(orders)
        .set({ status: 'FAILED', errorMessage: error.message, errorDetails: error.details, updatedAt: at })
        .where(and(eq(orders.id, id), eq(orders.status, 'AWAITING_PAYMENT')))
        .returning({ id: orders.id });
      return rows.length === 1;
    },
    /** FAILED → AWAITING_PAYMENT for a new attempt. */
    async reopen(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(orders)
        .set({ status: 'AWAITING_PAYMENT', errorMessage: null, errorDetails: null, updatedAt: at })
        .where(and(eq(orders.id, id), eq(orders.status, 'FAILED')))
        .returning({ id: orders.id });
      return rows.length === 1;
    },
    /** An order of the same plan still awaiting payment, so a repeated check does not pile up orders. */
    async findAwaiting(
      accountId: string,
      plan: { productId: string; diskSpace: number; usersCount: number; periodId: string },
    ) {
      const [row] = await db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.accountId, accountId),
            eq(orders.kind, 'new'),
            eq(orders.status, 'AWAITING_PAYMENT'),
            eq(orders.productId, plan.productId),
            eq(orders.diskSpace, plan.diskSpace),
            eq(orders.usersCount, plan.usersCount),
            eq(orders.periodId, plan.periodId),
          ),
        )
        .orderBy(desc(orders.createdAt))
        .limit(1);
      return row;
    },
    /** Credit set aside by the account's orders that may still be paid. */
    async reservedCredit(accountId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | null>`sum(${orders.creditAppliedMinor})` })
        .from(orders)
        .where(and(eq(orders.accountId, accountId), inArray(orders.status, ['AWAITING_PAYMENT', 'FAILED'])));
      return Number(row?.total ?? 0);
    },
    /** AWAITING_PAYMENT or FAILED → CANCELLED (its credit is free again); false when it had moved on. */
    async cancel(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(orders)
        .set({ status: 'CANCELLED', updatedAt: at })
        .where(and(eq(orders.id, id), inArray(orders.status, ['AWAITING_PAYMENT', 'FAILED'])))
        .returning({ id: orders.id });
      return rows.length === 1;
    },
    /** The service's extension order still awaiting payment, if any. */
    async findAwaitingExtension(accountId: string, serviceId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.accountId, accountId),
            eq(orders.serviceId, serviceId),
            eq(orders.kind, 'extension'),
            eq(orders.status, 'AWAITING_PAYMENT'),
          ),
        )
        .orderBy(desc(orders.createdAt))
        .limit(1);
      return row;
    },
    /** Names the service a new order will create, while it still awaits payment; false when it does not. */
    async setServiceName(accountId: string, id: string, name: string): Promise<boolean> {
      const rows = await db
        .update(orders)
        .set({ serviceName: name })
        .where(
          and(
            eq(orders.id, id),
            eq(orders.accountId, accountId),
            eq(orders.kind, 'new'),
            inArray(orders.status, ['AWAITING_PAYMENT', 'FAILED']),
          ),
        )
        .returning({ id: orders.id });
      return rows.length > 0;
    },

    async setService(id: string, serviceId: string): Promise<void> {
      await db.update(orders).set({ serviceId }).where(eq(orders.id, id));
    },
  };
}

export type OrdersQueries = ReturnType<typeof createOrdersQueries>;
