// The only SQL on payment sessions and provider events.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { paymentEvents, paymentSessions } from './payments.table.ts';

export type PaymentSessionRow = typeof paymentSessions.$inferSelect;
export type PaymentSessionStatus = PaymentSessionRow['status'];

export function createPaymentsQueries(db: Db) {
  return {
    async insertSession(values: typeof paymentSessions.$inferInsert): Promise<PaymentSessionRow> {
      const [row] = await db.insert(paymentSessions).values(values).returning();
      if (!row) throw new Error('payment session insert returned no row');
      return row;
    },
    async findSession(id: string): Promise<PaymentSessionRow | undefined> {
      const [row] = await db.select().from(paymentSessions).where(eq(paymentSessions.id, id)).limit(1);
      return row;
    },
    async latestSessionForOrder(orderId: string): Promise<PaymentSessionRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentSessions)
        .where(eq(paymentSessions.orderId, orderId))
        .orderBy(desc(paymentSessions.createdAt))
        .limit(1);
      return row;
    },
    /** Moves a session on unless it already ended (succeeded or failed). */
    async setSessionStatus(id: string, status: PaymentSessionStatus, at: Date): Promise<void> {
      await db
        .update(paymentSessions)
        .set({ status, updatedAt: at })
        .where(and(eq(paymentSessions.id, id), inArray(paymentSessions.status, ['open', 'pending'])));
    },
    /** Records an event; false when this provider's event id was seen before. */
    async recordEvent(values: typeof paymentEvents.$inferInsert): Promise<boolean> {
      const rows = await db
        .insert(paymentEvents)
        .values(values)
        .onConflictDoNothing()
        .returning({ eventId: paymentEvents.eventId });
      return rows.length === 1;
    },
  };
}

export type PaymentsQueries = ReturnType<typeof createPaymentsQueries>;
