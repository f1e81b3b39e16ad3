// The catalogue commands shared by `npm run catalogue` and `npm run ops -- catalogue`: list,
// set-price, activate, deactivate. Each answers the lines to print; a refusal is an Error.
import type { ProductsService } from '../modules/products/products.service.ts';

export const CATALOGUE_USAGE =
  'usage: npm run catalogue -- list | set-price <id> <EUR> | activate <id> | deactivate <id>';

function eurosToMinor(text: string): number {
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) throw new Error(`not a price in euros: ${text}`);
  const [whole = '0', cents = ''] = text.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
}

export async function catalogueCommand(
  products: Pick<ProductsService, 'list' | 'setPrice' | 'setActive'>,
  args: readonly string[],
  usage = CATALOGUE_USAGE,
): Promise<string[]> {
  const [command, id, value] = args;
  switch (command) {
    case 'list':
      return (await products.list(false)).map((product) => {
        const periods = product.periods.map(
          (p) => `${p.months}m${p.discount ? `-${p.discount}%` : ''}${p.default ? '*' : ''}`,
        );
        const options = product.options.map((o) => `${o.type}:${o.value}@${(o.price / 100).toFixed(2)}`);
        return `${product.id.padEnd(10)} ${product.name.padEnd(10)} ${(product.price / 100).toFixed(2).padStart(8)} EUR/month  ${product.is_active ? 'active  ' : 'inactive'}  ${product.disk_space} GB, ${product.allowed_users} users  options ${options.join(' ')}  periods ${periods.join(' ')}`;
      });
    case 'set-price':
      if (!id || !value) throw new Error(usage);
      await products.setPrice(id, eurosToMinor(value));
      return [`${id}: base price set to ${value} EUR a month`];
    case 'activate':
    case 'deactivate':
      if (!id) throw new Error(usage);
      await products.setActive(id, command === 'activate');
      return [`${id}: ${command}d`];
    default:
      throw new Error(usage);
  }
}
