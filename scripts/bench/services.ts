// The dashboard's signed-in reads under load. The services overview is its first call, for an
// account with 20 services bought the way a customer buys them (order, sandbox card page, signed
// event), placed on the embedded node and applied by its agent: one request reads the services,
// their plan names and the users, groups and shares counts of all 20.
import { createVerifiedAccounts, csrf, signInTokens } from '../lib/accounts.ts';
import type { RunningServer } from '../lib/processes.ts';
import { idleCpuMicrosPerSecond, measure, type LoadResult } from './load.ts';

const SERVICES = 20;
const PLAN = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Buys `count` services for the account and waits until the overview lists them all. */
async function buyServices(baseUrl: string, authorization: string, count: number): Promise<void> {
  const session = await csrf(baseUrl);
  const headers = { authorization, cookie: session.cookie, 'x-csrf-token': session.token };
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  for (let index = 0; index < count; index += 1) {
    const order = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/v1/orders/`, {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify(PLAN),
      }),
      'order',
    );
    const payment = await json<{ url: string }>(
      await fetch(`${baseUrl}/api/v1/orders/${order.id}/process`, { method: 'POST', headers }),
      'payment session',
    );
    const paid = await fetch(`${baseUrl}${new URL(payment.url).pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242+4242+4242+4242&exp_month=12&exp_year=40&cvc=123',
      redirect: 'manual',
    });
    if (paid.status !== 303) throw new Error(`sandbox payment: ${paid.status} ${await paid.text()}`);
  }
  // The worker delivers the signed events and creates the services.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const overview = await json<{ services: unknown[] }>(
      await fetch(`${baseUrl}/api/v1/services/overview`, { headers: { authorization } }),
      'overview',
    );
    if (overview.services.length >= count) return;
    if (Date.now() > deadline)
      throw new Error(`only ${overview.services.length} of ${count} services appeared`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The dashboard's signed-in reads, and beside them the cheapest signed-in call (the current user:
 * the token, its session and one row) as the yardstick of what every authenticated request costs
 * on this database: the overview of an account with 20 services and of a new account with none,
 * the plans (public, but the dashboard sends its token) and the invoices of the new account (none:
 * what the invoices page costs before its rows). With a ceiling (PostgreSQL), the bare primary-key
 * SELECT is loaded before and after them, and the ratios are to the mean of the two.
 */
export async function measureServicesOverview(
  product: RunningServer,
  durationSeconds: number,
  ceiling?: RunningServer,
): Promise<LoadResult[]> {
  const [email = '', emptyEmail = ''] = await createVerifiedAccounts(product.url, product.dataDir, 2);
  const { access_token } = await signInTokens(product.url, email);
  const authorization = `Bearer ${access_token}`;
  const empty = { authorization: `Bearer ${(await signInTokens(product.url, emptyEmail)).access_token}` };
  await buyServices(product.url, authorization, SERVICES);
  const serverPid = product.process.pid;
  const options = { durationSeconds, headers: { authorization }, serverPid };
  const { id } = await json<{ id: string }>(
    await fetch(`${product.url}/api/v1/users/me`, { headers: { authorization } }),
    'me',
  );
  // The product process also runs the worker and the embedded node (its agent passes every
  // second here): CPU it spends whatever the requests, which its per-request figures include.
  // Read before and after the reads; the lower of the two is used (the node may still be busy
  // with the new workspaces before), so the figures net of it are not flattered.
  const idleBefore = serverPid ? await idleCpuMicrosPerSecond(serverPid) : undefined;
  // The ceiling: the same account's row by its primary key, from a bare route on the same server.
  const measureCeiling = async (label: string) =>
    ceiling
      ? [
          await measure(label, `${ceiling.url}/select?id=${id}`, {
            durationSeconds,
            serverPid: ceiling.process.pid,
          }),
        ]
      : [];
  const first = await measureCeiling(CEILING_LABEL);
  const reads = [
    await measure('GET /api/v1/users/me (signed-in yardstick)', `${product.url}/api/v1/users/me`, options),
    await measure(
      `GET /api/v1/services/overview, ${SERVICES} services`,
      `${product.url}/api/v1/services/overview`,
      options,
    ),
    await measure('GET /api/v1/services/overview, no services', `${product.url}/api/v1/services/overview`, {
      durationSeconds,
      headers: empty,
      serverPid,
    }),
    await measure('GET /api/v1/products/ (signed in)', `${product.url}/api/v1/products/`, options),
    await measure('GET /api/v1/billing/invoices, no invoices', `${product.url}/api/v1/billing/invoices`, {
      durationSeconds,
      headers: empty,
      serverPid,
    }),
  ];
  const idle =
    serverPid && idleBefore !== undefined
      ? Math.min(idleBefore, await idleCpuMicrosPerSecond(serverPid))
      : undefined;
  const withIdle = (result: LoadResult): LoadResult =>
    idle === undefined ? result : { ...result, idleCpuMicrosPerSecond: idle };
  return [...first, ...reads.map(withIdle), ...(await measureCeiling(`${CEILING_LABEL}, again`))];
}

export const CEILING_LABEL = 'primary-key SELECT, bare Fastify + node-postgres (ceiling)';

/** Each signed-in read as a share of the ceiling (the mean of its loads) measured in the same run. */
export function printCeilingRatios(results: LoadResult[]): void {
  const ceilings = results.filter((r) => r.label.startsWith(CEILING_LABEL));
  const mean = ceilings.reduce((sum, r) => sum + r.requestsPerSecond, 0) / (ceilings.length || 1);
  if (mean === 0) return;
  const idle = results.find((r) => r.idleCpuMicrosPerSecond !== undefined)?.idleCpuMicrosPerSecond;
  if (idle !== undefined)
    console.log(
      `  the product process idle (worker and embedded node): ${Math.round(idle / 1_000)} ms of CPU per second`,
    );
  const cpus = ceilings.flatMap((r) => (r.cpuMicrosPerRequest ? [r.cpuMicrosPerRequest] : []));
  const ceilingCpu = cpus.reduce((sum, cpu) => sum + cpu, 0) / (cpus.length || 1);
  for (const r of results.filter((r) => r.label.startsWith('GET /api/v1/') && !r.label.includes('/health'))) {
    // Net of the process's idle rate: its background work's share of the time the load took.
    const net =
      r.cpuMicrosPerRequest && r.idleCpuMicrosPerSecond && r.requestsPerSecond > 0
        ? r.cpuMicrosPerRequest - r.idleCpuMicrosPerSecond / r.requestsPerSecond
        : undefined;
    const cpu =
      r.cpuMicrosPerRequest && ceilingCpu > 0
        ? `; its server's CPU per request ${(r.cpuMicrosPerRequest / ceilingCpu).toFixed(1)}× the ceiling's` +
          (net === undefined ? '' : ` (${(net / ceilingCpu).toFixed(1)}× net of its idle CPU)`)
        : '';
    console.log(
      `  ${r.label.split(' (')[0]}: ${(r.requestsPerSecond / mean).toFixed(2)} of the ceiling${cpu}`,
    );
  }
}
