// The catalogue Debesis starts with (spec §1): four plans, their extras and periods, at the prices a
// provider would set. The API seeds its database from this constant and the tests price every
// combination of it, so both work from the same numbers. Later price changes are the operators' job
// (in the database); this seed is not read again once a catalogue exists.
import type { Currency } from './money.ts';
import type { PricingProduct, ProductOption, ProductPeriod } from './product.ts';

export interface CatalogueProduct extends PricingProduct {
  currency: Currency;
  is_active: boolean;
  /** Spelled as the spec spells it. */
  is_recuring: boolean;
  address: 'nat' | 'dedicated';
  support: 'email' | 'priority' | '24/7';
  options: ProductOption[];
  periods: ProductPeriod[];
}

/** 1, 3, 6, 12 and 24 months; the longer, the larger the discount; monthly billing by default. */
export const SEED_PERIODS: readonly ProductPeriod[] = [
  { id: '1m', months: 1, discount: 0, default: true },
  { id: '3m', months: 3, discount: 3, default: false },
  { id: '6m', months: 6, discount: 5, default: false },
  { id: '12m', months: 12, discount: 10, default: false },
  { id: '24m', months: 24, discount: 15, default: false },
];

/**
 * GB in one extra-disk block, the same on every plan. Starter's sizes therefore run 3, 13, 23 GB
 * (its 3 GB included plus whole blocks): kept on purpose, since a block is what the node reserves
 * and what an invoice line counts, and the picker says so ("3 GB included; add more in steps of
 * 10 GB"). Rounding Starter to 10, 20… would either give away 7 GB or price a part block.
 */
export const DISK_BLOCK_GB = 10;

function extras(diskBlockPrice: number, userPrice: number): ProductOption[] {
  return [
    { type: 'disk_space', value: DISK_BLOCK_GB, price: diskBlockPrice, default: 0 },
    { type: 'users', value: 1, price: userPrice, default: 0 },
  ];
}

/** In display order. Prices are monthly, in cents; extra disk per 10 GB block, extra users per user. */
export const CATALOGUE_SEED: readonly CatalogueProduct[] = [
  {
    id: 'starter',
    name: 'Starter',
    price: 499,
    currency: 'EUR',
    is_active: true,
    is_recuring: true,
    disk_space: 3,
    allowed_users: 2,
    address: 'nat',
    support: 'email',
    options: extras(99, 199),
    periods: SEED_PERIODS.map((period) => ({ ...period })),
  },
  {
    id: 'mini',
    name: 'MINI',
    price: 1499,
    currency: 'EUR',
    is_active: true,
    is_recuring: true,
    disk_space: 50,
    allowed_users: 5,
    address: 'dedicated',
    support: 'priority',
    options: extras(79, 149),
    periods: SEED_PERIODS.map((period) => ({ ...period })),
  },
  {
    id: 'optimized',
    name: 'OPTIMIZED',
    price: 4999,
    currency: 'EUR',
    is_active: true,
    is_recuring: true,
    disk_space: 500,
    allowed_users: 10,
    address: 'dedicated',
    support: '24/7',
    options: extras(49, 99),
    periods: SEED_PERIODS.map((period) => ({ ...period })),
  },
  {
    id: 'big-one',
    name: 'BIG ONE',
    price: 14999,
    currency: 'EUR',
    is_active: true,
    is_recuring: true,
    disk_space: 2048,
    allowed_users: 20,
    address: 'dedicated',
    support: '24/7',
    options: extras(29, 79),
    periods: SEED_PERIODS.map((period) => ({ ...period })),
  },
];
