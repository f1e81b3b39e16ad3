// Shared test data for the payment pages: a selected plan, an order and a session status priced
// by @debesis/pricing as the API does.
import type { OpenOrder, Order, OrderCapacity, PaymentSessionStatus } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { calculatePrice, initialCalculation, vatFor } from '@debesis/pricing';
import { productById } from '../pages/plans/plans-fixtures.ts';
import type { SelectedPlan } from '../plans/selected-plan.ts';

export const ORDER_ID = '0b7f3c1e-5d2a-4c7e-9a51-3f6e2b8d9c10';
export const SESSION_ID = 'ps_test_session_0001';

const mini = productById('mini');
const selection = { disk_space: 50, users_count: 5, period_id: '12m' };

export function miniBreakdown(vat = vatFor({ country: 'LT', isBusiness: false, vatNumberValid: false })) {
  return { ...calculatePrice(mini, selection, vat), vat_number_valid: null };
}

export function makeSelectedPlan(): SelectedPlan {
  return {
    product_id: 'mini',
    ...selection,
    bandwidth: 100,
    selected_options: [],
    product_name: 'MINI — 50 GB Storage, 5 Users',
    period_name: '12 months',
    initial_calculation: initialCalculation(calculatePrice(mini, selection, null)),
  };
}

export function makeOrder(overrides: Partial<Order> = {}): Order {
  const breakdown = miniBreakdown();
  return {
    id: ORDER_ID,
    kind: 'new',
    status: 'AWAITING_PAYMENT',
    product_id: 'mini',
    product_name: 'MINI',
    service_id: null,
    service_name: null,
    disk_space: 50,
    users_count: 5,
    period_id: '12m',
    amount: breakdown.total,
    credit_applied: 0,
    plan_change_id: null,
    currency: 'EUR',
    breakdown,
    error_message: null,
    error_details: null,
    created_at: '2026-01-15T09:00:00.000Z',
    paid_at: null,
    ...overrides,
  };
}

export function makeSessionStatus(overrides: Partial<PaymentSessionStatus> = {}): PaymentSessionStatus {
  return {
    session_id: SESSION_ID,
    order_id: ORDER_ID,
    status: 'open',
    order_status: 'AWAITING_PAYMENT',
    amount: miniBreakdown().total,
    currency: 'EUR',
    service_id: null,
    error_message: null,
    error_details: null,
    ...overrides,
  };
}

export function makeOpenOrder(overrides: Partial<OpenOrder> = {}): OpenOrder {
  return { ...makeOrder(), service_name: null, ...overrides };
}

/** GET /orders/capacity: room for any size by default, or the answer of a full cluster. */
export function capacityHandler(room: { largest: number } = { largest: 16_384 }, asked: number[] = []) {
  return http.get('/api/v1/orders/capacity', ({ request }) => {
    const disk = Number(new URL(request.url).searchParams.get('disk_space'));
    asked.push(disk);
    const answer: OrderCapacity = {
      disk_space: disk,
      fits_now: disk <= room.largest,
      largest_disk_space: room.largest,
    };
    return HttpResponse.json(answer);
  });
}
