// The only SQL on plan changes.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { planChanges } from './plan-changes.table.ts';

export type PlanChangeRow = typeof planChanges.$inferSelect;

export function createPlanChangesQueries(db: Executor) {
  return {
    async insert(values: typeof planChanges.$inferInsert): Promise<PlanChangeRow> {
      const [row] = await db.insert(planChanges).values(values).returning();
      if (!row) throw new Error('plan change insert returned no row');
      return row;
    },
    async findForAccount(accountId: string, id: string): Promise<PlanChangeRow | undefined> {
      const [row] = await db
        .select()
        .from(planChanges)
        .where(and(eq(planChanges.id, id), eq(planChanges.accountId, accountId)))
        .limit(1);
      return row;
    },
    async findById(id: string): Promise<PlanChangeRow | undefined> {
      const [row] = await db.select().from(planChanges).where(eq(planChanges.id, id)).limit(1);
      return row;
    },
    async setOrder(id: string, orderId: string): Promise<void> {
      await db.update(planChanges).set({ orderId }).where(eq(planChanges.id, id));
    },
    /** Cancels the service's change awaiting payment, if any; its order id, to cancel it too. */
    async cancelOpen(serviceId: string, at: Date): Promise<string | null | undefined> {
      const [row] = await db
        .update(planChanges)
        .set({ status: 'cancelled', updatedAt: at })
        .where(and(eq(planChanges.serviceId, serviceId), eq(planChanges.status, 'awaiting_payment')))
        .returning({ orderId: planChanges.orderId });
      return row?.orderId;
    },
    /** awaiting_payment → cancelled, for a change whose payment could not buy it. */
    async cancel(id: string, at: Date): Promise<void> {
      await db
        .update(planChanges)
        .set({ status: 'cancelled', updatedAt: at })
        .where(and(eq(planChanges.id, id), eq(planChanges.status, 'awaiting_payment')));
    },
    /** The downgrades of these services whose credit waits for the node's smaller disk. */
    async listCreditPending(serviceIds: readonly string[]): Promise<PlanChangeRow[]> {
      if (serviceIds.length === 0) return [];
      return db
        .select()
        .from(planChanges)
        .where(and(eq(planChanges.creditPending, true), inArray(planChanges.serviceId, [...serviceIds])));
    },
    /**
     * Ends the wait for the node: `applied` keeps the change (its credit is granted by the caller),
     * `cancelled` undoes it. The row when this call ended it (once, however many reports race).
     */
    async settleCreditPending(
      id: string,
      status: 'applied' | 'cancelled',
      at: Date,
    ): Promise<PlanChangeRow | undefined> {
      const [row] = await db
        .update(planChanges)
        .set({ creditPending: false, status, updatedAt: at })
        .where(and(eq(planChanges.id, id), eq(planChanges.creditPending, true)))
        .returning();
      return row;
    },
    /** awaiting_payment → awaiting_room: paid, but its node has no room yet; the row when this call moved it. */
    async markAwaitingRoom(id: string, at: Date): Promise<PlanChangeRow | undefined> {
      const [row] = await db
        .update(planChanges)
        .set({ status: 'awaiting_room', updatedAt: at })
        .where(and(eq(planChanges.id, id), eq(planChanges.status, 'awaiting_payment')))
        .returning();
      return row;
    },
    /** Every paid change waiting for room, the longest waiting first (the order room is given in). */
    async listAwaitingRoom(): Promise<PlanChangeRow[]> {
      return db
        .select()
        .from(planChanges)
        .where(eq(planChanges.status, 'awaiting_room'))
        .orderBy(asc(planChanges.updatedAt), asc(planChanges.createdAt));
    },
    /** awaiting_room → applied; the row when this call made the change. */
    async markRoomFound(id: string, at: Date): Promise<PlanChangeRow | undefined> {
      const [row] = await db
        .update(planChanges)
        .set({ status: 'applied', appliedAt: at, updatedAt: at })
        .where(and(eq(planChanges.id, id), eq(planChanges.status, 'awaiting_room')))
        .returning();
      return row;
    },
    /** awaiting_payment → applied; the row when this call made the change. */
    async markApplied(id: string, at: Date): Promise<PlanChangeRow | undefined> {
      const [row] = await db
        .update(planChanges)
        .set({ status: 'applied', appliedAt: at, updatedAt: at })
        .where(and(eq(planChanges.id, id), eq(planChanges.status, 'awaiting_payment')))
        .returning();
      return row;
    },
  };
}

export type PlanChangesQueries = ReturnType<typeof createPlanChangesQueries>;
