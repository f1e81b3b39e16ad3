import { describe, expect, it } from 'vitest';
import { CATALOGUE_SEED } from './catalogue.ts';
import {
  type PricingProduct,
  bandwidthFor,
  defaultOption,
  defaultPeriod,
  defaultSelection,
  extraUnits,
  maxDiskFor,
  maxUsersFor,
  optionCost,
  periodDiscount,
  selectedOptionsFor,
  validateSelection,
} from './product.ts';

const [starter, mini, , bigOne] = CATALOGUE_SEED;
if (!starter || !mini || !bigOne) throw new Error('seed incomplete');

const bare: PricingProduct = {
  id: 'bare',
  name: 'Bare',
  price: 100,
  disk_space: 10,
  allowed_users: 1,
  options: [],
  periods: [{ id: '1m', months: 1, discount: 0, default: false }],
};

describe('product helpers (spec §5)', () => {
  it('default option: the default extra units of that type, 0 if none', () => {
    expect(defaultOption(mini, 'disk_space')).toBe(0);
    expect(defaultOption(bare, 'users')).toBe(0);
    const withDefault: PricingProduct = {
      ...bare,
      options: [{ type: 'users', value: 1, price: 100, default: 3 }],
    };
    expect(defaultOption(withDefault, 'users')).toBe(3);
    expect(defaultOption(withDefault, 'disk_space')).toBe(0);
    expect(defaultSelection(withDefault)).toEqual({ disk_space: 10, users_count: 4, period_id: null });
  });

  it('default period: the one flagged default', () => {
    expect(defaultPeriod(mini)?.id).toBe('1m');
    expect(defaultPeriod(bare)).toBeUndefined();
  });

  it('period discount: 0 when no period or an unknown one', () => {
    expect(periodDiscount(mini, '12m')).toBe(10);
    expect(periodDiscount(mini, '24m')).toBe(15);
    expect(periodDiscount(mini)).toBe(0);
    expect(periodDiscount(mini, null)).toBe(0);
    expect(periodDiscount(mini, 'nope')).toBe(0);
  });

  it('option cost: price × quantity, 0 if the option is not found', () => {
    expect(optionCost(mini, 'disk_space', 3)).toBe(3 * 79);
    expect(optionCost(mini, 'users', 2)).toBe(2 * 149);
    expect(optionCost(bare, 'users', 5)).toBe(0);
    expect(() => optionCost(mini, 'users', 1.5)).toThrow(RangeError);
  });

  it('bandwidth is twice the disk', () => {
    expect(bandwidthFor(50)).toBe(100);
    expect(bandwidthFor(2048)).toBe(4096);
  });

  it('largest disk stays within 16 TB on a whole block', () => {
    expect(maxDiskFor(starter)).toBe(16383);
    expect(maxDiskFor(mini)).toBe(16380);
    expect(maxDiskFor(bigOne)).toBe(16378);
    expect(maxDiskFor(bare)).toBe(10);
    expect(maxUsersFor(mini)).toBe(500);
    expect(maxUsersFor(bare)).toBe(1);
  });

  it('extra units and the spec selected_options of a selection', () => {
    const selection = { disk_space: 80, users_count: 7, period_id: '1m' };
    expect(extraUnits(mini, selection)).toEqual({ disk_space: 3, users: 2 });
    expect(selectedOptionsFor(mini, selection)).toEqual([
      { type: 'disk_space', value: 30 },
      { type: 'users', value: 2 },
    ]);
  });
});

describe('validateSelection', () => {
  const ok = { disk_space: 50, users_count: 5, period_id: '1m' };
  it('accepts the included resources and whole extra units', () => {
    expect(validateSelection(mini, ok)).toEqual([]);
    expect(validateSelection(mini, { ...ok, disk_space: 16380, users_count: 500 })).toEqual([]);
    expect(validateSelection(bigOne, { ...ok, disk_space: 16378, users_count: 20 })).toEqual([]);
  });

  it.each([
    [{ disk_space: 40 }, { field: 'disk_space', code: 'below_included', limit: 50 }],
    [{ disk_space: 16390 }, { field: 'disk_space', code: 'above_max', limit: 16384 }],
    [{ disk_space: 55 }, { field: 'disk_space', code: 'not_multiple_of_unit', limit: 10 }],
    [{ disk_space: 50.5 }, { field: 'disk_space', code: 'not_integer' }],
    [{ users_count: 4 }, { field: 'users_count', code: 'below_included', limit: 5 }],
    [{ users_count: 501 }, { field: 'users_count', code: 'above_max', limit: 500 }],
    [{ period_id: '5m' }, { field: 'period_id', code: 'period_unknown' }],
    [{ period_id: null }, { field: 'period_id', code: 'period_required' }],
  ])('%o gives %o', (change, error) => {
    expect(validateSelection(mini, { ...ok, ...change })).toEqual([error]);
  });

  it('refuses extras a product does not offer', () => {
    expect(validateSelection(bare, { disk_space: 20, users_count: 2, period_id: '1m' })).toEqual([
      { field: 'disk_space', code: 'option_not_offered', limit: 10 },
      { field: 'users_count', code: 'option_not_offered', limit: 1 },
    ]);
  });
});
