import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChangeQuote, prorate, utcDayNumber } from './proration.ts';

const day = (iso: string) => new Date(iso);
const november = { periodStart: day('2026-11-01T10:00:00Z'), periodEnd: day('2026-12-01T10:00:00Z') };

describe('planChangeQuote: MINI → OPTIMIZED on a one-month period (upgrade)', () => {
  const upgrade = { ...november, currentPeriodPriceMinor: 1499, newPeriodPriceMinor: 4999 };

  it.each([
    ['2026-11-01T10:00:00Z', 30, 1499, 4999],
    ['2026-11-16T08:00:00Z', 15, 750, 2500], // 749.5 and 2499.5 both round up
    ['2026-11-21T15:30:00Z', 10, 500, 1666], // 499.67 and 1666.33
    ['2026-11-30T23:59:59Z', 1, 50, 167], // 49.97 and 166.63
    ['2026-12-01T00:00:00Z', 0, 0, 0],
  ])('at %s: %i days left, %i → %i', (at, remaining, currentValue, newValue) => {
    expect(planChangeQuote({ ...upgrade, at: day(at) })).toEqual({
      current_plan_value: currentValue,
      new_plan_value: newValue,
      remaining_days: remaining,
      total_days: 30,
      prorated_difference: newValue - currentValue,
      direction: 'upgrade',
      charge_minor: newValue - currentValue,
      credit_minor: 0,
    });
  });

  it('counts whole UTC days: the time of day does not matter', () => {
    const early = planChangeQuote({ ...upgrade, at: day('2026-11-21T00:00:01Z') });
    const late = planChangeQuote({ ...upgrade, at: day('2026-11-21T23:59:59Z') });
    expect(early).toEqual(late);
    // 01:00 in Vilnius on 22 November is still 21 November in UTC.
    expect(planChangeQuote({ ...upgrade, at: day('2026-11-22T01:00:00+02:00') })).toEqual(early);
  });

  it('clamps a change before the start or after the end', () => {
    expect(planChangeQuote({ ...upgrade, at: day('2026-10-15T00:00:00Z') }).remaining_days).toBe(30);
    expect(planChangeQuote({ ...upgrade, at: day('2027-01-15T00:00:00Z') })).toMatchObject({
      remaining_days: 0,
      charge_minor: 0,
      credit_minor: 0,
    });
  });
});

describe('planChangeQuote: OPTIMIZED → MINI on a 12-month period (downgrade)', () => {
  // 12-month prices after the 10 % discount: 59988 − 5999 and 17988 − 1799.
  const downgrade = {
    periodStart: day('2026-01-01T00:00:00Z'),
    periodEnd: day('2027-01-01T00:00:00Z'),
    currentPeriodPriceMinor: 53989,
    newPeriodPriceMinor: 16189,
  };

  it.each([
    ['2026-01-01T12:00:00Z', 365, 53989, 16189],
    ['2026-07-02T00:00:00Z', 183, 27068, 8117], // 27068.46 and 8116.68
    ['2026-11-21T09:00:00Z', 41, 6065, 1818], // 6064.52 and 1818.49
    ['2026-12-31T18:00:00Z', 1, 148, 44], // 147.92 and 44.35
  ])('at %s: %i days left, %i → %i', (at, remaining, currentValue, newValue) => {
    expect(planChangeQuote({ ...downgrade, at: day(at) })).toEqual({
      current_plan_value: currentValue,
      new_plan_value: newValue,
      remaining_days: remaining,
      total_days: 365,
      prorated_difference: newValue - currentValue,
      direction: 'downgrade',
      charge_minor: 0,
      credit_minor: currentValue - newValue,
    });
  });
});

describe('planChangeQuote: edges', () => {
  it('same price: nothing to charge or credit', () => {
    expect(
      planChangeQuote({
        ...november,
        currentPeriodPriceMinor: 1499,
        newPeriodPriceMinor: 1499,
        at: day('2026-11-10T00:00:00Z'),
      }),
    ).toMatchObject({ direction: 'same', prorated_difference: 0, charge_minor: 0, credit_minor: 0 });
  });

  it('knows leap years', () => {
    const quote = planChangeQuote({
      periodStart: day('2028-02-01T00:00:00Z'),
      periodEnd: day('2028-03-01T00:00:00Z'),
      at: day('2028-02-29T00:00:00Z'),
      currentPeriodPriceMinor: 0,
      newPeriodPriceMinor: 2900,
    });
    expect(quote).toMatchObject({ total_days: 29, remaining_days: 1, charge_minor: 100 });
  });

  it('refuses impossible input', () => {
    const base = { currentPeriodPriceMinor: 100, newPeriodPriceMinor: 200, at: day('2026-11-10T00:00:00Z') };
    expect(() =>
      planChangeQuote({ ...base, periodStart: november.periodEnd, periodEnd: november.periodStart }),
    ).toThrow(RangeError);
    expect(() =>
      planChangeQuote({
        ...base,
        periodStart: day('2026-11-01T01:00:00Z'),
        periodEnd: day('2026-11-01T23:00:00Z'),
      }),
    ).toThrow(RangeError);
    expect(() => planChangeQuote({ ...base, ...november, currentPeriodPriceMinor: 10.5 })).toThrow(
      RangeError,
    );
    expect(() => planChangeQuote({ ...base, ...november, newPeriodPriceMinor: -1 })).toThrow(RangeError);
    expect(() => planChangeQuote({ ...base, ...november, at: new Date('nonsense') })).toThrow(RangeError);
    expect(() => prorate(100, 5, 4)).toThrow(RangeError);
  });

  it('utcDayNumber counts days since 1970-01-01 UTC', () => {
    expect(utcDayNumber(day('1970-01-01T23:59:59Z'))).toBe(0);
    expect(utcDayNumber(day('1970-01-02T00:00:00Z'))).toBe(1);
  });

  it('charge and credit are never both above 0 and never exceed the period prices', () => {
    const start = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000_000 }),
        fc.nat({ max: 1_000_000 }),
        fc.integer({ min: 1, max: 731 }),
        fc.integer({ min: -10, max: 740 }),
        (current, next, totalDays, offsetDays) => {
          const quote = planChangeQuote({
            currentPeriodPriceMinor: current,
            newPeriodPriceMinor: next,
            periodStart: new Date(start),
            periodEnd: new Date(start + totalDays * 86_400_000),
            at: new Date(start + offsetDays * 86_400_000 + 3_600_000),
          });
          expect(quote.total_days).toBe(totalDays);
          expect(quote.remaining_days).toBeGreaterThanOrEqual(0);
          expect(quote.remaining_days).toBeLessThanOrEqual(totalDays);
          expect(quote.charge_minor - quote.credit_minor).toBe(quote.prorated_difference);
          expect(Math.min(quote.charge_minor, quote.credit_minor)).toBe(0);
          expect(quote.current_plan_value).toBeLessThanOrEqual(current);
          expect(quote.new_plan_value).toBeLessThanOrEqual(next);
          if (quote.direction === 'upgrade') expect(quote.credit_minor).toBe(0);
          if (quote.direction === 'downgrade') expect(quote.charge_minor).toBe(0);
        },
      ),
    );
  });
});
