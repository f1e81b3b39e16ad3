import { describe, expect, it } from 'vitest';
import { CATALOGUE_SEED, DISK_BLOCK_GB } from './catalogue.ts';
import { assertValidProduct, defaultPeriod } from './product.ts';

describe('CATALOGUE_SEED', () => {
  it('holds the four plans of the spec with their disk, users and address', () => {
    expect(
      CATALOGUE_SEED.map((product) => [
        product.name,
        product.disk_space,
        product.allowed_users,
        product.address,
        product.support,
      ]),
    ).toEqual([
      ['Starter', 3, 2, 'nat', 'email'],
      ['MINI', 50, 5, 'dedicated', 'priority'],
      ['OPTIMIZED', 500, 10, 'dedicated', '24/7'],
      ['BIG ONE', 2048, 20, 'dedicated', '24/7'],
    ]);
  });

  it('starts at the advertised 4.99 EUR a month, and bigger plans cost more', () => {
    expect(CATALOGUE_SEED.map((product) => product.price)).toEqual([499, 1499, 4999, 14999]);
  });

  it.each(CATALOGUE_SEED.map((product) => [product.name, product] as const))(
    '%s is well formed',
    (_name, product) => {
      expect(() => assertValidProduct(product)).not.toThrow();
      expect(product.currency).toBe('EUR');
      expect(product.options.map((option) => [option.type, option.value])).toEqual([
        ['disk_space', DISK_BLOCK_GB],
        ['users', 1],
      ]);
      expect(product.periods.map((period) => period.months)).toEqual([1, 3, 6, 12, 24]);
      const discounts = product.periods.map((period) => period.discount);
      expect(discounts).toEqual([...discounts].sort((a, b) => a - b));
      expect(new Set(discounts).size).toBe(discounts.length);
      expect(defaultPeriod(product)?.id).toBe('1m');
    },
  );

  it('makes extra disk and users cheaper per unit on bigger plans', () => {
    for (const type of ['disk_space', 'users'] as const) {
      const prices = CATALOGUE_SEED.map(
        (product) => product.options.find((option) => option.type === type)?.price ?? 0,
      );
      expect(prices).toEqual([...prices].sort((a, b) => b - a));
    }
  });
});
