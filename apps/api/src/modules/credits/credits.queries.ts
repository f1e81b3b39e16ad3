// The only SQL on the account-credit ledger.
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { creditEntries } from './credits.table.ts';

export type CreditEntryRow = typeof creditEntries.$inferSelect;

export function createCreditsQueries(db: Executor) {
  /** A ledger entry, written once: a second one with the same key (its unique index) is ignored. */
  const addOnce = async (entry: typeof creditEntries.$inferInsert): Promise<void> => {
    await db.insert(creditEntries).values(entry).onConflictDoNothing();
  };
  return {
    async balance(accountId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | null>`sum(${creditEntries.amountMinor})` })
        .from(creditEntries)
        .where(eq(creditEntries.accountId, accountId));
      return Number(row?.total ?? 0);
    },
    async list(accountId: string): Promise<CreditEntryRow[]> {
      return db
        .select()
        .from(creditEntries)
        .where(eq(creditEntries.accountId, accountId))
        .orderBy(desc(creditEntries.createdAt))
        .limit(200);
    },
    /** The credit of a downgrade, once per plan change. */
    async grant(values: {
      accountId: string;
      amountMinor: number;
      serviceId: string;
      planChangeId: string;
      at: Date;
    }): Promise<void> {
      await addOnce({
        accountId: values.accountId,
        kind: 'downgrade',
        amountMinor: values.amountMinor,
        serviceId: values.serviceId,
        planChangeId: values.planChangeId,
        createdAt: values.at,
      });
    },
    /** The credit a paid order used, once per order. */
    async use(values: {
      accountId: string;
      amountMinor: number;
      orderId: string;
      serviceId: string | null;
      at: Date;
    }) {
      await addOnce({
        accountId: values.accountId,
        kind: 'order',
        amountMinor: -values.amountMinor,
        orderId: values.orderId,
        serviceId: values.serviceId,
        createdAt: values.at,
      });
    },
    /**
     * Money taken for an order that was cancelled before it was paid, before VAT: credit instead
     * of the purchase, once per order (such an order uses no credit, so its key is free).
     */
    async creditPayment(values: {
      accountId: string;
      amountMinor: number;
      orderId: string;
      serviceId: string | null;
      at: Date;
    }): Promise<void> {
      await addOnce({
        accountId: values.accountId,
        kind: 'payment',
        amountMinor: values.amountMinor,
        orderId: values.orderId,
        serviceId: values.serviceId,
        createdAt: values.at,
      });
    },
    /**
     * Serialises credit decisions of one account until the transaction ends, so two orders made
     * at once cannot both set aside the same credit.
     */
    async lockAccount(accountId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${accountId}))`);
    },
  };
}

export type CreditsQueries = ReturnType<typeof createCreditsQueries>;
