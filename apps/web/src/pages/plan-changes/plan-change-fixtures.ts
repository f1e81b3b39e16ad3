// Test data for the plans pages and the plan-change payment page: quotes and changes priced by
// @debesis/pricing the way the API prices them (a MINI → OPTIMIZED upgrade with 200 of 365 days
// left, and the way back down).
import type { Order, PlanChange, PlanChangeQuote, PlanConfiguration } from '@debesis/contract';
import { applyCredit, calculatePrice, percentOf, prorate } from '@debesis/pricing';
import { http, HttpResponse } from 'msw';
import { makeOrder, ORDER_ID } from '../../payments/payment-fixtures.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { productById } from '../plans/plans-fixtures.ts';

export const PLAN_CHANGE_ID = '3e9a1c55-8b2d-4f0e-a6c7-1d2e3f4a5b6c';
const REMAINING_DAYS = 200;
const TOTAL_DAYS = 365;

export function configuration(productId: string, disk: number, users: number): PlanConfiguration {
  const product = productById(productId);
  const price = calculatePrice(product, { disk_space: disk, users_count: users, period_id: '12m' }, null);
  return {
    product_id: productId,
    product_name: product.name,
    disk_space: disk,
    bandwidth: disk * 2,
    users_count: users,
    period_id: '12m',
    months: 12,
    period_price: price.subtotal,
  };
}

export const MINI = configuration('mini', 50, 5);
export const OPTIMIZED = configuration('optimized', 500, 10);

/** The quote of a change from `current` to `target`, with `creditBalance` of free credit. */
export function makeQuote(
  current: PlanConfiguration = MINI,
  target: PlanConfiguration = OPTIMIZED,
  creditBalance = 0,
): PlanChangeQuote {
  const currentValue = prorate(current.period_price, REMAINING_DAYS, TOTAL_DAYS);
  const newValue = prorate(target.period_price, REMAINING_DAYS, TOTAL_DAYS);
  const difference = newValue - currentValue;
  const chargeable = Math.max(0, difference);
  const vatAmount = percentOf(chargeable, 21);
  const charge = applyCredit(
    { subtotal: chargeable, vat_rate: 21, vat_amount: vatAmount, total: chargeable + vatAmount },
    creditBalance,
  );
  const direction = difference > 0 ? 'upgrade' : difference < 0 ? 'downgrade' : 'same';
  return {
    service_id: SERVICE_ID,
    current,
    target,
    direction,
    valid_until: '2027-01-15T09:00:00.000Z',
    remaining_days: REMAINING_DAYS,
    total_days: TOTAL_DAYS,
    current_plan_value: currentValue,
    new_plan_value: newValue,
    prorated_difference: difference,
    charge: {
      ...charge,
      currency: 'EUR',
      reverse_charge: false,
      outside_scope: false,
      legal_note_key: null,
    },
    credit: Math.max(0, -difference),
    credit_balance: creditBalance,
    currency: 'EUR',
    requires_confirmation: direction === 'downgrade',
    room: null,
  };
}

export function makePlanChange(overrides: Partial<PlanChange> = {}, quote = makeQuote()): PlanChange {
  const paying = quote.prorated_difference > 0;
  return {
    ...quote,
    id: PLAN_CHANGE_ID,
    status: paying ? 'awaiting_payment' : 'applied',
    order_id: paying ? ORDER_ID : null,
    redirect_url: paying ? `/dashboard/payments/plan-change/${PLAN_CHANGE_ID}/payment` : '/dashboard/plans',
    created_at: '2026-06-29T09:00:00.000Z',
    applied_at: paying ? null : '2026-06-29T09:00:00.000Z',
    ...overrides,
  };
}

/** The order paying `change`, with `credit` of account credit taken off before VAT. */
export function planChangeOrder(change: PlanChange, credit = 0, overrides: Partial<Order> = {}): Order {
  const base = makeOrder();
  const subtotal = change.prorated_difference;
  const priced = applyCredit(
    {
      subtotal,
      vat_rate: 21,
      vat_amount: percentOf(subtotal, 21),
      total: subtotal + percentOf(subtotal, 21),
    },
    credit,
  );
  return makeOrder({
    kind: 'plan_change',
    plan_change_id: change.id,
    service_id: change.service_id,
    product_id: change.target.product_id,
    product_name: change.target.product_name,
    disk_space: change.target.disk_space,
    users_count: change.target.users_count,
    amount: priced.total,
    credit_applied: priced.credit_applied,
    breakdown: {
      ...base.breakdown,
      months: 0,
      base_price: subtotal,
      option_costs: 0,
      period_subtotal: subtotal,
      discount_rate: 0,
      period_discount: 0,
      subtotal,
      credit_applied: priced.credit_applied,
      vat_amount: priced.vat_amount,
      total: priced.total,
      lines: [],
    },
    ...overrides,
  });
}

/** GET /account/credit with `balance` (and `reserved` of it set aside). */
export function creditHandler(balance = 0, reserved = 0) {
  return http.get('/api/v1/account/credit', () =>
    HttpResponse.json({ balance, reserved, currency: 'EUR', entries: [] }),
  );
}
