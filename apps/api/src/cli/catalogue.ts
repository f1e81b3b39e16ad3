// `npm run catalogue -- <command>`: how operators change what is on sale, against the database
// the configuration names (DATABASE_URL, or the embedded one in DATA_DIR).
//   list                         every product with price, state, options and periods
//   set-price <id> <EUR>         new base monthly price, e.g. set-price mini 15.99
//   activate <id> / deactivate <id>
// Prices are kept in minor units; the command takes euros with at most two decimals.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { prepareDatabase } from '../db/prepare.ts';
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';

const USAGE = 'usage: npm run catalogue -- list | set-price <id> <EUR> | activate <id> | deactivate <id>';

function eurosToMinor(text: string): number {
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) throw new Error(`not a price in euros: ${text}`);
  const [whole = '0', cents = ''] = text.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

async function main(args: string[]) {
  const [command, id, value] = args;
  if (!command) throw new Error(USAGE);
  const config = loadConfig();
  const database = await openDatabase({
    dataDir: config.dataDir,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
  });
  try {
    await prepareDatabase(database);
    const products = createProductsService({ queries: createProductsQueries(database.db) });
    switch (command) {
      case 'list': {
        for (const product of await products.list(false)) {
          const periods = product.periods.map(
            (p) => `${p.months}m${p.discount ? `-${p.discount}%` : ''}${p.default ? '*' : ''}`,
          );
          const options = product.options.map((o) => `${o.type}:${o.value}@${(o.price / 100).toFixed(2)}`);
          console.log(
            `${product.id.padEnd(10)} ${product.name.padEnd(10)} ${(product.price / 100).toFixed(2).padStart(8)} EUR/month  ${product.is_active ? 'active  ' : 'inactive'}  ${product.disk_space} GB, ${product.allowed_users} users  options ${options.join(' ')}  periods ${periods.join(' ')}`,
          );
        }
        return;
      }
      case 'set-price':
        if (!id || !value) throw new Error(USAGE);
        await products.setPrice(id, eurosToMinor(value));
        console.log(`${id}: base price set to ${value} EUR a month`);
        return;
      case 'activate':
      case 'deactivate':
        if (!id) throw new Error(USAGE);
        await products.setActive(id, command === 'activate');
        console.log(`${id}: ${command}d`);
        return;
      default:
        throw new Error(USAGE);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
