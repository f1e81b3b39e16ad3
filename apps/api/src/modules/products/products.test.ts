import { describe, expect, it } from 'vitest';
import type { Product, ProductConfig } from '@debesis/contract';
import { useTestContext } from '../../test/test-app.ts';
import { createProductsQueries, type ProductInput } from './products.queries.ts';
import { createProductsService } from './products.service.ts';

const plan = (
  id: string,
  priceMinor: number,
  diskSpaceGb: number,
  allowedUsers: number,
  isActive = true,
): ProductInput => ({
  product: {
    id,
    name: id.toUpperCase(),
    priceMinor,
    diskSpaceGb,
    allowedUsers,
    address: 'dedicated',
    support: 'priority',
    isActive,
    sortOrder: priceMinor,
  },
  options: [
    { type: 'disk_space', unitValue: 10, priceMinor: 50, defaultQuantity: 0 },
    { type: 'users', unitValue: 1, priceMinor: 150, defaultQuantity: 1 },
  ],
  periods: [
    { id: '1m', months: 1, discountPercent: 0, isDefault: false },
    { id: '12m', months: 12, discountPercent: 10, isDefault: true },
  ],
});

describe('products', () => {
  const ctx = useTestContext({}, async (ctx) => {
    const service = createProductsService({ queries: createProductsQueries(ctx.database.db) });
    expect(await service.seedIfEmpty([plan('mini', 1499, 50, 5), plan('retired', 999, 10, 1, false)])).toBe(
      true,
    );
    expect(await service.seedIfEmpty([plan('other', 1, 1, 1)])).toBe(false);
  });

  it('lists active products by default, with options and periods in the spec’s shape', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/products/' });
    expect(response.statusCode).toBe(200);
    const products = response.json<Product[]>();
    expect(products.map((product) => product.id)).toEqual(['mini']);
    expect(products[0]).toEqual({
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
      options: [
        { type: 'disk_space', value: 10, price: 50, default: 0 },
        { type: 'users', value: 1, price: 150, default: 1 },
      ],
      periods: [
        { id: '1m', months: 1, discount: 0, default: false },
        { id: '12m', months: 12, discount: 10, default: true },
      ],
    });
  });

  it('lists withdrawn products only when asked', async () => {
    const all = await ctx.app.inject({ method: 'GET', url: '/api/v1/products/?is_active_only=false' });
    expect(all.json<Product[]>().map((product) => product.id)).toEqual(['retired', 'mini']);
    const bad = await ctx.app.inject({ method: 'GET', url: '/api/v1/products/?is_active_only=maybe' });
    expect(bad.statusCode).toBe(422);
  });

  it('answers one product and its picker configuration; unknown ids answer 404', async () => {
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/products/mini' })).json<Product>().price,
    ).toBe(1499);
    const config = (
      await ctx.app.inject({ method: 'GET', url: '/api/v1/products/mini/config' })
    ).json<ProductConfig>();
    expect(config).toEqual({
      product_id: 'mini',
      currency: 'EUR',
      disk_space: { min: 50, max: 16384, step: 10, default: 50 },
      users: { min: 5, max: 500, step: 1, default: 6 },
      periods: [
        { id: '1m', months: 1, discount: 0, default: false },
        { id: '12m', months: 12, discount: 10, default: true },
      ],
      default_period_id: '12m',
      bandwidth_multiplier: 2,
    });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/products/nope' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/products/..%2Fetc' })).statusCode).toBe(422);
  });
});
