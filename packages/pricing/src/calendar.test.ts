import { describe, expect, it } from 'vitest';
import { addMonths, monthsBefore } from './calendar.ts';

const iso = (date: Date) => date.toISOString();

describe('addMonths', () => {
  it.each([
    ['2027-01-31T09:00:00.000Z', 1, '2027-02-28T09:00:00.000Z'],
    ['2028-01-31T09:00:00.000Z', 1, '2028-02-29T09:00:00.000Z'],
    ['2026-03-31T23:30:00.000Z', 1, '2026-04-30T23:30:00.000Z'],
    ['2026-08-31T00:00:00.000Z', 6, '2027-02-28T00:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', 12, '2029-02-28T12:00:00.000Z'],
    ['2026-12-31T10:00:00.000Z', 1, '2027-01-31T10:00:00.000Z'],
    ['2026-11-15T10:00:00.000Z', 24, '2028-11-15T10:00:00.000Z'],
  ])(
    '%s + %i months is %s (clamped to the month end, never rolled into the next)',
    (from, months, expected) => {
      expect(iso(addMonths(new Date(from), months))).toBe(expected);
    },
  );

  it('counts in UTC whatever the time zone of the process', () => {
    // 23:30 UTC on 31 January is already 1 February in Vilnius; the answer must not move with it.
    expect(iso(addMonths(new Date('2027-01-31T23:30:00.000Z'), 1))).toBe('2027-02-28T23:30:00.000Z');
  });

  it('refuses a fraction of a month and an invalid date', () => {
    expect(() => addMonths(new Date(), 1.5)).toThrow(RangeError);
    expect(() => addMonths(new Date('nope'), 1)).toThrow(RangeError);
  });
});

describe('monthsBefore', () => {
  it.each([
    ['2027-03-31T08:00:00.000Z', 1, '2027-02-28T08:00:00.000Z'],
    ['2028-03-31T08:00:00.000Z', 1, '2028-02-29T08:00:00.000Z'],
    ['2027-02-28T08:00:00.000Z', 12, '2026-02-28T08:00:00.000Z'],
  ])('%s − %i months is %s', (at, months, expected) => {
    expect(iso(monthsBefore(new Date(at), months))).toBe(expected);
  });
});
