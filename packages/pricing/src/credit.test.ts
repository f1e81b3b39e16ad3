import { describe, expect, it } from 'vitest';
import { applyCredit } from './credit.ts';

const breakdown = { subtotal: 10_000, vat_rate: 21, vat_amount: 2_100, total: 12_100, months: 12 };

describe('applyCredit', () => {
  it('changes nothing without credit', () => {
    expect(applyCredit(breakdown, 0)).toEqual({ ...breakdown, credit_applied: 0 });
  });

  it('takes the credit off the subtotal before VAT', () => {
    expect(applyCredit(breakdown, 2_500)).toEqual({
      ...breakdown,
      credit_applied: 2_500,
      vat_amount: 1_575,
      total: 9_075,
    });
  });

  it('never takes more than the subtotal: a covered order costs nothing', () => {
    const result = applyCredit(breakdown, 50_000);
    expect(result.credit_applied).toBe(10_000);
    expect(result.vat_amount).toBe(0);
    expect(result.total).toBe(0);
  });

  it('rounds VAT once, half away from zero', () => {
    // 999 − 333 = 666 taxable; 21 % = 139.86 → 140.
    expect(applyCredit({ subtotal: 999, vat_rate: 21, vat_amount: 210, total: 1_209 }, 333)).toMatchObject({
      vat_amount: 140,
      total: 806,
    });
  });

  it('works with reverse charge (0 %)', () => {
    expect(applyCredit({ subtotal: 1_000, vat_rate: 0, vat_amount: 0, total: 1_000 }, 400).total).toBe(600);
  });

  it('refuses negative or fractional credit', () => {
    expect(() => applyCredit(breakdown, -1)).toThrow(RangeError);
    expect(() => applyCredit(breakdown, 1.5)).toThrow(RangeError);
  });
});
