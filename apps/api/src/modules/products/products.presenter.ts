import type { Product, ProductConfig } from '@debesis/contract';
import type { ProductRecord } from './products.queries.ts';

/** Largest total disk a workspace can have: 16 TB (spec §1). */
export const MAX_DISK_GB = 16 * 1024;
/** Largest number of users the picker offers. */
export const MAX_USERS = 500;

export function presentProduct(record: ProductRecord): Product {
  return {
    id: record.id,
    name: record.name,
    price: record.priceMinor,
    currency: record.currency,
    is_active: record.isActive,
    is_recuring: record.isRecurring,
    disk_space: record.diskSpaceGb,
    allowed_users: record.allowedUsers,
    address: record.address,
    support: record.support,
    options: record.options.map((option) => ({
      type: option.type,
      value: option.unitValue,
      price: option.priceMinor,
      default: option.defaultQuantity,
    })),
    periods: record.periods.map((period) => ({
      id: period.id,
      months: period.months,
      discount: period.discountPercent,
      default: period.isDefault,
    })),
  };
}

export function presentConfig(record: ProductRecord): ProductConfig {
  const product = presentProduct(record);
  const option = (type: 'disk_space' | 'users') =>
    product.options.find((candidate) => candidate.type === type);
  const disk = option('disk_space');
  const users = option('users');
  return {
    product_id: product.id,
    currency: product.currency,
    disk_space: {
      min: product.disk_space,
      max: disk ? MAX_DISK_GB : product.disk_space,
      step: disk?.value ?? 1,
      default: product.disk_space + (disk ? disk.default * disk.value : 0),
    },
    users: {
      min: product.allowed_users,
      max: users ? MAX_USERS : product.allowed_users,
      step: users?.value ?? 1,
      default: product.allowed_users + (users ? users.default * users.value : 0),
    },
    periods: product.periods,
    default_period_id: product.periods.find((period) => period.default)?.id ?? null,
    bandwidth_multiplier: 2,
  };
}
