// The product as pricing sees it (spec §3 "Product") and the product helpers of spec §5. The field
// names are the spec's and the contract's, so a `Product` from @debesis/contract can be passed as is.
import { assertMinor, percentToBasisPoints } from './money.ts';

export const OPTION_TYPES = ['disk_space', 'users'] as const;
export type OptionType = (typeof OPTION_TYPES)[number];

export interface ProductOption {
  type: OptionType;
  /** Size of one unit: GB per disk block, users per user unit. */
  value: number;
  /** Monthly price of one unit, minor units. */
  price: number;
  /** Extra units chosen by default. */
  default: number;
}

export interface ProductPeriod {
  id: string;
  months: number;
  /** Percent off the period subtotal (0–100, at most two decimals). */
  discount: number;
  default: boolean;
}

export interface PricingProduct {
  id: string;
  name: string;
  /** Base monthly price, minor units. */
  price: number;
  /** Included disk, GB. */
  disk_space: number;
  /** Included users. */
  allowed_users: number;
  options: readonly ProductOption[];
  periods: readonly ProductPeriod[];
}

/** What a customer picks: totals (included plus extra), not extras. */
export interface PlanSelection {
  /** Total disk, GB. */
  disk_space: number;
  /** Total users. */
  users_count: number;
  period_id: string | null | undefined;
}

/** Drives go up to 16 TB (spec §1); the total disk of a service, in GB (1 TB = 1024 GB). */
export const MAX_DISK_GB = 16 * 1024;
/** The most users the plan picker offers (the API's product config uses the same bound). */
export const MAX_USERS = 500;
/** Bandwidth equals two times disk space (spec §9). */
export const BANDWIDTH_MULTIPLIER = 2;

export function findOption(product: PricingProduct, type: OptionType): ProductOption | undefined {
  return product.options.find((option) => option.type === type);
}

/** Spec §5: the default extra units of the option of `type`; 0 if the product has no such option. */
export function defaultOption(product: PricingProduct, type: OptionType): number {
  return findOption(product, type)?.default ?? 0;
}

/** Spec §5: the period flagged default (the first one if several are; undefined if none is). */
export function defaultPeriod(product: PricingProduct): ProductPeriod | undefined {
  return product.periods.find((period) => period.default);
}

export function findPeriod(
  product: PricingProduct,
  periodId: string | null | undefined,
): ProductPeriod | undefined {
  if (periodId === null || periodId === undefined) return undefined;
  return product.periods.find((period) => period.id === periodId);
}

/** Spec §5: the period's discount in percent; 0 when no period is chosen or the id is unknown. */
export function periodDiscount(product: PricingProduct, periodId?: string | null): number {
  return findPeriod(product, periodId)?.discount ?? 0;
}

/** Spec §5: monthly cost of `quantity` units of the option: price × quantity; 0 if there is no such option. */
export function optionCost(product: PricingProduct, type: OptionType, quantity: number): number {
  const option = findOption(product, type);
  if (!option) return 0;
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError('quantity must be a whole number of units, 0 or more');
  }
  return option.price * quantity;
}

/** Spec §9: bandwidth is two times the disk space (same unit as given). */
export function bandwidthFor(diskGb: number): number {
  return BANDWIDTH_MULTIPLIER * diskGb;
}

/** The largest total disk the product can be configured with: within 16 TB, on a whole block. */
export function maxDiskFor(product: PricingProduct): number {
  const option = findOption(product, 'disk_space');
  if (!option) return product.disk_space;
  const blocks = Math.floor((MAX_DISK_GB - product.disk_space) / option.value);
  return product.disk_space + Math.max(0, blocks) * option.value;
}

/** The largest number of users the product can be configured with, on a whole unit. */
export function maxUsersFor(product: PricingProduct): number {
  const option = findOption(product, 'users');
  if (!option) return product.allowed_users;
  const units = Math.floor((MAX_USERS - product.allowed_users) / option.value);
  return product.allowed_users + Math.max(0, units) * option.value;
}

/** The selection a product starts with: its included resources plus the default extras, default period. */
export function defaultSelection(product: PricingProduct): PlanSelection {
  const disk = findOption(product, 'disk_space');
  const users = findOption(product, 'users');
  return {
    disk_space: product.disk_space + (disk ? disk.default * disk.value : 0),
    users_count: product.allowed_users + (users ? users.default * users.value : 0),
    period_id: defaultPeriod(product)?.id ?? null,
  };
}

export const SELECTION_ERROR_CODES = [
  'not_integer',
  'below_included',
  'above_max',
  'not_multiple_of_unit',
  'option_not_offered',
  'period_required',
  'period_unknown',
] as const;
export type SelectionErrorCode = (typeof SELECTION_ERROR_CODES)[number];

export interface SelectionError {
  field: 'disk_space' | 'users_count' | 'period_id';
  code: SelectionErrorCode;
  /** The bound or step the value broke, where there is one (GB for disk, users for users). */
  limit?: number;
}

/**
 * Field errors of a selection for a product; empty when the selection can be priced. Disk and users
 * are totals: at least what the plan includes, extra only in whole option units, disk within 16 TB.
 */
export function validateSelection(product: PricingProduct, selection: PlanSelection): SelectionError[] {
  const errors: SelectionError[] = [];
  const resources = [
    {
      field: 'disk_space',
      type: 'disk_space',
      value: selection.disk_space,
      included: product.disk_space,
      max: MAX_DISK_GB,
    },
    {
      field: 'users_count',
      type: 'users',
      value: selection.users_count,
      included: product.allowed_users,
      max: MAX_USERS,
    },
  ] as const;
  for (const { field, type, value, included, max } of resources) {
    if (!Number.isSafeInteger(value)) {
      errors.push({ field, code: 'not_integer' });
      continue;
    }
    if (value < included) {
      errors.push({ field, code: 'below_included', limit: included });
      continue;
    }
    if (value === included) continue;
    const option = findOption(product, type);
    if (!option) {
      errors.push({ field, code: 'option_not_offered', limit: included });
      continue;
    }
    if (value > max) errors.push({ field, code: 'above_max', limit: max });
    else if ((value - included) % option.value !== 0) {
      errors.push({ field, code: 'not_multiple_of_unit', limit: option.value });
    }
  }
  if (selection.period_id === null || selection.period_id === undefined || selection.period_id === '') {
    errors.push({ field: 'period_id', code: 'period_required' });
  } else if (!findPeriod(product, selection.period_id)) {
    errors.push({ field: 'period_id', code: 'period_unknown' });
  }
  return errors;
}

/** Extra units of each option a valid selection takes (0 when the option is absent or not used). */
export function extraUnits(product: PricingProduct, selection: PlanSelection): Record<OptionType, number> {
  const disk = findOption(product, 'disk_space');
  const users = findOption(product, 'users');
  return {
    disk_space: disk ? Math.max(0, selection.disk_space - product.disk_space) / disk.value : 0,
    users: users ? Math.max(0, selection.users_count - product.allowed_users) / users.value : 0,
  };
}

/**
 * The spec's `selected_options` of a selection: one entry per option type with the extra amount in
 * the option's own measure (GB of extra disk, extra users), as the plan picker keeps it.
 */
export function selectedOptionsFor(
  product: PricingProduct,
  selection: PlanSelection,
): Array<{ type: OptionType; value: number }> {
  return [
    { type: 'disk_space', value: Math.max(0, selection.disk_space - product.disk_space) },
    { type: 'users', value: Math.max(0, selection.users_count - product.allowed_users) },
  ];
}

/** Throws a RangeError naming the first thing wrong with a product's numbers; for seeds and tests. */
export function assertValidProduct(product: PricingProduct): void {
  assertMinor(product.price, `${product.id}.price`);
  if (product.price < 0) throw new RangeError(`${product.id}.price must not be negative`);
  for (const [name, value] of [
    ['disk_space', product.disk_space],
    ['allowed_users', product.allowed_users],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`${product.id}.${name} must be a positive integer`);
  }
  for (const type of OPTION_TYPES) {
    if (product.options.filter((option) => option.type === type).length > 1) {
      throw new RangeError(`${product.id} has more than one ${type} option`);
    }
  }
  for (const option of product.options) {
    if (!Number.isSafeInteger(option.value) || option.value <= 0)
      throw new RangeError(`${product.id} option value`);
    if (!Number.isSafeInteger(option.price) || option.price < 0)
      throw new RangeError(`${product.id} option price`);
    if (!Number.isSafeInteger(option.default) || option.default < 0)
      throw new RangeError(`${product.id} option default`);
  }
  if (product.periods.filter((period) => period.default).length > 1) {
    throw new RangeError(`${product.id} has more than one default period`);
  }
  for (const period of product.periods) {
    if (!Number.isSafeInteger(period.months) || period.months <= 0)
      throw new RangeError(`${product.id} period months`);
    percentToBasisPoints(period.discount);
  }
}
