// The account's credit as its owner sees it: what is there, what orders awaiting payment have
// set aside, and where it came from; and the ledger's entries, written by other modules' commands
// inside their transactions.
import type { AccountCredit } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import { createCreditsQueries, type CreditsQueries } from './credits.queries.ts';

interface LedgerEntry {
  accountId: string;
  amountMinor: number;
  at: Date;
}

export function createCreditsService(deps: {
  queries: CreditsQueries;
  reserved: (accountId: string) => Promise<number>;
}) {
  return {
    /** What the account's next order may use: the balance less what unpaid orders set aside. */
    async free(accountId: string): Promise<number> {
      const [balance, reserved] = await Promise.all([
        deps.queries.balance(accountId),
        deps.reserved(accountId),
      ]);
      return Math.max(0, balance - reserved);
    },

    async summary(accountId: string): Promise<AccountCredit> {
      const [balance, reserved, entries] = await Promise.all([
        deps.queries.balance(accountId),
        deps.reserved(accountId),
        deps.queries.list(accountId),
      ]);
      return {
        balance,
        reserved: Math.min(reserved, Math.max(0, balance)),
        currency: 'EUR',
        entries: entries.map((entry) => ({
          id: entry.id,
          kind: entry.kind,
          amount: entry.amountMinor,
          service_id: entry.serviceId,
          order_id: entry.orderId,
          plan_change_id: entry.planChangeId,
          created_at: entry.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;

/**
 * The ledger as other modules' commands use it (placing an order, a payment, a plan change):
 * every call runs in the caller's transaction, which `lockAccount` serialises per account.
 */
export const creditsInTransaction = {
  lockAccount: (tx: Tx, accountId: string) => createCreditsQueries(tx).lockAccount(accountId),
  balance: (tx: Tx, accountId: string) => createCreditsQueries(tx).balance(accountId),
  /** The credit a paid order used, once per order. */
  use: (tx: Tx, entry: LedgerEntry & { orderId: string; serviceId: string | null }) =>
    createCreditsQueries(tx).use(entry),
  /** Money that bought nothing (its order was cancelled) kept as credit, once per order. */
  creditPayment: (tx: Tx, entry: LedgerEntry & { orderId: string; serviceId: string | null }) =>
    createCreditsQueries(tx).creditPayment(entry),
  /** A plan change's credit, once per plan change. */
  grant: (tx: Tx, entry: LedgerEntry & { serviceId: string; planChangeId: string }) =>
    createCreditsQueries(tx).grant(entry),
};

export type CreditsInTransaction = typeof creditsInTransaction;
