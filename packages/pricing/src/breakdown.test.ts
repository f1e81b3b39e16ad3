import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type PriceBreakdown,
  InvalidSelectionError,
  calculatePrice,
  initialCalculation,
  vatOn,
} from './breakdown.ts';
import { CATALOGUE_SEED, type CatalogueProduct } from './catalogue.ts';
import { type PlanSelection, findOption, maxDiskFor, maxUsersFor } from './product.ts';
import { EU_COUNTRIES, type VatDecision, vatFor } from './vat.ts';

const byId = (id: string): CatalogueProduct => {
  const product = CATALOGUE_SEED.find((candidate) => candidate.id === id);
  if (!product) throw new Error(`no ${id} in the seed`);
  return product;
};
const lt = vatFor({ country: 'LT', isBusiness: false, vatNumberValid: false });

/** Half away from zero on non-negative numbers, exactly: the rule written a second way. */
function roundPercent(amount: number, percent: number): number {
  const numerator = BigInt(amount) * BigInt(Math.round(percent * 100));
  const quotient = numerator / 10_000n;
  return Number((numerator % 10_000n) * 2n >= 10_000n ? quotient + 1n : quotient);
}

/** The breakdown recomputed from the catalogue numbers without the package's helpers. */
function reference(product: CatalogueProduct, selection: PlanSelection, vat: VatDecision | null) {
  const period = product.periods.find((candidate) => candidate.id === selection.period_id);
  if (!period) throw new Error('bad period');
  const disk = product.options.find((option) => option.type === 'disk_space');
  const users = product.options.find((option) => option.type === 'users');
  const diskMonthly = disk ? ((selection.disk_space - product.disk_space) / disk.value) * disk.price : 0;
  const usersMonthly = users
    ? ((selection.users_count - product.allowed_users) / users.value) * users.price
    : 0;
  const base = product.price * period.months;
  const options = (diskMonthly + usersMonthly) * period.months;
  const discount = roundPercent(base + options, period.discount);
  const subtotal = base + options - discount;
  const vatAmount = roundPercent(subtotal, vat?.rate ?? 0);
  return { base, options, discount, subtotal, vatAmount, total: subtotal + vatAmount };
}

function optionMixes(product: CatalogueProduct): Array<[string, PlanSelection]> {
  const diskBlock = findOption(product, 'disk_space')?.value ?? 0;
  const userUnit = findOption(product, 'users')?.value ?? 0;
  const base = { disk_space: product.disk_space, users_count: product.allowed_users, period_id: null };
  return [
    ['included only', base],
    ['one disk block', { ...base, disk_space: product.disk_space + diskBlock }],
    ['one extra user', { ...base, users_count: product.allowed_users + userUnit }],
    [
      'three blocks and two users',
      {
        ...base,
        disk_space: product.disk_space + 3 * diskBlock,
        users_count: product.allowed_users + 2 * userUnit,
      },
    ],
    [
      'largest disk and most users',
      { ...base, disk_space: maxDiskFor(product), users_count: maxUsersFor(product) },
    ],
  ];
}

const VAT_CASES: Array<[string, VatDecision | null]> = [
  ['no VAT yet', null],
  ['LT consumer', lt],
  ['LT business', vatFor({ country: 'LT', isBusiness: true, vatNumberValid: true })],
  ['FI consumer', vatFor({ country: 'FI', isBusiness: false, vatNumberValid: false })],
  ['DE business, valid number', vatFor({ country: 'DE', isBusiness: true, vatNumberValid: true })],
  ['HU business, no valid number', vatFor({ country: 'HU', isBusiness: true, vatNumberValid: false })],
  ['US', vatFor({ country: 'US', isBusiness: false, vatNumberValid: false })],
];

function expectConsistent(breakdown: PriceBreakdown): void {
  const amounts = [
    breakdown.base_price,
    breakdown.option_costs,
    breakdown.period_subtotal,
    breakdown.period_discount,
    breakdown.subtotal,
    breakdown.vat_amount,
    breakdown.total,
  ];
  for (const amount of amounts) {
    expect(Number.isSafeInteger(amount)).toBe(true);
    expect(amount).toBeGreaterThanOrEqual(0);
  }
  expect(breakdown.period_subtotal).toBe(breakdown.base_price + breakdown.option_costs);
  expect(breakdown.subtotal).toBe(breakdown.period_subtotal - breakdown.period_discount);
  expect(breakdown.total).toBe(breakdown.subtotal + breakdown.vat_amount);
  expect(breakdown.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(breakdown.period_subtotal);
}

describe('calculatePrice: every seeded plan × period × option mix', () => {
  for (const product of CATALOGUE_SEED) {
    for (const period of product.periods) {
      for (const [mix, selection] of optionMixes(product)) {
        it(`${product.name}, ${period.id}, ${mix}`, () => {
          const chosen = { ...selection, period_id: period.id };
          for (const [, vat] of VAT_CASES) {
            const breakdown = calculatePrice(product, chosen, vat);
            const expected = reference(product, chosen, vat);
            expect(breakdown).toMatchObject({
              product_id: product.id,
              period_id: period.id,
              months: period.months,
              base_price: expected.base,
              option_costs: expected.options,
              period_subtotal: expected.base + expected.options,
              discount_rate: period.discount,
              period_discount: expected.discount,
              subtotal: expected.subtotal,
              vat_rate: vat?.rate ?? 0,
              vat_amount: expected.vatAmount,
              total: expected.total,
              currency: 'EUR',
              includes_vat: vat !== null,
              reverse_charge: vat?.reverse_charge ?? false,
              bandwidth: chosen.disk_space * 2,
            });
            expectConsistent(breakdown);
          }
        });
      }
    }
  }
});

describe('calculatePrice: worked examples', () => {
  it('Starter, 1 month, Lithuania: 4.99 + 21 % = 6.04', () => {
    const breakdown = calculatePrice(byId('starter'), { disk_space: 3, users_count: 2, period_id: '1m' }, lt);
    expect(initialCalculation(breakdown)).toEqual({
      base_price: 499,
      option_costs: 0,
      period_discount: 0,
      subtotal: 499,
      vat_rate: 21,
      vat_amount: 105,
      total: 604,
      currency: 'EUR',
      includes_vat: true,
    });
    expect(breakdown.lines).toEqual([
      { kind: 'base', quantity: 1, unit_size: 1, unit_price: 499, monthly: 499, months: 1, amount: 499 },
    ]);
  });

  it('MINI, 12 months, +30 GB, +2 users, German consumer', () => {
    const de = vatFor({ country: 'DE', isBusiness: false, vatNumberValid: false });
    const breakdown = calculatePrice(byId('mini'), { disk_space: 80, users_count: 7, period_id: '12m' }, de);
    expect(breakdown).toMatchObject({
      base_price: 17988,
      option_costs: 6420,
      period_subtotal: 24408,
      period_discount: 2441, // 2440.8
      subtotal: 21967,
      vat_rate: 19,
      vat_amount: 4174, // 4173.73
      total: 26141,
      bandwidth: 160,
    });
    expect(breakdown.lines.map((line) => [line.kind, line.quantity, line.monthly, line.amount])).toEqual([
      ['base', 1, 1499, 17988],
      ['disk_space', 3, 237, 2844],
      ['users', 2, 298, 3576],
    ]);
  });

  it('BIG ONE, 24 months, largest disk, Finnish consumer at 25.5 %', () => {
    const fi = vatFor({ country: 'FI', isBusiness: false, vatNumberValid: false });
    const breakdown = calculatePrice(
      byId('big-one'),
      { disk_space: 16378, users_count: 20, period_id: '24m' },
      fi,
    );
    expect(breakdown).toMatchObject({
      base_price: 359976,
      option_costs: 997368,
      period_subtotal: 1357344,
      period_discount: 203602, // 203601.6
      subtotal: 1153742,
      vat_rate: 25.5,
      vat_amount: 294204, // 294204.21
      total: 1447946,
    });
  });

  it('OPTIMIZED, 3 months, French business with a valid number: reverse charge', () => {
    const fr = vatFor({ country: 'FR', isBusiness: true, vatNumberValid: true });
    const breakdown = calculatePrice(
      byId('optimized'),
      { disk_space: 500, users_count: 10, period_id: '3m' },
      fr,
    );
    expect(breakdown).toMatchObject({
      base_price: 14997,
      period_discount: 450, // 449.91
      subtotal: 14547,
      vat_rate: 0,
      vat_amount: 0,
      total: 14547,
      reverse_charge: true,
      vat_reason: 'eu_business_reverse_charge',
      legal_note_key: 'reverse_charge',
    });
  });

  it('prices without VAT before the country is known', () => {
    const breakdown = calculatePrice(
      byId('starter'),
      { disk_space: 3, users_count: 2, period_id: '6m' },
      null,
    );
    expect(breakdown).toMatchObject({
      base_price: 2994,
      period_discount: 150, // 149.7
      subtotal: 2844,
      vat_rate: 0,
      vat_amount: 0,
      total: 2844,
      includes_vat: false,
      vat_reason: null,
    });
  });

  it('refuses a selection that does not validate', () => {
    const product = byId('mini');
    expect(() => calculatePrice(product, { disk_space: 55, users_count: 5, period_id: '1m' }, lt)).toThrow(
      InvalidSelectionError,
    );
    try {
      calculatePrice(product, { disk_space: 50, users_count: 5, period_id: 'nope' }, lt);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidSelectionError);
      expect((error as InvalidSelectionError).errors).toEqual([
        { field: 'period_id', code: 'period_unknown' },
      ]);
    }
  });

  it('adds VAT to a bare amount by the same rule', () => {
    expect(vatOn(1166, lt)).toEqual({ subtotal: 1166, vat_rate: 21, vat_amount: 245, total: 1411 });
  });
});

describe('calculatePrice: properties over the seed', () => {
  const countries = [...EU_COUNTRIES, 'US', 'GB', 'NO'];
  const arbitraryCase = fc
    .record({
      productIndex: fc.nat({ max: CATALOGUE_SEED.length - 1 }),
      diskShare: fc.double({ min: 0, max: 1, noNaN: true }),
      userShare: fc.double({ min: 0, max: 1, noNaN: true }),
      country: fc.constantFrom(...countries),
      isBusiness: fc.boolean(),
      vatNumberValid: fc.boolean(),
    })
    .map(({ productIndex, diskShare, userShare, ...customer }) => {
      const product = CATALOGUE_SEED[productIndex] ?? byId('starter');
      const block = findOption(product, 'disk_space')?.value ?? 1;
      const unit = findOption(product, 'users')?.value ?? 1;
      const blocks = Math.floor(((maxDiskFor(product) - product.disk_space) / block) * diskShare);
      const units = Math.floor(((maxUsersFor(product) - product.allowed_users) / unit) * userShare);
      return {
        product,
        disk_space: product.disk_space + blocks * block,
        users_count: product.allowed_users + units * unit,
        vat: vatFor(customer),
      };
    });

  it('total = subtotal after discount + VAT; every amount a whole number of cents, 0 or more', () => {
    fc.assert(
      fc.property(arbitraryCase, fc.nat({ max: 4 }), ({ product, vat, ...resources }, periodIndex) => {
        const period = product.periods[periodIndex] ?? product.periods[0];
        expectConsistent(calculatePrice(product, { ...resources, period_id: period?.id }, vat));
      }),
    );
  });

  it('a longer period never costs more per month, before or after VAT', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ product, vat, ...resources }) => {
        const periods = [...product.periods].sort((a, b) => a.months - b.months);
        const priced = periods.map((period) =>
          calculatePrice(product, { ...resources, period_id: period.id }, vat),
        );
        for (let index = 1; index < priced.length; index += 1) {
          const shorter = priced[index - 1];
          const longer = priced[index];
          if (!shorter || !longer) continue;
          // a/m ≥ b/n  ⇔  a·n ≥ b·m, so no division is needed.
          expect(shorter.subtotal * longer.months).toBeGreaterThanOrEqual(longer.subtotal * shorter.months);
          expect(shorter.total * longer.months).toBeGreaterThanOrEqual(longer.total * shorter.months);
        }
      }),
    );
  });

  it('more resources never cost less', () => {
    fc.assert(
      fc.property(arbitraryCase, ({ product, vat, ...resources }) => {
        const period_id = product.periods[0]?.id;
        const least = calculatePrice(
          product,
          { disk_space: product.disk_space, users_count: product.allowed_users, period_id },
          vat,
        );
        expect(calculatePrice(product, { ...resources, period_id }, vat).total).toBeGreaterThanOrEqual(
          least.total,
        );
      }),
    );
  });
});
