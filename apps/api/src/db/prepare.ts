// What every entry point does before using the database: apply migrations, then put the
// standard catalogue in place if there is none. Both steps are idempotent, and processes that
// start at once on one server take them one at a time (two migrators side by side would both
// try to create the same tables).
import { SEED_CATALOGUE } from '../modules/products/catalogue-seed.ts';
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';
import type { Database } from './database.ts';

export async function prepareDatabase(database: Database): Promise<{ seeded: boolean }> {
  return database.exclusively(async () => {
    await database.migrate();
    const products = createProductsService({ queries: createProductsQueries(database.db) });
    return { seeded: await products.seedIfEmpty(SEED_CATALOGUE) };
  });
}
