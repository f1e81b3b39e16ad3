// Plan change in the middle of a paid period (spec §3 "Price breakdown" for plan changes: current plan
// value, new plan value, prorated difference for the remaining days, refund or credit).
//
// Day counting: whole UTC calendar days. A period from `periodStart` to `periodEnd` has
// total_days = (UTC date of periodEnd) − (UTC date of periodStart). A change at `at` leaves
// remaining_days = (UTC date of periodEnd) − (UTC date of at), kept between 0 and total_days: the day
// of the change is counted as remaining (it is served on the new plan), the end date is not (the
// period ends there). Times of day are ignored, so a change at 00:01 and at 23:59 of one UTC day cost
// the same.
//
// Each plan's value for the remaining days is its price for the period × remaining / total, rounded
// once by THE rule (./money.ts); the difference of the two rounded values is the charge or the credit.
// Both prices must be for the same period (the current one) and on the same footing (both before VAT
// is the intended use; add VAT to the charge with `vatOn`).
import { assertMinor, divideRounded } from './money.ts';

export const MS_PER_DAY = 86_400_000;

export type PlanChangeDirection = 'upgrade' | 'downgrade' | 'same';

export interface PlanChangeInput {
  /** What the current configuration costs for its whole period, minor units. */
  currentPeriodPriceMinor: number;
  /** What the new configuration costs for the same period, minor units. */
  newPeriodPriceMinor: number;
  periodStart: Date;
  periodEnd: Date;
  /** When the change takes effect (the caller's "now"). */
  at: Date;
}

export interface PlanChangeQuote {
  /** Value of the remaining days on the current plan. */
  current_plan_value: number;
  /** Price of the remaining days on the new plan. */
  new_plan_value: number;
  remaining_days: number;
  total_days: number;
  /** new_plan_value − current_plan_value: positive is owed by the customer, negative is owed to them. */
  prorated_difference: number;
  direction: PlanChangeDirection;
  /** To charge now (0 or more). */
  charge_minor: number;
  /** To credit or refund (0 or more). */
  credit_minor: number;
}

/** Days since 1970-01-01 of the UTC calendar date of `date`. */
export function utcDayNumber(date: Date): number {
  const time = date.getTime();
  if (Number.isNaN(time)) throw new RangeError('invalid date');
  return Math.floor(time / MS_PER_DAY);
}

/** `amountMinor` × part / whole, rounded by THE rule. */
export function prorate(amountMinor: number, part: number, whole: number): number {
  assertMinor(amountMinor, 'amountMinor');
  if (!Number.isSafeInteger(part) || !Number.isSafeInteger(whole) || whole <= 0 || part < 0 || part > whole) {
    throw new RangeError('part and whole must be integers with 0 <= part <= whole and whole > 0');
  }
  return divideRounded(amountMinor * part, whole);
}

export function planChangeQuote(input: PlanChangeInput): PlanChangeQuote {
  const { currentPeriodPriceMinor: current, newPeriodPriceMinor: next } = input;
  assertMinor(current, 'currentPeriodPriceMinor');
  assertMinor(next, 'newPeriodPriceMinor');
  if (current < 0 || next < 0) throw new RangeError('period prices must not be negative');
  const start = utcDayNumber(input.periodStart);
  const end = utcDayNumber(input.periodEnd);
  const total_days = end - start;
  if (total_days <= 0) throw new RangeError('periodEnd must be at least one UTC day after periodStart');
  const remaining_days = Math.min(total_days, Math.max(0, end - utcDayNumber(input.at)));

  const current_plan_value = prorate(current, remaining_days, total_days);
  const new_plan_value = prorate(next, remaining_days, total_days);
  const prorated_difference = new_plan_value - current_plan_value;
  const direction: PlanChangeDirection = next > current ? 'upgrade' : next < current ? 'downgrade' : 'same';
  return {
    current_plan_value,
    new_plan_value,
    remaining_days,
    total_days,
    prorated_difference,
    direction,
    charge_minor: Math.max(0, prorated_difference),
    credit_minor: Math.max(0, -prorated_difference),
  };
}
