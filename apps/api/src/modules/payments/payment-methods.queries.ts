// The only SQL on kept cards, the accounts' customers at the providers and the card forms.
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { paymentCustomers, paymentMethodSetups, paymentMethods } from './payment-methods.table.ts';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
export type PaymentMethodSetupRow = typeof paymentMethodSetups.$inferSelect;
type Provider = PaymentMethodRow['provider'];

export function createPaymentMethodsQueries(db: Executor) {
  return {
    async findCustomer(accountId: string, provider: Provider): Promise<string | undefined> {
      const [row] = await db
        .select({ customerRef: paymentCustomers.customerRef })
        .from(paymentCustomers)
        .where(and(eq(paymentCustomers.accountId, accountId), eq(paymentCustomers.provider, provider)))
        .limit(1);
      return row?.customerRef;
    },
    /** Stores the account's customer unless one is stored already; the one that stands. */
    async insertCustomer(
      accountId: string,
      provider: Provider,
      customerRef: string,
      at: Date,
    ): Promise<string> {
      await db
        .insert(paymentCustomers)
        .values({ accountId, provider, customerRef, createdAt: at })
        .onConflictDoNothing();
      const [row] = await db
        .select({ customerRef: paymentCustomers.customerRef })
        .from(paymentCustomers)
        .where(and(eq(paymentCustomers.accountId, accountId), eq(paymentCustomers.provider, provider)));
      if (!row) throw new Error('payment customer insert left no row');
      return row.customerRef;
    },
    /** Whose account a provider's customer is. */
    async accountOfCustomer(provider: Provider, customerRef: string): Promise<string | undefined> {
      const [row] = await db
        .select({ accountId: paymentCustomers.accountId })
        .from(paymentCustomers)
        .where(and(eq(paymentCustomers.provider, provider), eq(paymentCustomers.customerRef, customerRef)))
        .limit(1);
      return row?.accountId;
    },
    async findForAccount(accountId: string): Promise<PaymentMethodRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.accountId, accountId))
        .limit(1);
      return row;
    },
    /**
     * Keeps `values` as the account's card unless it keeps a newer one (attached later); the row
     * kept, and the card it replaced (to detach), if any.
     */
    async keep(
      values: Omit<typeof paymentMethods.$inferInsert, 'id' | 'expiryMailedAt'> & { createdAt: Date },
    ): Promise<
      | { outcome: 'kept'; kept: PaymentMethodRow; replaced: PaymentMethodRow | null }
      | { outcome: 'same' | 'stale' }
    > {
      // The row before, locked: two cards attached at once replace one another in order.
      const [before] = await db
        .select()
        .from(paymentMethods)
        .where(eq(paymentMethods.accountId, values.accountId))
        .for('update');
      if (before?.methodRef === values.methodRef && before.provider === values.provider) {
        return { outcome: 'same' };
      }
      const [kept] = await db
        .insert(paymentMethods)
        .values(values)
        .onConflictDoUpdate({
          target: paymentMethods.accountId,
          set: {
            id: sql`gen_random_uuid()`,
            provider: values.provider,
            customerRef: values.customerRef,
            methodRef: values.methodRef,
            brand: values.brand,
            last4: values.last4,
            expMonth: values.expMonth,
            expYear: values.expYear,
            createdAt: values.createdAt,
            expiryMailedAt: null,
          },
          setWhere: lte(paymentMethods.createdAt, values.createdAt),
        })
        .returning();
      // No row: the account keeps a card attached after this one, which stays.
      if (!kept) return { outcome: 'stale' };
      return { outcome: 'kept', kept, replaced: before ?? null };
    },
    /** Removes the account's card; the row removed, if there was one. */
    async remove(accountId: string): Promise<PaymentMethodRow | undefined> {
      const [row] = await db
        .delete(paymentMethods)
        .where(eq(paymentMethods.accountId, accountId))
        .returning();
      return row;
    },
    /** Removes the card the provider knows as `methodRef`, whichever account kept it. */
    async removeByReference(provider: Provider, methodRef: string): Promise<PaymentMethodRow | undefined> {
      const [row] = await db
        .delete(paymentMethods)
        .where(and(eq(paymentMethods.provider, provider), eq(paymentMethods.methodRef, methodRef)))
        .returning();
      return row;
    },
    /**
     * Cards whose expiry month is `monthIndex` (year × 12 + month − 1) or earlier and whose owner
     * was not mailed about it yet.
     */
    async expiringUnmailed(monthIndex: number, limit: number): Promise<PaymentMethodRow[]> {
      return db
        .select()
        .from(paymentMethods)
        .where(
          and(
            isNull(paymentMethods.expiryMailedAt),
            lte(sql`${paymentMethods.expYear} * 12 + ${paymentMethods.expMonth} - 1`, monthIndex),
          ),
        )
        .orderBy(paymentMethods.expYear, paymentMethods.expMonth)
        .limit(limit);
    },
    /** Notes the expiry mail of this card (this very card: a replaced one's id is gone). */
    async markExpiryMailed(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(paymentMethods)
        .set({ expiryMailedAt: at })
        .where(and(eq(paymentMethods.id, id), isNull(paymentMethods.expiryMailedAt)))
        .returning({ id: paymentMethods.id });
      return rows.length === 1;
    },
    async insertSetup(values: typeof paymentMethodSetups.$inferInsert): Promise<void> {
      await db.insert(paymentMethodSetups).values(values);
    },
    async findSetup(id: string): Promise<PaymentMethodSetupRow | undefined> {
      const [row] = await db
        .select()
        .from(paymentMethodSetups)
        .where(eq(paymentMethodSetups.id, id))
        .limit(1);
      return row;
    },
    /** open → completed or failed; false when it was not open any more. */
    async closeSetup(id: string, status: 'completed' | 'failed', at: Date): Promise<boolean> {
      const rows = await db
        .update(paymentMethodSetups)
        .set({ status, updatedAt: at })
        .where(and(eq(paymentMethodSetups.id, id), eq(paymentMethodSetups.status, 'open')))
        .returning({ id: paymentMethodSetups.id });
      return rows.length === 1;
    },
  };
}

export type PaymentMethodsQueries = ReturnType<typeof createPaymentMethodsQueries>;
