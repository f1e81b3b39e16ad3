// The catalogue: what is on sale and at what price. Read by everyone; changed only by operators
// through the catalogue command (`npm run catalogue`), never by hand-written SQL.
// `list`, `get` and `config` read the database; `snapshot()` answers from a copy a few seconds
// old at most, for previews (see catalogue-snapshot.ts), and every change here drops that copy.
import type { Product, ProductConfig } from '@debesis/contract';
import { notFound } from '../../http/app-error.ts';
import { type CatalogueSnapshot, createCatalogueSnapshotCache } from './catalogue-snapshot.ts';
import { presentConfig, presentProduct } from './products.presenter.ts';
import type { ProductInput, ProductsQueries } from './products.queries.ts';

export function createProductsService(deps: {
  queries: ProductsQueries;
  /** How long the preview copy of the catalogue answers, in milliseconds (default 5 s). */
  snapshotTtlMs?: number;
}) {
  const snapshots = createCatalogueSnapshotCache({
    load: () => deps.queries.list(false),
    ttlMs: deps.snapshotTtlMs ?? 5000,
  });

  // Drops the preview copy after a change, failed ones too: an error such as a lost connection
  // does not prove that nothing was committed.
  async function changing<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      snapshots.invalidate();
    }
  }

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
    /** The whole catalogue as of at most `snapshotTtlMs` ago: for previews, never for charging. */
    snapshot(): Promise<CatalogueSnapshot> {
      return snapshots.get();
    },
    /** Puts the seed catalogue in place when the catalogue is empty; later runs change nothing. */
    async seedIfEmpty(seed: ProductInput[]): Promise<boolean> {
      if ((await deps.queries.count()) > 0) return false;
      await changing(async () => {
        for (const product of seed) await deps.queries.save(product);
      });
      return true;
    },
    async save(product: ProductInput): Promise<void> {
      await changing(() => deps.queries.save(product));
    },
    async setPrice(id: string, priceMinor: number): Promise<void> {
      if (!(await changing(() => deps.queries.update(id, { priceMinor })))) throw notFound();
    },
    async setActive(id: string, isActive: boolean): Promise<void> {
      if (!(await changing(() => deps.queries.update(id, { isActive })))) throw notFound();
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
