// Billing and invoices (spec §2 billing, §3 Invoice and Billing info, §5 billing completeness, §7
// Billing calls, §9 invoices page size). Amounts are integer minor units (cents) in EUR.
import { z } from 'zod';
import { text } from './strings.ts';
import { countryCodeSchema, vatNumberSchema } from './accounts.ts';
import { INVOICES_DEFAULT_PER_PAGE } from './constants.ts';

/** What a paid order was: a new service, another period, or a change of plan. */
export const INVOICE_TYPES = ['PURCHASE', 'RENEWAL', 'PLAN_CHANGE'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** The spec's "other texts" name each type so (i18n keys, CSS modifiers). */
export const INVOICE_TYPE_KEYS = {
  PURCHASE: 'purchase',
  RENEWAL: 'renewal',
  PLAN_CHANGE: 'planChange',
} as const satisfies Record<InvoiceType, string>;

/**
 * Spec §3 invoice statuses. `void`: an unpaid invoice whose order or payment was cancelled (it
 * stays in the trail, nothing is due). A credit note is `paid`: its money was given back.
 */
export const INVOICE_STATUSES = ['paid', 'unpaid', 'void', 'draft'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * What a document of the list is: an invoice, or a credit note (money given back on an invoice,
 * its own number series, negative amounts). Its `type` is its invoice's.
 */
export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICES_MAX_PER_PAGE = 100;

/** A calendar date, `YYYY-MM-DD`. */
export const calendarDateSchema = text()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_format')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'invalid_format');

// ---------------------------------------------------------------------------------------------
// Billing info (spec §3): who the invoices are made out to.

export const billingAddressSchema = z.object({
  street: text(),
  city: text(),
  state: text(),
  postal_code: text(),
  country: text(),
});
export type BillingAddress = z.infer<typeof billingAddressSchema>;

export const BILLING_INFO_FIELDS = [
  'company_name',
  'vat_number',
  'billing_address.street',
  'billing_address.city',
  'billing_address.postal_code',
  'billing_address.country',
] as const;
export type BillingInfoField = (typeof BILLING_INFO_FIELDS)[number];

export interface BillingInfoValues {
  company_name: string | null;
  vat_number: string | null;
  billing_address: BillingAddress;
}

/**
 * Spec §3 "complete": with a company name, the VAT number plus street, city, country and postal
 * code are required; without one, only street, city, country and postal code. One rule for the
 * form, the summary and the PUT.
 */
export function billingInfoMissing(info: BillingInfoValues): BillingInfoField[] {
  const blank = (value: string | null | undefined) => !value || value.trim() === '';
  const missing: BillingInfoField[] = [];
  if (!blank(info.company_name) && blank(info.vat_number)) missing.push('vat_number');
  if (blank(info.billing_address.street)) missing.push('billing_address.street');
  if (blank(info.billing_address.city)) missing.push('billing_address.city');
  if (blank(info.billing_address.postal_code)) missing.push('billing_address.postal_code');
  if (blank(info.billing_address.country)) missing.push('billing_address.country');
  return missing;
}

export const billingInfoSchema = z.object({
  company_name: text().nullable(),
  vat_number: text().nullable(),
  billing_address: billingAddressSchema,
  /** Complete by spec §3; `missing` names what is not. */
  complete: z.boolean(),
  missing: z.array(z.enum(BILLING_INFO_FIELDS)),
  /** Whether the owner saved it, or it is still prefilled from the account's details. */
  saved: z.boolean(),
  updated_at: text().nullable(),
});
export type BillingInfo = z.infer<typeof billingInfoSchema>;

const optionalText = (max: number) =>
  text({ error: 'invalid_type' })
    .trim()
    .max(max, 'too_long')
    .nullish()
    .transform((value) => (value ? value : null));

/** PUT /billing/info: refused with field errors unless complete by spec §3. */
export const updateBillingInfoRequestSchema = z
  .object({
    company_name: optionalText(200),
    vat_number: z
      .union([vatNumberSchema, z.literal(''), z.null()])
      .optional()
      .transform((value) => (value ? value : null)),
    billing_address: z.object(
      {
        street: text({ error: 'required' }).trim().max(200, 'too_long'),
        city: text({ error: 'required' }).trim().max(100, 'too_long'),
        state: text().trim().max(100, 'too_long').default(''),
        postal_code: text({ error: 'required' }).trim().max(20, 'too_long'),
        country: z.union([countryCodeSchema, z.literal('')], { error: 'invalid_country' }),
      },
      { error: 'required' },
    ),
  })
  .superRefine((value, context) => {
    for (const field of billingInfoMissing(value)) {
      context.addIssue({ code: 'custom', message: 'required', path: field.split('.') });
    }
  });
export type UpdateBillingInfoRequest = z.input<typeof updateBillingInfoRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Invoices (spec §3 Invoice).

export const invoicePartySchema = z.object({
  name: text(),
  company_code: text().nullable(),
  vat_number: text().nullable(),
  address: billingAddressSchema,
  email: text().nullable(),
});
export type InvoiceParty = z.infer<typeof invoicePartySchema>;

export const invoiceLineSchema = z.object({
  /** `credit`: a credit note's one line, the amount given back (negative). */
  kind: z.enum(['base', 'disk_space', 'users', 'plan_change', 'credit']),
  /** Plan name, e.g. "MINI". */
  product_name: text(),
  quantity: z.number().int(),
  /** GB of a disk line, 1 otherwise. */
  unit_size: z.number().int(),
  /** Per unit and month, before the period discount; 0 on a plan-change line. */
  unit_price: z.number().int(),
  months: z.number().int(),
  amount: z.number().int(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

/** The other side of a credit: a credit note's invoice, or one of an invoice's credit notes. */
export const invoiceReferenceSchema = z.object({
  id: text(),
  number: text(),
  /** The document's total: a credit note's is negative. */
  total: z.number().int(),
});
export type InvoiceReference = z.infer<typeof invoiceReferenceSchema>;

export const invoiceSummarySchema = z.object({
  id: text(),
  number: text(),
  kind: z.enum(INVOICE_KINDS),
  type: z.enum(INVOICE_TYPES),
  status: z.enum(INVOICE_STATUSES),
  /** The invoice date, `YYYY-MM-DD` in the seller's time zone (Europe/Vilnius). */
  date: calendarDateSchema,
  issued_at: text(),
  service_id: text().nullable(),
  /**
   * The workspace's name as the invoice was issued (an invoice issued before names were kept
   * gives its name now); null without a service. Customers know a workspace by it, not its id.
   */
  service_name: text().nullable(),
  order_id: text(),
  product_name: text(),
  period_start: calendarDateSchema.nullable(),
  period_end: calendarDateSchema.nullable(),
  currency: z.literal('EUR'),
  /** Taxable amount: subtotal less account credit. */
  net: z.number().int(),
  vat_rate: z.number(),
  vat_amount: z.number().int(),
  total: z.number().int(),
  /** A credit note's invoice; null on an invoice. */
  credited_invoice: invoiceReferenceSchema.nullable(),
  /** An invoice's credit notes, oldest first; empty on a credit note. */
  credit_notes: z.array(invoiceReferenceSchema),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceSchema = invoiceSummarySchema.extend({
  supply_date: calendarDateSchema,
  seller: invoicePartySchema,
  buyer: invoicePartySchema,
  lines: z.array(invoiceLineSchema),
  /** Before the period discount. */
  period_subtotal: z.number().int(),
  discount_rate: z.number(),
  period_discount: z.number().int(),
  subtotal: z.number().int(),
  credit_applied: z.number().int(),
  reverse_charge: z.boolean(),
  outside_scope: z.boolean(),
  legal_note_key: z.enum(['reverse_charge', 'outside_scope']).nullable(),
  /** The seller's bank account, when configured. */
  seller_bank_account: text().nullable(),
  /**
   * How it was paid: `sandbox`, `stripe`, or `credit` (account credit covered all of it); a
   * credit note: how the money went back (the provider's name).
   */
  payment_method: text(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** An empty or absent filter is no filter (spec §5: empty filter values are dropped). */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const invoiceListQuerySchema = z.object({
  page: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(1)),
  per_page: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(INVOICES_MAX_PER_PAGE).default(INVOICES_DEFAULT_PER_PAGE),
  ),
  start_date: z.preprocess(emptyToUndefined, calendarDateSchema.optional()),
  end_date: z.preprocess(emptyToUndefined, calendarDateSchema.optional()),
  payment_type: z.preprocess(emptyToUndefined, z.enum(INVOICE_TYPES).optional()),
  /** `invoice` or `credit_note`. */
  kind: z.preprocess(emptyToUndefined, z.enum(INVOICE_KINDS).optional()),
  status: z.preprocess(emptyToUndefined, z.enum(INVOICE_STATUSES).optional()),
  service_id: z.preprocess(emptyToUndefined, z.uuid('invalid_format').optional()),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceListSchema = z.object({
  items: z.array(invoiceSummarySchema),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  /** At least 1, so "Page 1 of 1 (0 total)" reads right. */
  pages: z.number().int(),
});
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const invoiceIdParamsSchema = z.object({ id: z.uuid('invalid_format') });

/** `lang` overrides the account's language for the PDF and the preview. */
export const invoiceDocumentQuerySchema = z.object({
  lang: z.preprocess(emptyToUndefined, z.enum(['en', 'lt']).optional()),
});

export const billingSummarySchema = z.object({
  billing_info: billingInfoSchema,
  completeness: z.object({
    complete: z.boolean(),
    missing: z.array(z.enum(BILLING_INFO_FIELDS)),
  }),
  /** Orders placed and not paid yet (awaiting payment or failed). */
  outstanding: z.object({ amount: z.number().int(), count: z.number().int(), currency: z.literal('EUR') }),
  /** Account credit, before VAT. */
  credit: z.object({ balance: z.number().int(), currency: z.literal('EUR') }),
  invoices: z.object({ count: z.number().int(), total_paid: z.number().int() }),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;
