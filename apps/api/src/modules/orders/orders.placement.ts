// Placing a priced order: the one place where account credit is set aside for an order. Runs
// inside the caller's transaction with the account locked, so two orders made at once cannot
// both take the same credit; the ledger entry itself is written when the order is paid.
import { applyCredit } from '@debesis/pricing';
import type { PriceBreakdownResponse } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { CreditsInTransaction } from '../credits/credits.service.ts';
import { createOrdersQueries, type NewOrderRow, type OrderRow } from './orders.queries.ts';

export type PricedOrder = Omit<
  NewOrderRow,
  'id' | 'amountMinor' | 'creditAppliedMinor' | 'vatRate' | 'status' | 'breakdown'
> & { breakdown: PriceBreakdownResponse };

export type PlacePricedOrder = (tx: Tx, order: PricedOrder) => Promise<OrderRow>;

export function createOrderPlacement(deps: {
  credits: Pick<CreditsInTransaction, 'lockAccount' | 'balance'>;
}): PlacePricedOrder {
  /** Inserts an order awaiting payment, its total lowered by whatever credit the account has free. */
  return async function placePricedOrder(tx, order) {
    const orders = createOrdersQueries(tx);
    await deps.credits.lockAccount(tx, order.accountId);
    const free = Math.max(
      0,
      (await deps.credits.balance(tx, order.accountId)) - (await orders.reservedCredit(order.accountId)),
    );
    const breakdown = applyCredit(order.breakdown, free);
    return orders.insert({
      ...order,
      status: 'AWAITING_PAYMENT',
      breakdown,
      amountMinor: breakdown.total,
      creditAppliedMinor: breakdown.credit_applied,
      vatRate: breakdown.vat_rate,
    });
  };
}
