// Money is an integer number of minor units (euro cents) with its currency. Nothing in this package
// works on floating-point euros: amounts come in as integers and go out as integers.
//
// THE ROUNDING RULE (the only one in Debesis):
//   A percentage of an amount is rounded half away from zero to a whole minor unit (cent), and it is
//   applied once per line: the period discount once on the period subtotal, VAT once on the subtotal
//   after the discount, and a proration once on each plan's value. Nothing is rounded twice and no
//   rounded figure is multiplied again; the other figures are sums and differences of integers.
// It is done in integer arithmetic (percentages to two decimals are basis points), so 25.5 % of 1 cent
// and 21 % of 499 cents give the same answer in every browser and on the server.

export const CURRENCIES = ['EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'EUR';

export interface Money {
  /** Integer minor units (cents). */
  amount_minor: number;
  currency: Currency;
}

export function money(amountMinor: number, currency: Currency = DEFAULT_CURRENCY): Money {
  assertMinor(amountMinor, 'amountMinor');
  return { amount_minor: amountMinor, currency };
}

/** Throws unless `value` is a safe integer: every amount in minor units must be one. */
export function assertMinor(value: number, name = 'amount'): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer of minor units`);
}

/**
 * A percentage (0 to 100, at most two decimals, e.g. 25.5) as an integer of basis points (2550).
 * Throws on anything else, so a rate with a third decimal can never round silently.
 */
export function percentToBasisPoints(percent: number): number {
  const basisPoints = Math.round(percent * 100);
  if (
    !Number.isFinite(percent) ||
    percent < 0 ||
    percent > 100 ||
    Math.abs(basisPoints - percent * 100) > 1e-6
  ) {
    throw new RangeError(`percent must be between 0 and 100 with at most two decimals, got ${percent}`);
  }
  return basisPoints;
}

/** `numerator / denominator` rounded half away from zero; both integers, denominator above 0. */
export function divideRounded(numerator: number, denominator: number): number {
  assertMinor(numerator, 'numerator');
  if (!Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError('denominator must be a positive integer');
  }
  const magnitude = Math.abs(numerator);
  const quotient = Math.floor(magnitude / denominator);
  const remainder = magnitude - quotient * denominator;
  const rounded = remainder * 2 >= denominator ? quotient + 1 : quotient;
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}

/** `percent` % of `amountMinor`, rounded by THE rule: half away from zero, to a whole minor unit. */
export function percentOf(amountMinor: number, percent: number): number {
  assertMinor(amountMinor, 'amountMinor');
  const product = amountMinor * percentToBasisPoints(percent);
  assertMinor(product, 'amount × rate');
  return divideRounded(product, 10_000);
}

export const MONEY_LOCALES = ['en-US', 'lt-LT'] as const;
export type MoneyLocale = (typeof MONEY_LOCALES)[number];

/**
 * An amount of minor units for people: always two decimals (spec §9: en-US, minor units / 100).
 * en-US gives "€14.99", lt-LT gives "14,99 €" (with the locale's own spaces).
 */
export function formatMoney(
  amountMinor: number,
  locale: MoneyLocale = 'en-US',
  currency: Currency = DEFAULT_CURRENCY,
): string {
  assertMinor(amountMinor, 'amountMinor');
  return numberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amountMinor / 100);
}

/**
 * The formatter for a locale and options, made once and kept: making one costs far more than
 * formatting with it (a new one per plan card's price and size was most of /pricing's rendering
 * on a throttled phone).
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Minor units as a plain decimal string ("14.99", "-0.05"), e.g. for a payment provider or an invoice. */
export function minorToDecimalString(amountMinor: number): string {
  assertMinor(amountMinor, 'amountMinor');
  const sign = amountMinor < 0 ? '-' : '';
  const magnitude = Math.abs(amountMinor);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}
