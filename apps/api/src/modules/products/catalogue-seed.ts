// The catalogue a new installation starts with, taken from the pricing package so the numbers
// the tests check are the numbers on sale.
import type { Product } from '@debesis/contract';
import { CATALOGUE_SEED } from '@debesis/pricing';
import type { ProductInput } from './products.queries.ts';

export function productInput(product: Product, sortOrder: number): ProductInput {
  return {
    product: {
      id: product.id,
      name: product.name,
      priceMinor: product.price,
      currency: product.currency,
      isActive: product.is_active,
      isRecurring: product.is_recuring,
      diskSpaceGb: product.disk_space,
      allowedUsers: product.allowed_users,
      address: product.address,
      support: product.support,
      sortOrder,
    },
    options: product.options.map((option) => ({
      type: option.type,
      unitValue: option.value,
      priceMinor: option.price,
      defaultQuantity: option.default,
    })),
    periods: product.periods.map((period) => ({
      id: period.id,
      months: period.months,
      discountPercent: period.discount,
      isDefault: period.default,
    })),
  };
}

export const SEED_CATALOGUE: ProductInput[] = CATALOGUE_SEED.map((product, index) =>
  productInput(product, index),
);
