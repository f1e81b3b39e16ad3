import { describe, expect, it } from 'vitest';
import { createCatalogueSnapshotCache } from './catalogue-snapshot.ts';
import type { ProductRecord } from './products.queries.ts';

function record(id: string, priceMinor: number): ProductRecord {
  const at = new Date('2026-11-21T00:00:00Z');
  return {
    id,
    name: id.toUpperCase(),
    priceMinor,
    currency: 'EUR',
    isActive: true,
    isRecurring: true,
    diskSpaceGb: 50,
    allowedUsers: 5,
    address: 'nat',
    support: 'email',
    sortOrder: 0,
    createdAt: at,
    updatedAt: at,
    options: [],
    periods: [],
  };
}

/** A catalogue "database" whose reads are counted and can be held back. */
function fakeCatalogue() {
  let price = 1000;
  let reads = 0;
  let gate: Promise<void> = Promise.resolve();
  return {
    setPrice: (value: number) => (price = value),
    hold() {
      let release = () => {};
      gate = new Promise((resolve) => (release = resolve));
      return () => release();
    },
    get reads() {
      return reads;
    },
    load: async () => {
      reads += 1;
      const priceAtRead = price;
      await gate;
      return [record('mini', priceAtRead)];
    },
  };
}

describe('catalogue snapshot', () => {
  it('serves one read to everyone within its lifetime, and reads again after it', async () => {
    const catalogue = fakeCatalogue();
    let at = 0;
    const cache = createCatalogueSnapshotCache({ load: catalogue.load, ttlMs: 5000, now: () => at });
    const release = catalogue.hold();
    const waiting = Promise.all(Array.from({ length: 20 }, () => cache.get()));
    release();
    expect((await waiting).every((snapshot) => snapshot.get('mini').price === 1000)).toBe(true);
    expect(catalogue.reads).toBe(1);

    catalogue.setPrice(1200);
    at = 4999;
    expect((await cache.get()).get('mini').price).toBe(1000);
    at = 5000;
    expect((await cache.get()).get('mini').price).toBe(1200);
    expect(catalogue.reads).toBe(2);
  });

  it('forgets its copy, and a read already under way, when told the catalogue changed', async () => {
    const catalogue = fakeCatalogue();
    const cache = createCatalogueSnapshotCache({ load: catalogue.load, ttlMs: 60_000 });
    await cache.get();
    catalogue.setPrice(1100);
    cache.invalidate();
    expect((await cache.get()).get('mini').price).toBe(1100);

    // A read that began before a change answers its own callers but is not kept.
    const release = catalogue.hold();
    const early = cache.get();
    await new Promise((resolve) => setImmediate(resolve));
    catalogue.setPrice(1300);
    cache.invalidate();
    release();
    expect((await early).get('mini').price).toBe(1100);
    expect((await cache.get()).get('mini').price).toBe(1300);
  });

  it('keeps no failed read, and answers 404 for what the catalogue lacks', async () => {
    let fail = true;
    const cache = createCatalogueSnapshotCache({
      load: async () => {
        if (fail) throw new Error('database down');
        return [record('mini', 1000)];
      },
      ttlMs: 5000,
    });
    await expect(cache.get()).rejects.toThrow('database down');
    fail = false;
    const snapshot = await cache.get();
    expect(snapshot.list(true).map((product) => product.id)).toEqual(['mini']);
    expect(() => snapshot.get('gold')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => snapshot.config('gold')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
