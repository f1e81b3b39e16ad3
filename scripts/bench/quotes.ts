// calculate-price under load: the plan picker asks it on every change, so it must stay cheap.
import type { RunningServer } from '../lib/processes.ts';
import { measure, type LoadResult } from './load.ts';

export async function measureCalculatePrice(
  product: RunningServer,
  durationSeconds: number,
): Promise<LoadResult> {
  const csrf = await fetch(`${product.url}/api/v1/csrf`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const { csrf_token } = (await csrf.json()) as { csrf_token: string };
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
