// A short-lived in-memory copy of the whole catalogue, for the answers that are asked for on
// every change in the plan picker (price previews, the product list). The catalogue is a handful
// of rows that change a few times a year, while a preview reading it from the database costs
// three queries; on the embedded PGlite, whose WebAssembly runs on the event loop, those queries
// were most of a preview's time.
//
// Freshness: a change made through this process's ProductsService drops the copy at once; a
// change made by another process (the `npm run catalogue` command, another API process) shows
// after at most `ttlMs`. Orders never read from here: they price from the database, so what a
// customer is charged always follows the catalogue as committed.
import type { Product, ProductConfig } from '@debesis/contract';
import { notFound } from '../../http/app-error.ts';
import { presentConfig, presentProduct } from './products.presenter.ts';
import type { ProductRecord } from './products.queries.ts';

export interface CatalogueSnapshot {
  /** Every product, active or not, in catalogue order. */
  list(activeOnly: boolean): Product[];
  /** One product as GET /products/:id presents it; 404 when there is none. */
  get(id: string): Product;
  config(id: string): ProductConfig;
}

function buildSnapshot(records: ProductRecord[]): CatalogueSnapshot {
  const all = records.map(presentProduct);
  const active = all.filter((product) => product.is_active);
  const byId = new Map(all.map((product) => [product.id, product]));
  const configs = new Map(records.map((record) => [record.id, presentConfig(record)]));
  return {
    list: (activeOnly) => (activeOnly ? active : all),
    get(id) {
      const product = byId.get(id);
      if (!product) throw notFound();
      return product;
    },
    config(id) {
      const config = configs.get(id);
      if (!config) throw notFound();
      return config;
    },
  };
}

export interface CatalogueSnapshotCache {
  get(): Promise<CatalogueSnapshot>;
  /** Forgets the copy (and any load under way), so the next caller reads the database. */
  invalidate(): void;
}

export function createCatalogueSnapshotCache(deps: {
  load: () => Promise<ProductRecord[]>;
  /** How long one copy answers; 0 keeps none (callers arriving during one read still share it). */
  ttlMs: number;
  now?: () => number;
}): CatalogueSnapshotCache {
  const now = deps.now ?? Date.now;
  let current: { snapshot: CatalogueSnapshot; loadedAt: number } | null = null;
  let loading: Promise<CatalogueSnapshot> | null = null;
  // Bumped by invalidate(): a load that started before a change must not be kept as current.
  let generation = 0;

  return {
    get() {
      if (current && now() - current.loadedAt < deps.ttlMs) return Promise.resolve(current.snapshot);
      // One load serves everybody who asks while it runs: under load, an expired copy costs one
      // trip to the database, not one per waiting request.
      if (loading) return loading;
      const startedGeneration = generation;
      const startedAt = now();
      const promise = Promise.resolve()
        .then(deps.load)
        .then((records) => {
          const snapshot = buildSnapshot(records);
          if (generation === startedGeneration && deps.ttlMs > 0) current = { snapshot, loadedAt: startedAt };
          return snapshot;
        });
      loading = promise;
      // A failed load is not kept: the next caller tries again.
      const settle = () => {
        if (loading === promise) loading = null;
      };
      void promise.then(settle, settle);
      return promise;
    },
    invalidate() {
      generation += 1;
      current = null;
      loading = null;
    },
  };
}
