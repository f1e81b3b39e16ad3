// The order and payment calls of spec §7 as the payment pages use them, and the timing of the
// completion pages' polling.
import {
  openOrderSchema,
  orderCapacitySchema,
  orderSchema,
  paymentSessionResponseSchema,
  paymentSessionStatusSchema,
  type CreateOrderRequest,
  type OpenOrder,
  type Order,
  type OrderCapacity,
  type PaymentSessionStatus,
} from '@debesis/contract';
import { z } from 'zod';
import { api } from '../api/client.ts';

export { COMPLETION_POLL_MS, COMPLETION_TIMEOUT_MS } from './completion-timing.ts';

const orderPath = (id: string) => `/api/v1/orders/${encodeURIComponent(id)}`;

export const createOrder = (body: CreateOrderRequest): Promise<Order> =>
  api.post('/api/v1/orders/', body, orderSchema);

export const getOrder = (id: string): Promise<Order> => api.get(orderPath(id), orderSchema);

export const OPEN_ORDERS_QUERY_KEY = ['orders', 'open'] as const;

/** The account's orders still to pay or cancel (AWAITING_PAYMENT, FAILED). */
export const listOpenOrders = (): Promise<OpenOrder[]> =>
  api.get('/api/v1/orders/open', z.array(openOrderSchema));

/** Cancels an unpaid order; the credit it set aside is free again. */
export const cancelOrder = (id: string): Promise<Order> =>
  api.post(`${orderPath(id)}/cancel`, {}, orderSchema);

/** Whether a workspace of this size can be placed now (asked before paying for it). */
export const getOrderCapacity = (diskSpace: number): Promise<OrderCapacity> =>
  api.get(`/api/v1/orders/capacity?disk_space=${encodeURIComponent(diskSpace)}`, orderCapacitySchema);

/** Opens a payment session for an order awaiting payment (`save_payment_method`: keep the card). */
export const processOrder = (id: string, body: { name?: string; save_payment_method?: boolean } = {}) =>
  api.post(`${orderPath(id)}/process`, body, paymentSessionResponseSchema);

/** Reopens a FAILED order and opens a new payment session for it. */
export const retryOrderPayment = (id: string) =>
  api.post(`${orderPath(id)}/retry-payment`, {}, paymentSessionResponseSchema);

/** Orders another billing period of a service (an extension order awaiting payment). */
export const extendService = (serviceId: string, periodId: string): Promise<Order> =>
  api.post(
    `/api/v1/orders/service/${encodeURIComponent(serviceId)}/extend`,
    { period_id: periodId },
    orderSchema,
  );

export const getPaymentSessionStatus = (sessionId: string): Promise<PaymentSessionStatus> =>
  api.get(
    `/api/v1/payments/session/${encodeURIComponent(sessionId)}/status`,
    paymentSessionStatusSchema,
    // Every poll must reach the server; a merged request would answer with an old status.
    { signal: new AbortController().signal },
  );

/** Sends the browser to the payment provider's hosted card page. A seam for tests. */
export const providerNavigation = {
  open(url: string): void {
    window.location.assign(url);
  },
};

/** The pages that take a payment, per flow. */
export const paymentPagePaths = {
  newFromPlan: '/dashboard/payments/new/payment',
  order: (orderId: string) => `/dashboard/payments/new/${encodeURIComponent(orderId)}/payment`,
  retry: (orderId: string) => `/dashboard/payments/retry/${encodeURIComponent(orderId)}/payment`,
  planChange: (planChangeId: string) =>
    `/dashboard/payments/plan-change/${encodeURIComponent(planChangeId)}/payment`,
  extend: (serviceId: string) => `/dashboard/payments/extend/${encodeURIComponent(serviceId)}/payment`,
};
