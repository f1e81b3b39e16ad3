// The account's kept card (issue 38 "kept cards"): what Billing shows of it and where its card
// form is. Never the number: the provider keeps the card, we keep its reference, brand, last four
// digits and expiry. One kept card per account; a new one replaces it.
//
//   GET    /api/v1/billing/payment-methods  → { payment_method: SavedPaymentMethod | null }
//   POST   /api/v1/billing/payment-methods  → { url }  the provider's card form (saves, charges nothing)
//   DELETE /api/v1/billing/payment-methods  → { payment_method: null }  removed (and detached at the
//                                             provider); answered alike when there was none
import { z } from 'zod';
import { text } from './strings.ts';

/**
 * Automatic renewal (issue 38): a service with `auto_renew` whose account keeps a card is renewed
 * this many days before its valid_until: the kept card is charged for its current plan and period
 * at today's catalogue price and VAT, once per end date.
 */
export const RENEWAL_LEAD_DAYS = 3;
/**
 * Dunning: when the renewal's charge is declined or needs the customer (3-D Secure), the renewal
 * invoice is issued unpaid and mailed with a link to pay it; the kept card is tried at these days
 * after the first failure (day 0 is that first attempt), each failure mailed, while the service
 * has not ended and the invoice is unpaid. Then the spec's expiry lifecycle applies.
 */
export const RENEWAL_RETRY_DAYS = [0, 3, 6] as const;

export const PAYMENT_METHOD_PROVIDERS = ['sandbox', 'stripe'] as const;

export const savedPaymentMethodSchema = z.object({
  id: z.uuid(),
  provider: z.enum(PAYMENT_METHOD_PROVIDERS),
  /** The card network as the provider names it, lower case: `visa`, `mastercard`, `amex`… */
  brand: text(),
  last4: text().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  /** Four digits. */
  exp_year: z.number().int().min(2000).max(9999),
  created_at: text(),
});
export type SavedPaymentMethod = z.infer<typeof savedPaymentMethodSchema>;

export const paymentMethodsResponseSchema = z.object({
  payment_method: savedPaymentMethodSchema.nullable(),
});
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponseSchema>;

/** POST /billing/payment-methods: the card form to open (a new card replaces the kept one). */
export const paymentMethodSetupResponseSchema = z.object({ url: text() });
export type PaymentMethodSetupResponse = z.infer<typeof paymentMethodSetupResponseSchema>;

/** The sandbox's card-form session id (`pms_…`), the key of its page. */
export const paymentMethodSetupParamsSchema = z.object({
  id: text().regex(/^pms_[A-Za-z0-9_-]{10,64}$/, 'invalid_format'),
});

/** A kept card stops working at the end of its expiry month. */
export function cardExpiresAt(card: { exp_month: number; exp_year: number }): Date {
  return new Date(Date.UTC(card.exp_year, card.exp_month, 1));
}

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

/** A card brand as people write it (`visa` → Visa); one not listed, as the provider gave it. */
export function cardBrandName(brand: string): string {
  return CARD_BRANDS[brand.toLowerCase()] ?? brand;
}
