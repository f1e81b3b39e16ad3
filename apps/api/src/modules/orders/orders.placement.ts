// Placing a priced order: the one place where account credit is set aside for an order. Runs
// inside the caller's transaction with the account locked, so two orders made at once cannot
// both take the same credit; the ledger entry itself is written when the order is paid.
import { applyCredit } from '@debesis/pricing';
import type { PriceBreakdownResponse } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { createOrdersQueries, type NewOrderRow, type OrderRow } from './orders.queries.ts';

export type PricedOrder = Omit<
  NewOrderRow,
  'id' | 'amountMinor' | 'creditAppliedMinor' | 'vatRate' | 'status' | 'breakdown'
> & { breakdown: PriceBreakdownResponse };

/** Inserts an order awaiting payment, its total lowered by whatever credit the account has free. */
export async function placePricedOrder(tx: Db, order: PricedOrder): Promise<OrderRow> {
  const credits = createCreditsQueries(tx);
  const orders = createOrdersQueries(tx);
  await credits.lockAccount(order.accountId);
  const free = Math.max(
    0,
    (await credits.balance(order.accountId)) - (await orders.reservedCredit(order.accountId)),
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
}
