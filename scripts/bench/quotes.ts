// calculate-price under load: the plan picker asks it on every change, so it must stay cheap.
import { csrf } from '../lib/accounts.ts';
import type { RunningServer } from '../lib/processes.ts';
import { measure, type LoadResult } from './load.ts';

export async function measureCalculatePrice(
  product: RunningServer,
  durationSeconds: number,
): Promise<LoadResult> {
  const { cookie, token: csrf_token } = await csrf(product.url);
  return measure(
    'POST /api/v1/orders/calculate-price?country=LT',
    `${product.url}/api/v1/orders/calculate-price?country=LT`,
    {
      durationSeconds,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf_token },
      body: JSON.stringify({ product_id: 'mini', disk_space: 120, users_count: 8, period_id: '12m' }),
    },
  );
}
