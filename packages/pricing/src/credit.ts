// Account credit (spec §3 plan-change "refund or credit"; issue: a downgrade's difference becomes
// credit used by the next payment, never a cash refund).
//
// Credit is kept before VAT and taken off an order's subtotal before VAT is charged: a credit
// reduces the taxable amount of the next supply, so VAT is computed once, on what is really paid,
// by THE rounding rule (./money.ts). The customer never pays VAT on money they already had.
import { assertMinor, percentOf } from './money.ts';

export interface CreditableBreakdown {
  subtotal: number;
  vat_rate: number;
  vat_amount: number;
  total: number;
}

/**
 * Takes up to `availableMinor` of credit off `breakdown.subtotal` and charges VAT on the rest.
 * Returns the breakdown with `credit_applied`, `vat_amount` and `total` set; other fields unchanged.
 */
export function applyCredit<T extends CreditableBreakdown>(
  breakdown: T,
  availableMinor: number,
): T & { credit_applied: number } {
  assertMinor(availableMinor, 'availableMinor');
  if (availableMinor < 0) throw new RangeError('available credit must not be negative');
  const credit_applied = Math.min(availableMinor, Math.max(0, breakdown.subtotal));
  const taxable = breakdown.subtotal - credit_applied;
  const vat_amount = percentOf(taxable, breakdown.vat_rate);
  return { ...breakdown, credit_applied, vat_amount, total: taxable + vat_amount };
}
