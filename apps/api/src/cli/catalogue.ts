// `npm run catalogue -- <command>`: how operators change what is on sale, against the database
// the configuration names (DATABASE_URL, or the embedded one in DATA_DIR).
//   list                         every product with price, state, options and periods
//   set-price <id> <EUR>         new base monthly price, e.g. set-price mini 15.99
//   activate <id> / deactivate <id>
// Prices are kept in minor units; the command takes euros with at most two decimals.
// `npm run ops -- catalogue …` runs the same commands.
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';
import { CATALOGUE_USAGE, catalogueCommand } from './catalogue-commands.ts';
import { openConfiguredDatabase } from './configured-database.ts';

async function main(args: string[]) {
  if (!args[0]) throw new Error(CATALOGUE_USAGE);
  const { database } = await openConfiguredDatabase();
  try {
    const products = createProductsService({ queries: createProductsQueries(database.db) });
    const lines = await catalogueCommand(products, args);
    if (lines.length > 0) console.log(lines.join('\n'));
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
