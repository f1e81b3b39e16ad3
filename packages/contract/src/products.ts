// The catalogue (spec accounts-ordering-billing §3 "Product"). Money is an integer of minor units
// (cents) with its currency; the web app divides by 100 only to display it.
import { z } from 'zod';
import { text } from './strings.ts';

export const OPTION_TYPES = ['disk_space', 'users'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

export const productOptionSchema = z.object({
  type: z.enum(OPTION_TYPES),
  /** Size of one unit: GB per disk block, users per user unit. */
  value: z.number().int().positive(),
  /** Monthly price of one unit, minor units. */
  price: z.number().int().nonnegative(),
  /** Extra units chosen by default. */
  default: z.number().int().nonnegative(),
});

export const productPeriodSchema = z.object({
  id: text(),
  months: z.number().int().positive(),
  /** Percent off the period subtotal. */
  discount: z.number().nonnegative().max(100),
  default: z.boolean(),
});

/**
 * A plan's address. `dedicated`: the workspace's own address, every service answers on it.
 * `nat` (Starter): no address a customer reaches directly; the workspace's VPN is the one door
 * and every other service answers on the VPN side only (see workspaceDesiredStateSchema).
 */
export const planAddressKindSchema = z.enum(['nat', 'dedicated']);
export type PlanAddressKind = z.infer<typeof planAddressKindSchema>;

export const productSchema = z.object({
  id: text(),
  name: text(),
  /** Base monthly price, minor units. */
  price: z.number().int().nonnegative(),
  currency: z.literal('EUR'),
  is_active: z.boolean(),
  /** Spelled as the spec spells it. */
  is_recuring: z.boolean(),
  /** Included disk, GB. */
  disk_space: z.number().int().positive(),
  allowed_users: z.number().int().positive(),
  address: planAddressKindSchema,
  support: z.enum(['email', 'priority', '24/7']),
  options: z.array(productOptionSchema),
  periods: z.array(productPeriodSchema),
});
export type Product = z.infer<typeof productSchema>;

export const productListQuerySchema = z.object({
  is_active_only: z
    .enum(['true', 'false'], { error: 'invalid_value' })
    .default('true')
    .transform((value) => value === 'true'),
});

export const productIdParamsSchema = z.object({
  id: text().regex(/^[a-z0-9-]{1,40}$/, 'invalid_format'),
});

/** What the plan picker needs to offer valid choices for one product. */
export const productConfigSchema = z.object({
  product_id: text(),
  currency: z.literal('EUR'),
  disk_space: z.object({
    min: z.number().int(),
    max: z.number().int(),
    step: z.number().int(),
    default: z.number().int(),
  }),
  users: z.object({
    min: z.number().int(),
    max: z.number().int(),
    step: z.number().int(),
    default: z.number().int(),
  }),
  periods: z.array(productPeriodSchema),
  default_period_id: text().nullable(),
  /** Bandwidth is twice the disk space (spec §9). */
  bandwidth_multiplier: z.literal(2),
});
export type ProductConfig = z.infer<typeof productConfigSchema>;
