// Price and VAT quotes (spec §3 "Price calculation request", "VAT calculation request",
// "Price breakdown"). All amounts are integer minor units (cents).
import { z } from 'zod';
import { text } from './strings.ts';
import { countryCodeSchema } from './accounts.ts';
import { OPTION_TYPES } from './products.ts';

export const selectedOptionSchema = z.object({
  type: z.enum(OPTION_TYPES),
  value: z.number().int().nonnegative(),
});

export const calculatePriceRequestSchema = z.object({
  product_id: text({ error: 'required' }).regex(/^[a-z0-9-]{1,40}$/, 'invalid_format'),
  /** Total disk, GB. */
  disk_space: z.number({ error: 'required' }).int('invalid_type').positive(),
  /** Total users. */
  users_count: z.number({ error: 'required' }).int('invalid_type').positive(),
  selected_options: z.array(selectedOptionSchema).max(10).optional(),
  period_id: text({ error: 'required' }).min(1, 'required').max(20),
  order_id: text().max(64).optional(),
  vat_number: text().max(20).optional(),
});
export type CalculatePriceRequest = z.infer<typeof calculatePriceRequestSchema>;

export const calculatePriceQuerySchema = z.object({
  /**
   * Customer country; without it the answer is a preview before VAT. Ignored with a session: the
   * account's evidence decides, as for its orders (see `vat_evidence`).
   */
  country: countryCodeSchema.optional(),
  is_business: z
    .enum(['true', 'false'], { error: 'invalid_value' })
    .default('false')
    .transform((value) => value === 'true'),
});

const vatReasonSchema = z.enum(['domestic', 'eu_consumer', 'eu_business_reverse_charge', 'outside_eu']);

/**
 * How the VAT number was checked: `format` (format and checksum only: VIES is not configured, or
 * its answer could not change the VAT, or the number already failed), `vies_valid` /
 * `vies_invalid` (VIES's answer, possibly cached), `vies_unavailable` (VIES could not answer and
 * had no recent answer: the number is unverified, so no reverse charge is applied). Absent in
 * answers older than the VIES check; null when no number was given.
 */
export const vatNumberCheckSchema = z
  .enum(['format', 'vies_valid', 'vies_invalid', 'vies_unavailable'])
  .nullable()
  .optional();
export type VatNumberCheckKind = NonNullable<z.infer<typeof vatNumberCheckSchema>>;

/**
 * VIES's consultation number for the answer behind `vies_valid` (asked with the seller's VAT
 * number as requester): the proof, kept in the order's frozen breakdown, that the number was
 * checked before a reverse charge. Null or absent otherwise.
 */
export const viesConsultationNumberSchema = text().nullable().optional();

/**
 * Where the VAT of a signed-in customer's price comes from, frozen in an order's breakdown so it
 * can be audited (absent in anonymous previews and in orders older than it). `country` is the
 * place of supply the VAT follows. `basis`: `vat_number` (a business's valid VAT number: its
 * company's country, reverse charge rules), `confirmed` (two pieces agree), `contradicted` (they
 * disagree: the country with the higher VAT was taken), `single` (only one piece was known). The
 * pieces: the saved billing address's country, the country of the IP address the request came
 * from (null when unknown: private, loopback, not listed) and the country the account registered
 * with (a profile change does not move it). `relied_on` names the pieces compared, the claim first.
 */
export const vatEvidenceSchema = z.object({
  country: text(),
  basis: z.enum(['vat_number', 'confirmed', 'contradicted', 'single']),
  billing_country: text().nullable(),
  ip_country: text().nullable(),
  account_country: text().nullable(),
  relied_on: z.array(z.enum(['billing_address', 'ip_address', 'account_country', 'vat_number'])),
});
export type VatEvidence = z.infer<typeof vatEvidenceSchema>;

export const breakdownLineSchema = z.object({
  kind: z.enum(['base', ...OPTION_TYPES]),
  quantity: z.number().int(),
  unit_size: z.number().int(),
  unit_price: z.number().int(),
  monthly: z.number().int(),
  months: z.number().int(),
  amount: z.number().int(),
});

export const priceBreakdownSchema = z.object({
  product_id: text(),
  period_id: text(),
  months: z.number().int(),
  disk_space: z.number().int(),
  bandwidth: z.number().int(),
  users_count: z.number().int(),
  base_price: z.number().int(),
  option_costs: z.number().int(),
  period_subtotal: z.number().int(),
  discount_rate: z.number(),
  period_discount: z.number().int(),
  subtotal: z.number().int(),
  vat_rate: z.number(),
  /** Account credit taken off the subtotal before VAT (orders only; absent or 0 in previews). */
  credit_applied: z.number().int().optional(),
  vat_amount: z.number().int(),
  total: z.number().int(),
  currency: z.literal('EUR'),
  includes_vat: z.boolean(),
  reverse_charge: z.boolean(),
  outside_scope: z.boolean(),
  vat_reason: vatReasonSchema.nullable(),
  legal_note_key: z.enum(['reverse_charge', 'outside_scope']).nullable(),
  /**
   * Whether the VAT number given counts (format and checksum, and VIES when configured; see
   * `vat_number_check`); null when none was given.
   */
  vat_number_valid: z.boolean().nullable(),
  vat_number_check: vatNumberCheckSchema,
  vies_consultation_number: viesConsultationNumberSchema,
  vat_evidence: vatEvidenceSchema.optional(),
  lines: z.array(breakdownLineSchema),
});
export type PriceBreakdownResponse = z.infer<typeof priceBreakdownSchema>;

export const calculateVatRequestSchema = z.object({
  amount: z.number({ error: 'required' }).int('invalid_type').nonnegative().max(100_000_000),
  country: countryCodeSchema,
  is_company: z.boolean().default(false),
  vat_number: text().max(20).optional(),
});

export const calculateVatResponseSchema = z.object({
  amount: z.number().int(),
  vat_rate: z.number(),
  vat_amount: z.number().int(),
  total: z.number().int(),
  currency: z.literal('EUR'),
  reverse_charge: z.boolean(),
  outside_scope: z.boolean(),
  reason: vatReasonSchema,
  vat_number_valid: z.boolean().nullable(),
  vat_number_check: vatNumberCheckSchema,
  vies_consultation_number: viesConsultationNumberSchema,
  legal_note_key: z.enum(['reverse_charge', 'outside_scope']).nullable(),
});
