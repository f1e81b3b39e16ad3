// Buying and terminating workspaces through the API the way a customer does (quote → order →
// sandbox card payment → active; terminate → removed by its node), and calling a workspace's
// routes, for benchmarks and live journeys that need real workspaces without a browser.
import { createVerifiedAccounts, csrf, signInTokens } from './accounts.ts';

export interface CatalogueProduct {
  id: string;
  name: string;
  price: number;
  disk_space: number;
  allowed_users: number;
  periods: { id: string; months: number; default: boolean }[];
}

export interface ServiceState {
  id: string;
  name: string;
  status: string;
  apply_status: string;
}

/** What an order asks for. */
export interface PlanOrder {
  product_id: string;
  disk_space: number;
  users_count: number;
  period_id: string;
}

export interface Plan {
  label: string;
  order: PlanOrder;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A signed-in customer's calls: bearer token, CSRF pair on every change. */
export interface CustomerApi {
  baseUrl: string;
  authorization: string;
  /** Headers of a change (authorization, CSRF cookie and header). */
  headers: Record<string, string>;
  get(path: string): Promise<Response>;
  send(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Response>;
}

/**
 * `accessToken` as signInTokens gives it; paths are under /api/v1. Given several API processes'
 * base URLs, each call (and each read of `baseUrl`) goes to the next one, as a round-robin load
 * balancer would send them: the session, CSRF pair and payment page must work on any of them.
 */
export async function customerApi(
  baseUrls: string | readonly string[],
  accessToken: string,
): Promise<CustomerApi> {
  const urls = typeof baseUrls === 'string' ? [baseUrls] : baseUrls;
  if (urls.length === 0) throw new Error('customerApi: no base URL');
  let turn = 0;
  const next = () => urls[turn++ % urls.length] as string;
  const authorization = `Bearer ${accessToken}`;
  const session = await csrf(next());
  const headers = { authorization, cookie: session.cookie, 'x-csrf-token': session.token };
  return {
    get baseUrl() {
      return next();
    },
    authorization,
    headers,
    get: (path) => fetch(`${next()}/api/v1${path}`, { headers }),
    send: (method, path, body) =>
      fetch(`${next()}/api/v1${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

/** A new verified account on the product at `baseUrl` (its mail in `dataDir`), signed in. */
export async function newCustomer(
  baseUrl: string,
  dataDir: string,
): Promise<{ email: string; api: CustomerApi }> {
  const [email = ''] = await createVerifiedAccounts(baseUrl, dataDir, 1);
  return { email, api: await customerApi(baseUrl, (await signInTokens(baseUrl, email)).access_token) };
}

/** A customer's calls that answer JSON, failing with the call and its answer on a non-2xx. */
export interface JsonCalls {
  get: <T>(path: string) => Promise<T>;
  send: <T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown) => Promise<T>;
}

/** `customer` is asked on every call: a journey's customer signs in after its calls are made. */
export function jsonCalls(customer: () => CustomerApi): JsonCalls {
  return {
    get: async <T>(path: string) => json<T>(await customer().get(path), `GET ${path}`),
    send: async <T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
      json<T>(await customer().send(method, path, body), `${method} ${path}`),
  };
}

/** The cheapest active plan as it comes (included disk and users, one month when offered). */
export async function cheapestPlan(baseUrl: string): Promise<Plan> {
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

/**
 * Orders `plan` under `name` and pays it on the sandbox's card page with a test card. Resolves
 * with the moment (performance.now()) the card page accepted the payment.
 */
export async function orderAndPay(api: CustomerApi, order: PlanOrder, name: string): Promise<number> {
  const created = await json<{ id: string }>(await api.send('POST', '/orders/', { ...order, name }), 'order');
  return payOrder(api, created.id);
}

/** Pays an order (a new workspace's, a plan change's) on the sandbox's card page with a test card. */
export async function payOrder(api: CustomerApi, orderId: string): Promise<number> {
  const payment = await json<{ url: string }>(
    await api.send('POST', `/orders/${orderId}/process`),
    'payment session',
  );
  const paid = await fetch(`${api.baseUrl}${new URL(payment.url).pathname}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'card_number=4242+4242+4242+4242&exp_month=12&exp_year=40&cvc=123',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`sandbox payment: ${paid.status} ${await paid.text()}`);
  return performance.now();
}

/** The account's service named `name`, if it exists yet. */
export async function serviceNamed(api: CustomerApi, name: string): Promise<ServiceState | undefined> {
  const { services } = await json<{ services: ServiceState[] }>(
    await api.get('/services/status'),
    'services status',
  );
  return services.find((candidate) => candidate.name === name);
}

/**
 * Waits until the service named `name` is `active`, polling every `pollMs`. `onService` hears its
 * id as soon as it exists (so a caller can terminate it whatever happens next).
 */
export async function waitForActive(
  api: CustomerApi,
  name: string,
  options: { withinMs?: number; pollMs?: number; onService?: (id: string) => void } = {},
): Promise<ServiceState> {
  const { withinMs = 30_000, pollMs = 50 } = options;
  const started = performance.now();
  let announced = false;
  for (;;) {
    const service = await serviceNamed(api, name);
    if (service && !announced) {
      announced = true;
      options.onService?.(service.id);
    }
    if (service?.status === 'active') return service;
    if (performance.now() - started > withinMs) {
      const detail = service
        ? await api.get(`/services/${service.id}/status`).then((r) => r.text())
        : 'no service yet';
      throw new Error(`${name} not active within ${withinMs} ms of payment: ${detail}`);
    }
    await sleep(pollMs);
  }
}

export interface BoughtWorkspace {
  id: string;
  /** Its address (the overview's ip_address). */
  address: string;
  /** When the payment was accepted and when it was seen active (performance.now()). */
  paidAt: number;
  activeAt: number;
}

/** Orders, pays and waits for the workspace to be active; its id goes to `onService` at once. */
export async function buyWorkspace(
  api: CustomerApi,
  order: PlanOrder,
  name: string,
  options: { withinMs?: number; pollMs?: number; onService?: (id: string) => void } = {},
): Promise<BoughtWorkspace> {
  const paidAt = await orderAndPay(api, order, name);
  const service = await waitForActive(api, name, options);
  const activeAt = performance.now();
  const [address = ''] = await serviceAddresses(api, [service.id]);
  return { id: service.id, address, paidAt, activeAt };
}

/** The addresses of `serviceIds` (those that have one), from the services overview. */
export async function serviceAddresses(api: CustomerApi, serviceIds: readonly string[]): Promise<string[]> {
  const { services } = await json<{ services: { id: string; ip_address: string | null }[] }>(
    await api.get('/services/overview'),
    'overview',
  );
  return serviceIds.map((id) => services.find((s) => s.id === id)?.ip_address ?? '').filter(Boolean);
}

/**
 * Terminates the service (cancelling it first when terminating is refused: still being set up)
 * and waits until its node has removed it.
 */
export async function terminateWorkspace(
  api: CustomerApi,
  serviceId: string,
  removedWithinMs = 60_000,
): Promise<void> {
  const act = (action: 'cancel' | 'terminate') =>
    api.send('POST', `/services/${serviceId}/action`, { action });
  let response = await act('terminate');
  if (response.status === 409) {
    await act('cancel');
    response = await act('terminate');
  }
  if (response.status !== 200)
    throw new Error(`terminate ${serviceId}: ${response.status} ${await response.text()}`);
  const deadline = Date.now() + removedWithinMs;
  for (;;) {
    const body = await json<ServiceState>(await api.get(`/services/${serviceId}/status`), 'service status');
    if (body.status === 'terminated' && body.apply_status === 'applied') return;
    if (Date.now() > deadline) throw new Error(`${serviceId} was not removed: ${JSON.stringify(body)}`);
    await sleep(250);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `probe` every `pollMs` until it answers something, or fails saying what did not come in time. */
export async function waitFor<T>(
  what: string,
  withinMs: number,
  probe: () => Promise<T | undefined>,
  pollMs = 100,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await pause(pollMs);
  }
}

/** The plan named `name` as it comes (its included disk and users, one month when offered). */
export async function planNamed(baseUrl: string, name: string): Promise<PlanOrder> {
  const products = await json<CatalogueProduct[]>(await fetch(`${baseUrl}/api/v1/products/`), 'products');
  const product = products.find((candidate) => candidate.name === name);
  const period = product?.periods.find((p) => p.months === 1) ?? product?.periods[0];
  if (!product || !period) throw new Error(`no plan ${name} with a billing period`);
  return {
    product_id: product.id,
    disk_space: product.disk_space,
    users_count: product.allowed_users,
    period_id: period.id,
  };
}
