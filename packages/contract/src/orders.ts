// Orders and payments (spec §3 "Order", §4 order statuses and payment flows, §7 Orders, Payments).
import { z } from 'zod';
import { text } from './strings.ts';
import { calculatePriceRequestSchema, priceBreakdownSchema } from './quotes.ts';
import { serviceNameSchema } from './services.ts';

export const ORDER_STATUSES = ['AWAITING_PAYMENT', 'PAID', 'FAILED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_KINDS = ['new', 'extension', 'plan_change'] as const;

/** Complete when PAID, FAILED or CANCELLED; needs payment when AWAITING_PAYMENT (spec §4). */
export const isOrderComplete = (status: OrderStatus) => status !== 'AWAITING_PAYMENT';
export const orderNeedsPayment = (status: OrderStatus) => status === 'AWAITING_PAYMENT';
export const isOrderSuccessful = (status: OrderStatus) => status === 'PAID';

export const createOrderRequestSchema = calculatePriceRequestSchema.omit({ order_id: true }).extend({
  /** What the new service is called; without it, after the plan (e.g. "MINI 0b7f3c1e"). */
  name: serviceNameSchema.optional(),
});
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

export const orderSchema = z.object({
  id: text(),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  product_id: text(),
  product_name: text(),
  service_id: text().nullable(),
  /** The name a new order's service gets; null: after the plan. */
  service_name: text().nullable(),
  disk_space: z.number().int(),
  users_count: z.number().int(),
  period_id: text(),
  /** What is charged, after account credit and VAT. */
  amount: z.number().int(),
  /** Account credit the order uses, before VAT (also in breakdown.credit_applied). */
  credit_applied: z.number().int(),
  /** The plan change a plan_change order pays for. */
  plan_change_id: text().nullable(),
  currency: z.literal('EUR'),
  breakdown: priceBreakdownSchema,
  error_message: text().nullable(),
  /** JSON text or plain text, as the spec allows. */
  error_details: text().nullable(),
  created_at: text(),
  paid_at: text().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid({ error: 'invalid_format' }) });

/** POST /orders/{id}/process: the workspace's name may still be given (or changed) at checkout. */
export const processOrderRequestSchema = z
  .object({
    name: serviceNameSchema.optional(),
    /** As on POST /payments/session: keep the card for renewals. */
    save_payment_method: z.boolean().optional(),
  })
  .nullish();

/**
 * An order that may still be paid or cancelled (AWAITING_PAYMENT or FAILED), for the lists of
 * open orders on the services and billing pages; `service_name` names the service an extension
 * or a plan change is for.
 */
export const openOrderSchema = orderSchema.extend({ service_name: text().nullable() });
export type OpenOrder = z.infer<typeof openOrderSchema>;
export const OPEN_ORDER_STATUSES = ['AWAITING_PAYMENT', 'FAILED'] as const satisfies readonly OrderStatus[];

/** Whether a workspace of `disk_space` GB can be placed now, asked before paying for it. */
export const orderCapacityQuerySchema = z.object({
  disk_space: z.coerce.number({ error: 'not_integer' }).int('not_integer').min(1).max(1_000_000),
});
export const orderCapacitySchema = z.object({
  disk_space: z.number().int(),
  /** Some online storage node has room for it now; otherwise a paid order waits for resources. */
  fits_now: z.boolean(),
  /** The largest disk (GB) a node could take now; 0 when none can take any. */
  largest_disk_space: z.number().int(),
});
export type OrderCapacity = z.infer<typeof orderCapacitySchema>;

/**
 * POST /payments/session: a page to pay an order (`order_id`), or an owner's unpaid invoice
 * (`invoice_id`: a renewal its kept card did not pay; paying it pays that invoice's order).
 * Exactly one of the two.
 */
export const paymentSessionRequestSchema = z
  .object({
    order_id: z.uuid({ error: 'invalid_format' }).optional(),
    invoice_id: z.uuid({ error: 'invalid_format' }).optional(),
    /** Keep the card for renewals (Billing → Payment method); the card page may still untick it. */
    save_payment_method: z.boolean().default(false),
  })
  .refine((value) => (value.order_id === undefined) !== (value.invoice_id === undefined), {
    message: 'required',
    path: ['order_id'],
  });
export type PaymentSessionRequest = z.input<typeof paymentSessionRequestSchema>;
export const paymentSessionResponseSchema = z.object({ session_id: text(), url: text() });
export type PaymentSessionResponse = z.infer<typeof paymentSessionResponseSchema>;
/**
 * A first attempt to pay an order or a retry of a failed one (POST /orders/{id}/process or
 * /retry-payment, the service page's retry-payment action): they return to different pages.
 */
export const PAYMENT_FLOWS = ['new', 'retry'] as const;
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number];

export const PAYMENT_SESSION_STATUSES = ['open', 'pending', 'succeeded', 'failed', 'expired'] as const;
export const paymentSessionStatusSchema = z.object({
  session_id: text(),
  order_id: text(),
  status: z.enum(PAYMENT_SESSION_STATUSES),
  order_status: z.enum(ORDER_STATUSES),
  amount: z.number().int(),
  currency: z.literal('EUR'),
  service_id: text().nullable(),
  error_message: text().nullable(),
  error_details: text().nullable(),
});
export type PaymentSessionStatus = z.infer<typeof paymentSessionStatusSchema>;
export const paymentSessionParamsSchema = z.object({
  id: text().regex(/^ps_[A-Za-z0-9_-]{10,64}$/, 'invalid_format'),
});

/** Test cards of the sandbox provider. */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  pending: '4000000000000259',
  /** Pays and is kept fine, but every later charge without the customer (off-session) declines. */
  declinesOffSession: '4000000000000341',
  /** Asks the customer to authenticate: on the page they do; an off-session charge cannot. */
  authenticationRequired: '4000002760003184',
} as const;

export const extendServiceRequestSchema = z.object({
  /** Billing period to extend by; the service's own period when left out. */
  period_id: text().min(1).max(20).optional(),
});
export const serviceIdParamsSchema = z.object({ id: z.uuid({ error: 'invalid_format' }) });

/** The plan a visitor chose before signing in (spec §3 "Pending-plan check payload"). */
export const pendingPlanRequestSchema = createOrderRequestSchema.extend({
  currency: z.literal('EUR').default('EUR'),
  company_data: z
    .object({
      name: text().max(200),
      code: text().max(50),
      vat_number: text().max(20).optional(),
      address: text().max(300).optional(),
      country: text().max(2).optional(),
    })
    .optional(),
});
export const pendingPlanResponseSchema = z.object({
  /** order_created: a new order awaits payment; order_exists: the same plan already awaited payment. */
  status: z.enum(['order_created', 'order_exists']),
  order_id: text(),
  redirect_url: text(),
});
