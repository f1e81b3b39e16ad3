// The catalogue: what is on sale and at what price. Read by everyone; changed only by operators
// through the catalogue command (`npm run catalogue`), never by hand-written SQL.
import type { Product, ProductConfig } from '@debesis/contract';
import { notFound } from '../../http/app-error.ts';
import { presentConfig, presentProduct } from './products.presenter.ts';
import type { ProductInput, ProductsQueries } from './products.queries.ts';

export function createProductsService(deps: { queries: ProductsQueries }) {
  async function load(id: string) {
    const record = await deps.queries.find(id);
    if (!record) throw notFound();
    return record;
  }

  return {
    async list(activeOnly: boolean): Promise<Product[]> {
      return (await deps.queries.list(activeOnly)).map(presentProduct);
    },
    async get(id: string): Promise<Product> {
      return presentProduct(await load(id));
    },
    async config(id: string): Promise<ProductConfig> {
      return presentConfig(await load(id));
    },
    /** Puts the seed catalogue in place when the catalogue is empty; later runs change nothing. */
    async seedIfEmpty(seed: ProductInput[]): Promise<boolean> {
      if ((await deps.queries.count()) > 0) return false;
      for (const product of seed) await deps.queries.save(product);
      return true;
    },
    async save(product: ProductInput): Promise<void> {
      await deps.queries.save(product);
    },
    async setPrice(id: string, priceMinor: number): Promise<void> {
      if (!(await deps.queries.update(id, { priceMinor }))) throw notFound();
    },
    async setActive(id: string, isActive: boolean): Promise<void> {
      if (!(await deps.queries.update(id, { isActive }))) throw notFound();
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
