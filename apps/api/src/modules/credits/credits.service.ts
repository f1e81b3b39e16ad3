// The account's credit as its owner sees it: what is there, what orders awaiting payment have
// set aside, and where it came from.
import type { AccountCredit } from '@debesis/contract';
import type { CreditsQueries } from './credits.queries.ts';

export function createCreditsService(deps: {
  queries: CreditsQueries;
  reserved: (accountId: string) => Promise<number>;
}) {
  return {
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
