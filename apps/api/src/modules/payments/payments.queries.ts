// The only SQL on payment sessions, the operator's refunds and provider events.
import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { paymentEvents, paymentRefunds, paymentSessions } from './payments.table.ts';

export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
export type PaymentSessionRow = typeof paymentSessions.$inferSelect;
export type PaymentSessionStatus = PaymentSessionRow['status'];

export function createPaymentsQueries(db: Executor) {
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
    /** The account's payment sessions, newest first (the operator's `payments list`). */
    async listForAccount(accountId: string): Promise<PaymentSessionRow[]> {
      return db
        .select()
        .from(paymentSessions)
        .where(eq(paymentSessions.accountId, accountId))
        .orderBy(desc(paymentSessions.createdAt));
    },
    /** Moves a session on unless it already ended (succeeded or failed). */
    async setSessionStatus(id: string, status: PaymentSessionStatus, at: Date): Promise<void> {
      await db
        .update(paymentSessions)
        .set({ status, updatedAt: at })
        .where(and(eq(paymentSessions.id, id), inArray(paymentSessions.status, ['open', 'pending'])));
    },
    /**
     * The provider took money in this session: → succeeded from any other state (a late success
     * after a failure or after we closed the page is still money taken). False when this payment
     * was counted before, so another event of the same payment changes nothing.
     */
    async markSucceeded(id: string, paymentReference: string | null, at: Date): Promise<boolean> {
      const rows = await db
        .update(paymentSessions)
        .set({ status: 'succeeded', paymentReference, updatedAt: at })
        .where(and(eq(paymentSessions.id, id), ne(paymentSessions.status, 'succeeded')))
        .returning({ id: paymentSessions.id });
      return rows.length === 1;
    },
    /** Closes the order's sessions still open (but `except`); the ones this call closed. */
    async expireOpenSessions(orderId: string, at: Date, except?: string): Promise<PaymentSessionRow[]> {
      return db
        .update(paymentSessions)
        .set({ status: 'expired', updatedAt: at })
        .where(
          and(
            eq(paymentSessions.orderId, orderId),
            eq(paymentSessions.status, 'open'),
            ...(except ? [ne(paymentSessions.id, except)] : []),
          ),
        )
        .returning();
    },
    /** A payment its order did not need: to be given back. */
    async markRefundPending(id: string, at: Date): Promise<void> {
      await db
        .update(paymentSessions)
        .set({ refundStatus: 'pending', updatedAt: at })
        .where(eq(paymentSessions.id, id));
    },
    /** pending → refunded with the provider's reference; false when it was recorded before. */
    async markRefunded(id: string, reference: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(paymentSessions)
        .set({ refundStatus: 'refunded', refundReference: reference, refundedAt: at, updatedAt: at })
        .where(and(eq(paymentSessions.id, id), eq(paymentSessions.refundStatus, 'pending')))
        .returning({ id: paymentSessions.id });
      return rows.length === 1;
    },
    /**
     * Locks the session's row until the transaction ends: the operator's refunds of one payment
     * are reserved one after another (in any number of processes).
     */
    async lockSession(id: string): Promise<void> {
      await db
        .select({ id: paymentSessions.id })
        .from(paymentSessions)
        .where(eq(paymentSessions.id, id))
        .for('update');
    },
    /** A whole payment refunded by the operator's refunds: shown as refunded like the automatic one. */
    async markWhollyRefunded(id: string, reference: string, at: Date): Promise<void> {
      await db
        .update(paymentSessions)
        .set({ refundStatus: 'refunded', refundReference: reference, refundedAt: at, updatedAt: at })
        .where(and(eq(paymentSessions.id, id), isNull(paymentSessions.refundStatus)));
    },
    async findRefund(sessionId: string, key: string): Promise<PaymentRefundRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentRefunds)
        .where(and(eq(paymentRefunds.sessionId, sessionId), eq(paymentRefunds.key, key)))
        .limit(1);
      return row;
    },
    /** The operator's refunds of a session, oldest first. */
    async listRefunds(sessionId: string): Promise<PaymentRefundRow[]> {
      return db
        .select()
        .from(paymentRefunds)
        .where(eq(paymentRefunds.sessionId, sessionId))
        .orderBy(paymentRefunds.createdAt);
    },
    async insertRefund(values: typeof paymentRefunds.$inferInsert): Promise<PaymentRefundRow> {
      const [row] = await db.insert(paymentRefunds).values(values).returning();
      if (!row) throw new Error('refund insert returned no row');
      return row;
    },
    /** pending → refunded with the provider's reference; undefined when it was recorded before. */
    async markRefundDone(id: string, reference: string, at: Date): Promise<PaymentRefundRow | undefined> {
      const [row] = await db
        .update(paymentRefunds)
        .set({ status: 'refunded', reference, refundedAt: at })
        .where(and(eq(paymentRefunds.id, id), eq(paymentRefunds.status, 'pending')))
        .returning();
      return row;
    },
    async setRefundCreditNote(id: string, creditNoteId: string): Promise<void> {
      await db.update(paymentRefunds).set({ creditNoteId }).where(eq(paymentRefunds.id, id));
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
    /** Notes on a recorded event why it was not applied. */
    async refuseEvent(provider: string, eventId: string, refusal: string): Promise<void> {
      await db
        .update(paymentEvents)
        .set({ refusal })
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
    },
  };
}

export type PaymentsQueries = ReturnType<typeof createPaymentsQueries>;
