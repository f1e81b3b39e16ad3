// Plan changes and account credit (spec §2 dashboard plans/change, §3 plan-change breakdown,
// §5 plan-change rules). The routes are not in the spec; they are ours:
//   POST /api/v1/plan-changes/quote   what a change would cost now (nothing is stored);
//   POST /api/v1/plan-changes/        make the change: an upgrade waits for its payment, a
//                                     downgrade (confirmed) or an equal-price change applies now;
//   GET  /api/v1/plan-changes/{id}    one change, for its payment and completion pages;
//   GET  /api/v1/account/credit       the account's credit and its history.
import { z } from 'zod';
import { text } from './strings.ts';
import { calculatePriceRequestSchema, priceBreakdownSchema } from './quotes.ts';

export const PLAN_CHANGE_DIRECTIONS = ['upgrade', 'downgrade', 'same'] as const;
export type PlanChangeDirection = (typeof PLAN_CHANGE_DIRECTIONS)[number];

/**
 * awaiting_payment: an upgrade with its order; applied: the service runs the new plan;
 * awaiting_room: paid, but its workspace's node has no room for the larger disk yet (the customer
 * chose to pay and wait, or another change took the room first): applied, oldest first, as soon
 * as the node has room, by the placement retry job. It is never moved to another node (moving a
 * workspace is not automated).
 */
export const PLAN_CHANGE_STATUSES = ['awaiting_payment', 'applied', 'cancelled', 'awaiting_room'] as const;
export type PlanChangeStatus = (typeof PLAN_CHANGE_STATUSES)[number];

export const planChangeQuoteRequestSchema = z.object({
  service_id: z.uuid({ error: 'invalid_format' }),
  product_id: calculatePriceRequestSchema.shape.product_id,
  disk_space: calculatePriceRequestSchema.shape.disk_space,
  users_count: calculatePriceRequestSchema.shape.users_count,
  selected_options: calculatePriceRequestSchema.shape.selected_options,
});
export type PlanChangeQuoteRequest = z.infer<typeof planChangeQuoteRequestSchema>;

export const planChangeRequestSchema = planChangeQuoteRequestSchema.extend({
  /** A downgrade needs it: the customer confirms no credit is given if they upgrade back later. */
  confirm_downgrade: z.boolean().default(false),
  /**
   * A larger disk than the workspace's node has room for now is refused (`node_room_exceeded`)
   * unless the customer chose to pay and wait for room: the change then waits (`awaiting_room`).
   */
  wait_for_room: z.boolean().default(false),
});
export type PlanChangeRequest = z.input<typeof planChangeRequestSchema>;

export const planConfigurationSchema = z.object({
  product_id: text(),
  product_name: text(),
  disk_space: z.number().int(),
  bandwidth: z.number().int(),
  users_count: z.number().int(),
  period_id: text(),
  months: z.number().int(),
  /** The configuration's price for one billing period, after the period discount, before VAT. */
  period_price: z.number().int(),
});
export type PlanConfiguration = z.infer<typeof planConfigurationSchema>;

/**
 * Room on the workspace's node for a larger disk, as the quote found it (a read, not a
 * reservation: the payment takes the room under placement's lock, or the change waits).
 */
export const planChangeRoomSchema = z.object({
  /** The node has room for the target disk now. */
  fits_now: z.boolean(),
  /** GB more than the current disk the node can take now (whole GB, 0 when none). */
  room_gb: z.number().int(),
  /** The largest disk of the target plan that fits now; null when none of its sizes does. */
  largest_disk_space: z.number().int().nullable(),
});
export type PlanChangeRoom = z.infer<typeof planChangeRoomSchema>;

export const planChangeQuoteSchema = z.object({
  service_id: text(),
  current: planConfigurationSchema,
  target: planConfigurationSchema,
  direction: z.enum(PLAN_CHANGE_DIRECTIONS),
  /** The paid time the change applies to: from the start of the paid span to valid_until. */
  valid_until: text(),
  remaining_days: z.number().int(),
  total_days: z.number().int(),
  /** Value of the remaining days on the current plan, before VAT. */
  current_plan_value: z.number().int(),
  /** Price of the remaining days on the new plan, before VAT. */
  new_plan_value: z.number().int(),
  /** new − current: positive is charged, negative becomes credit. */
  prorated_difference: z.number().int(),
  /** What paying now costs: the difference with the account's credit and VAT applied. */
  charge: priceBreakdownSchema.pick({
    subtotal: true,
    credit_applied: true,
    vat_rate: true,
    vat_amount: true,
    total: true,
    currency: true,
    reverse_charge: true,
    outside_scope: true,
    legal_note_key: true,
  }),
  /** Account credit a downgrade adds (before VAT); never a cash refund. */
  credit: z.number().int(),
  /** Credit the account has now, before this change. */
  credit_balance: z.number().int(),
  currency: z.literal('EUR'),
  requires_confirmation: z.boolean(),
  /**
   * For a change that grows the disk of a workspace already on a node: whether that node has
   * room. null when the disk does not grow or the workspace has no node yet (placement decides).
   */
  room: planChangeRoomSchema.nullable(),
});
export type PlanChangeQuote = z.infer<typeof planChangeQuoteSchema>;

export const planChangeSchema = planChangeQuoteSchema.extend({
  id: text(),
  status: z.enum(PLAN_CHANGE_STATUSES),
  /** The order paying an upgrade; null when nothing had to be paid. */
  order_id: text().nullable(),
  /** Where the web app goes next: the payment page of an upgrade, else the plans page. */
  redirect_url: text(),
  created_at: text(),
  applied_at: text().nullable(),
});
export type PlanChange = z.infer<typeof planChangeSchema>;

export const planChangeIdParamsSchema = z.object({ id: z.uuid({ error: 'invalid_format' }) });

export const CREDIT_ENTRY_KINDS = ['downgrade', 'order', 'payment'] as const;
export const accountCreditSchema = z.object({
  /** Minor units before VAT, taken off the next order's subtotal. */
  balance: z.number().int(),
  /** Credit set aside for orders that still await payment. */
  reserved: z.number().int(),
  currency: z.literal('EUR'),
  entries: z.array(
    z.object({
      id: text(),
      kind: z.enum(CREDIT_ENTRY_KINDS),
      /** Positive: credit given; negative: credit used. */
      amount: z.number().int(),
      service_id: text().nullable(),
      order_id: text().nullable(),
      plan_change_id: text().nullable(),
      created_at: text(),
    }),
  ),
});
export type AccountCredit = z.infer<typeof accountCreditSchema>;
