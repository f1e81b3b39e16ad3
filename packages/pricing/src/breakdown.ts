// The price breakdown (spec §3 "Price breakdown", "Selected plan" initial_calculation): one function
// that the web preview and the API's charge both call, so the customer sees the amount they pay.
//
//   base_price            = product monthly price × months
//   option_costs          = Σ option unit price × extra units × months   ("additional resources")
//   period_subtotal       = base_price + option_costs
//   period_discount       = percentOf(period_subtotal, period discount)   — rounded once
//   subtotal              = period_subtotal − period_discount             ("subtotal after discount")
//   vat_amount            = percentOf(subtotal, vat_rate)                 — rounded once
//   total                 = subtotal + vat_amount
// All in integer minor units; the rounding rule is the one in ./money.ts.
import { type Currency, DEFAULT_CURRENCY, percentOf } from './money.ts';
import {
  type OptionType,
  type PlanSelection,
  type PricingProduct,
  type SelectionError,
  bandwidthFor,
  extraUnits,
  findOption,
  findPeriod,
  validateSelection,
} from './product.ts';
import type { VatDecision, VatLegalNoteKey, VatReason } from './vat.ts';

export type BreakdownLineKind = 'base' | OptionType;

export interface BreakdownLine {
  kind: BreakdownLineKind;
  /** Units bought: 1 for the base plan, extra option units otherwise. */
  quantity: number;
  /** What one unit is: 1 for the base plan, GB per disk block, users per user unit. */
  unit_size: number;
  /** Monthly price of one unit, minor units. */
  unit_price: number;
  /** quantity × unit_price. */
  monthly: number;
  months: number;
  /** monthly × months. */
  amount: number;
}

export interface PriceBreakdown {
  product_id: string;
  period_id: string;
  months: number;
  disk_space: number;
  bandwidth: number;
  users_count: number;
  /** Base price for the whole period. */
  base_price: number;
  /** Additional resources for the whole period. */
  option_costs: number;
  period_subtotal: number;
  /** Discount percent of the period. */
  discount_rate: number;
  period_discount: number;
  /** Subtotal after the discount: what VAT is charged on. */
  subtotal: number;
  vat_rate: number;
  vat_amount: number;
  total: number;
  currency: Currency;
  /** True when VAT has been decided and is in `total`; false for a preview before the customer's country is known. */
  includes_vat: boolean;
  reverse_charge: boolean;
  outside_scope: boolean;
  vat_reason: VatReason | null;
  legal_note_key: VatLegalNoteKey | null;
  /** Base plan, then each option with extra units (options with none are left out). */
  lines: BreakdownLine[];
}

/** The `initial_calculation` of the spec's selected plan. */
export interface InitialCalculation {
  base_price: number;
  option_costs: number;
  period_discount: number;
  subtotal: number;
  vat_rate: number;
  vat_amount: number;
  total: number;
  currency: Currency;
  includes_vat: boolean;
}

export class InvalidSelectionError extends Error {
  readonly errors: SelectionError[];
  constructor(errors: SelectionError[]) {
    super(`invalid plan selection: ${errors.map((error) => `${error.field} ${error.code}`).join(', ')}`);
    this.name = 'InvalidSelectionError';
    this.errors = errors;
  }
}

/**
 * Prices a selection. `vat` is the decision from `vatFor`, or null to price without VAT (preview
 * before the country is known: vat_rate 0, includes_vat false). Throws InvalidSelectionError when
 * `validateSelection` finds anything; call that first to show field errors.
 */
export function calculatePrice(
  product: PricingProduct,
  selection: PlanSelection,
  vat: VatDecision | null,
): PriceBreakdown {
  const errors = validateSelection(product, selection);
  const period = findPeriod(product, selection.period_id);
  if (errors.length > 0 || !period) throw new InvalidSelectionError(errors);

  const months = period.months;
  const units = extraUnits(product, selection);
  const lines: BreakdownLine[] = [
    {
      kind: 'base',
      quantity: 1,
      unit_size: 1,
      unit_price: product.price,
      monthly: product.price,
      months,
      amount: product.price * months,
    },
  ];
  for (const type of ['disk_space', 'users'] as const) {
    const option = findOption(product, type);
    const quantity = units[type];
    if (!option || quantity === 0) continue;
    const monthly = option.price * quantity;
    lines.push({
      kind: type,
      quantity,
      unit_size: option.value,
      unit_price: option.price,
      monthly,
      months,
      amount: monthly * months,
    });
  }

  const base_price = product.price * months;
  const option_costs = lines
    .filter((line) => line.kind !== 'base')
    .reduce((sum, line) => sum + line.amount, 0);
  const period_subtotal = base_price + option_costs;
  const period_discount = percentOf(period_subtotal, period.discount);
  const subtotal = period_subtotal - period_discount;
  const vat_rate = vat?.rate ?? 0;
  const vat_amount = percentOf(subtotal, vat_rate);

  return {
    product_id: product.id,
    period_id: period.id,
    months,
    disk_space: selection.disk_space,
    bandwidth: bandwidthFor(selection.disk_space),
    users_count: selection.users_count,
    base_price,
    option_costs,
    period_subtotal,
    discount_rate: period.discount,
    period_discount,
    subtotal,
    vat_rate,
    vat_amount,
    total: subtotal + vat_amount,
    currency: DEFAULT_CURRENCY,
    includes_vat: vat !== null,
    reverse_charge: vat?.reverse_charge ?? false,
    outside_scope: vat?.outside_scope ?? false,
    vat_reason: vat?.reason ?? null,
    legal_note_key: vat?.legal_note_key ?? null,
    lines,
  };
}

/** The spec's `initial_calculation` fields of a breakdown, for the selected plan kept in the browser. */
export function initialCalculation(breakdown: PriceBreakdown): InitialCalculation {
  return {
    base_price: breakdown.base_price,
    option_costs: breakdown.option_costs,
    period_discount: breakdown.period_discount,
    subtotal: breakdown.subtotal,
    vat_rate: breakdown.vat_rate,
    vat_amount: breakdown.vat_amount,
    total: breakdown.total,
    currency: breakdown.currency,
    includes_vat: breakdown.includes_vat,
  };
}

/** VAT by THE rule on an amount that is already a subtotal (e.g. a plan-change charge). */
export function vatOn(
  amountMinor: number,
  vat: VatDecision,
): { subtotal: number; vat_rate: number; vat_amount: number; total: number } {
  const vat_amount = percentOf(amountMinor, vat.rate);
  return { subtotal: amountMinor, vat_rate: vat.rate, vat_amount, total: amountMinor + vat_amount };
}
