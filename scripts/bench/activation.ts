// Paid → active: from a completed sandbox payment of a new workspace order until the service's
// status is `active` (the worker has delivered the signed event and created the service, it is
// placed on the embedded node and that node's agent has applied its workspace and reported).
// The product runs as its own process on a fresh embedded PGlite data folder; one verified account
// buys the cheapest plan ACTIVATIONS times, one order at a time, each its own service. Live
// (disk image, network namespace, smbd) as root with samba installed, else the render-only path,
// and the output says which. Afterwards every service is terminated through the API and its
// node's removal awaited; whatever is still left (smbd, mount, loop device, workspace network)
// is removed by force before the data folder goes.
import { csrf, createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import {
  findLeftovers,
  isClean,
  liveWorkspacesUnavailable,
  removeLeftovers,
} from '../lib/live-workspaces.ts';
import { LIVE_ADDRESS_POOL, startProduct } from '../lib/processes.ts';

export interface ActivationFigures {
  mode: string;
  plan: string;
  /** Paid → active of each order, in order, ms. */
  runsMs: number[];
  medianMs: number;
  maxMs: number;
}

const ACTIVATIONS = 5;
const POLL_MS = 50;
const ACTIVE_WITHIN_MS = 30_000;
const REMOVED_WITHIN_MS = 60_000;

interface CatalogueProduct {
  id: string;
  name: string;
  price: number;
  disk_space: number;
  allowed_users: number;
  periods: { id: string; months: number; default: boolean }[];
}
interface ServiceState {
  id: string;
  name: string;
  status: string;
  apply_status: string;
}

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cheapest active plan as it comes (included disk and users, one month when offered). */
async function cheapestPlan(baseUrl: string) {
  const products = await json<CatalogueProduct[]>(await fetch(`${baseUrl}/api/v1/products/`), 'products');
  const [product] = [...products].sort((a, b) => a.price - b.price);
  if (!product) throw new Error('the catalogue is empty');
  const period =
    product.periods.find((p) => p.months === 1) ??
    product.periods.find((p) => p.default) ??
    product.periods[0];
  if (!period) throw new Error(`${product.id} has no billing period`);
  return {
    label: `${product.name} (${product.disk_space} GB, ${product.allowed_users} users)`,
    order: {
      product_id: product.id,
      disk_space: product.disk_space,
      users_count: product.allowed_users,
      period_id: period.id,
    },
  };
}

export async function measureActivation(): Promise<ActivationFigures> {
  const unavailable = liveWorkspacesUnavailable();
  const live = unavailable === undefined;
  const mode = live
    ? 'live: image, network namespace, smbd'
    : `render only (${unavailable ?? ''}; the agent renders and checks, mounts and starts nothing)`;
  const product = await startProduct({}, { liveWorkspaces: live });
  const baseUrl = product.url;
  const serviceIds: string[] = [];
  let authorization = '';
  try {
    const [email = ''] = await createVerifiedAccounts(baseUrl, product.dataDir, 1);
    authorization = `Bearer ${(await signInTokens(baseUrl, email)).access_token}`;
    const session = await csrf(baseUrl);
    const headers = { authorization, cookie: session.cookie, 'x-csrf-token': session.token };
    const plan = await cheapestPlan(baseUrl);

    const runsMs: number[] = [];
    for (let run = 1; run <= ACTIVATIONS; run += 1) {
      const name = `bench-activation-${run}`;
      const order = await json<{ id: string }>(
        await fetch(`${baseUrl}/api/v1/orders/`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ ...plan.order, name }),
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
      // Paid: the clock starts when the card page has accepted the payment.
      const paidAt = performance.now();
      let last: ServiceState | undefined;
      for (;;) {
        const { services } = await json<{ services: ServiceState[] }>(
          await fetch(`${baseUrl}/api/v1/services/status`, { headers: { authorization } }),
          'services status',
        );
        last = services.find((service) => service.name === name);
        if (last && !serviceIds.includes(last.id)) serviceIds.push(last.id);
        if (last?.status === 'active') break;
        if (performance.now() - paidAt > ACTIVE_WITHIN_MS) {
          const detail = last
            ? await fetch(`${baseUrl}/api/v1/services/${last.id}/status`, { headers }).then((r) => r.text())
            : 'no service yet';
          throw new Error(`order ${run} not active within ${ACTIVE_WITHIN_MS} ms of payment: ${detail}`);
        }
        await sleep(POLL_MS);
      }
      runsMs.push(Math.round(performance.now() - paidAt));
    }
    const sorted = [...runsMs].sort((a, b) => a - b);
    return {
      mode,
      plan: plan.label,
      runsMs,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      maxMs: sorted[sorted.length - 1] ?? 0,
    };
  } finally {
    // The agent's removal path first (smbd stopped, namespace deleted, image unmounted and
    // detached), then by force whatever of this data folder is still on the machine.
    const failures: string[] = [];
    // The addresses this run's workspaces were given: only their networks are ours to remove.
    const addresses = authorization
      ? await fetch(`${baseUrl}/api/v1/services/overview`, { headers: { authorization } })
          .then((r) => json<{ services: { id: string; ip_address: string | null }[] }>(r, 'overview'))
          .then(({ services }) =>
            services.filter((s) => serviceIds.includes(s.id)).map((s) => s.ip_address ?? ''),
          )
          .catch(() => [] as string[])
      : [];
    if (authorization) {
      for (const id of serviceIds) {
        await terminate(baseUrl, authorization, id).catch((error: unknown) => failures.push(String(error)));
      }
    }
    const left = findLeftovers(product.dataDir, LIVE_ADDRESS_POOL);
    left.addresses = left.addresses.filter((route) => addresses.includes(route.split(' dev ')[0] ?? ''));
    if (!isClean(left)) {
      failures.push(`left after removal, removed by force: ${JSON.stringify(left)}`);
      removeLeftovers(left);
    }
    await product.stop();
    for (const failure of failures) console.warn(`  clean-up: ${failure}`);
  }
}

/** Terminates the service (cancelling it first if terminating is refused) and waits for its node. */
async function terminate(baseUrl: string, authorization: string, serviceId: string): Promise<void> {
  const session = await csrf(baseUrl);
  const headers = { authorization, cookie: session.cookie, 'x-csrf-token': session.token };
  const act = (action: 'cancel' | 'terminate') =>
    fetch(`${baseUrl}/api/v1/services/${serviceId}/action`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ action }),
    });
  let response = await act('terminate');
  if (response.status === 409) {
    await act('cancel');
    response = await act('terminate');
  }
  if (response.status !== 200)
    throw new Error(`terminate ${serviceId}: ${response.status} ${await response.text()}`);
  const deadline = Date.now() + REMOVED_WITHIN_MS;
  for (;;) {
    const body = await json<ServiceState>(
      await fetch(`${baseUrl}/api/v1/services/${serviceId}/status`, { headers }),
      'service status',
    );
    if (body.status === 'terminated' && body.apply_status === 'applied') return;
    if (Date.now() > deadline) throw new Error(`${serviceId} was not removed: ${JSON.stringify(body)}`);
    await sleep(250);
  }
}

export function printActivation(figures: ActivationFigures) {
  console.log(
    `\nPaid → active, ${figures.runsMs.length} new orders of ${figures.plan}, one at a time (${figures.mode})`,
  );
  console.log('| median | max | each |');
  console.log('|---:|---:|---|');
  console.log(`| ${figures.medianMs} ms | ${figures.maxMs} ms | ${figures.runsMs.join(', ')} ms |`);
}

// `tsx scripts/bench/activation.ts` measures this alone.
if (import.meta.url === `file://${process.argv[1]}`) printActivation(await measureActivation());
