import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divideRounded,
  formatMoney,
  minorToDecimalString,
  percentOf,
  percentToBasisPoints,
} from './money.ts';

/** The rule done a second way: exact BigInt arithmetic, half away from zero. */
function referencePercentOf(amount: number, percent: number): number {
  const numerator = BigInt(amount) * BigInt(Math.round(percent * 100));
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = magnitude / 10_000n;
  const rounded = (magnitude % 10_000n) * 2n >= 10_000n ? quotient + 1n : quotient;
  return Number(negative ? -rounded : rounded);
}

describe('percentOf: half away from zero, to the cent', () => {
  it.each([
    [499, 21, 105], // 104.79
    [1000, 21, 210],
    [50, 1, 1], // 0.5 rounds up
    [49, 1, 0], // 0.49 rounds down
    [-50, 1, -1], // and away from zero below it
    [1, 25.5, 0], // 0.255
    [2, 25.5, 1], // 0.51
    [10000, 25.5, 2550],
    [1497, 3, 45], // 44.91
    [0, 21, 0],
    [12345, 0, 0],
    [12345, 100, 12345],
  ])('%i × %s percent = %i', (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });

  it('rejects amounts that are not whole cents and rates with a third decimal', () => {
    expect(() => percentOf(10.5, 21)).toThrow(RangeError);
    expect(() => percentOf(100, 21.005)).toThrow(RangeError);
    expect(() => percentOf(100, -1)).toThrow(RangeError);
    expect(() => percentOf(100, 101)).toThrow(RangeError);
    expect(() => percentToBasisPoints(Number.NaN)).toThrow(RangeError);
  });

  it('agrees with exact arithmetic for any amount and any two-decimal rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 10_000 }), (amount, bp) => {
        const percent = bp / 100;
        expect(percentOf(amount, percent)).toBe(referencePercentOf(amount, percent));
      }),
    );
  });

  it('divideRounded rounds halves away from zero', () => {
    expect(divideRounded(5, 2)).toBe(3);
    expect(divideRounded(-5, 2)).toBe(-3);
    expect(divideRounded(4, 3)).toBe(1);
    expect(divideRounded(5, 3)).toBe(2);
    expect(() => divideRounded(1, 0)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  const plain = (text: string) => text.replace(/\s/g, ' ');
  it('shows two decimals in en-US and lt-LT', () => {
    expect(formatMoney(1499)).toBe('€14.99');
    expect(formatMoney(500, 'en-US')).toBe('€5.00');
    expect(formatMoney(123456, 'en-US')).toBe('€1,234.56');
    expect(plain(formatMoney(1499, 'lt-LT'))).toBe('14,99 €');
    expect(plain(formatMoney(500, 'lt-LT'))).toBe('5,00 €');
    expect(formatMoney(-250)).toBe('-€2.50');
  });

  it('writes minor units as a decimal string', () => {
    expect(minorToDecimalString(1499)).toBe('14.99');
    expect(minorToDecimalString(5)).toBe('0.05');
    expect(minorToDecimalString(-5)).toBe('-0.05');
    expect(minorToDecimalString(0)).toBe('0.00');
  });
});
