// What the journeys on live workspaces share (workspace, vpn, nfs, monitoring…): why one cannot
// run here, buying until the workspace is active, waiting for what the node does, and the clean-up that
// runs whatever step a journey got to — its workspaces terminated through the API the way a
// customer would, anything left on the machine found and removed, the product stopped — with what
// went wrong kept for the journey to assert on afterwards, so a failure leaves nothing behind.
import type { Page } from 'playwright-core';
import type { ServiceStatusDetail } from '@debesis/contract';
import { makeTestClient, removeTestClient, type TestClient } from '@debesis/agent/testing/network';
import { stopAllVpnClients } from '@debesis/agent/testing/vpn-client';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import {
  findLeftovers,
  isClean,
  removeLeftovers,
  type WorkspaceLeftovers,
} from '../../scripts/lib/live-workspaces.ts';
import { LIVE_ADDRESS_POOL, startProduct, type RunningServer } from '../../scripts/lib/processes.ts';
import {
  customerApi,
  jsonCalls,
  newCustomer,
  terminateWorkspace,
  waitFor,
  type CustomerApi,
  type JsonCalls,
} from '../../scripts/lib/workspace-api.ts';
import { useBrowser, type BrowserSession } from './browser.ts';
import { activeInList, buyMini, listedServiceId } from './checkout.ts';

/** The signed-in page's calls as a customer's, for the clean-up and for failure messages. */
export async function pageApi(page: Page, baseUrl: string): Promise<CustomerApi> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  return customerApi(baseUrl, token ?? '');
}

/** The service's status as the API reports it, for a failure message. */
export async function serviceStatusText(api: CustomerApi, serviceId: string): Promise<string> {
  const response = await api.get(`/services/${serviceId}/status`);
  return `${response.status} ${await response.text()}`;
}

/**
 * Buys MINI with the test card in the signed-in `page` and waits on the services list until the
 * node has set it up. `onService` hears its id as soon as it is listed, so the clean-up can
 * terminate it whatever happens next. Answers its id.
 */
export async function buyMiniUntilActive(
  page: Page,
  api: CustomerApi,
  onService: (serviceId: string) => void,
): Promise<string> {
  await buyMini(page);
  const serviceId = await listedServiceId(page);
  onService(serviceId);
  // The list asks again until the node has set the workspace up.
  await activeInList(page, serviceId, 120_000).catch(async (error: unknown) => {
    throw new Error(`not active: ${await serviceStatusText(api, serviceId)}`, { cause: error });
  });
  return serviceId;
}

export interface LiveCleanUp {
  /** Terminations that failed, with why. */
  failures: string[];
  /** What was left on the machine after them (removed by force since). */
  left: WorkspaceLeftovers;
}

/**
 * Terminates `serviceIds` through `api` (when the journey got that far), removes whatever is left
 * of the product's workspaces on the machine, and stops the product.
 */
export async function endLiveProduct(
  product: RunningServer,
  api: CustomerApi | undefined,
  serviceIds: readonly string[],
): Promise<LiveCleanUp> {
  const failures: string[] = [];
  if (api)
    for (const id of serviceIds)
      await terminateWorkspace(api, id).catch((error: unknown) => failures.push(String(error)));
  const left = findLeftovers(product.dataDir, LIVE_ADDRESS_POOL);
  if (!isClean(left)) removeLeftovers(left);
  await product.stop();
  return { failures, left };
}

/** The clean-up went the proper way: every workspace terminated, nothing of them left behind. */
export function expectCleanEnd({ failures, left }: LiveCleanUp): void {
  expect(failures, 'terminating the workspaces').toEqual([]);
  expect(left, 'the terminated workspaces left something on the machine').toEqual({
    processes: [],
    mounts: [],
    loopDevices: [],
    addresses: [],
  });
}

/** A journey's own product with live workspaces, its customer, and what its clean-up needs. */
export interface LiveProduct extends JsonCalls {
  /** The product, once beforeAll has started it. */
  readonly product: RunningServer;
  /** Whether it started (an afterAll's own clean-up may have nothing to do). */
  readonly started: boolean;
  /** The customer whose workspaces the clean-up terminates: set by signUp, or by a journey. */
  api: CustomerApi | undefined;
  /** The customer, once signed in. */
  readonly customer: () => CustomerApi;
  /** A new verified customer, signed in, whose workspaces the clean-up terminates; its address. */
  readonly signUp: () => Promise<string>;
  /** Hears each bought workspace's id as soon as it exists (buyWorkspace's onService). */
  readonly bought: (serviceId: string) => void;
}

export interface LiveProductOptions {
  /** The product's environment beyond startProduct's (e.g. AGENT_CLIENT_ROUTES). */
  env?: Record<string, string>;
  /** Checked once the clean-up has passed, with the ids of the workspaces it terminated. */
  afterEnd?: (serviceIds: readonly string[]) => void;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set for the `e2e-live` project only (e2e/vitest.config.ts). */
    liveJourney?: boolean;
  }
}

/**
 * A product with live workspaces on LIVE_ADDRESS_POOL, for a live journey only: those run one at a
 * time in their own project, beside the other journeys, so one started elsewhere could share the
 * pool with another at the same time.
 */
export function startLiveJourneyProduct(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!inject('liveJourney'))
    throw new Error('a journey with live workspaces is named *-live.e2e.ts (e2e/vitest.config.ts)');
  return startProduct(env, { liveWorkspaces: true });
}

/**
 * Starts a product with live workspaces for the describe block it is called in, and at its end
 * terminates what the customer bought, removes what is left, stops it and checks it ended clean
 * (endLiveProduct). A journey's own afterAll, registered after this call, runs before that
 * clean-up (vitest runs after-hooks in reverse): the place to stop its clients.
 */
export function useLiveProduct(options: LiveProductOptions = {}): LiveProduct {
  let product: RunningServer | undefined;
  const serviceIds: string[] = [];
  const customer = () => {
    if (!live.api) throw new Error('no signed-in customer');
    return live.api;
  };
  const live: LiveProduct = {
    get product() {
      if (!product) throw new Error('the live product did not start');
      return product;
    },
    get started() {
      return product !== undefined;
    },
    api: undefined,
    customer,
    signUp: async () => {
      const signedUp = await newCustomer(live.product.url, live.product.dataDir);
      live.api = signedUp.api;
      return signedUp.email;
    },
    bought: (serviceId) => serviceIds.push(serviceId),
    ...jsonCalls(customer),
  };
  beforeAll(async () => {
    product = await startLiveJourneyProduct(options.env);
  });
  afterAll(async () => {
    if (!product) return;
    expectCleanEnd(await endLiveProduct(product, live.api, serviceIds));
    options.afterEnd?.(serviceIds);
  }, 180_000);
  return live;
}

/**
 * The customer's own machine: `client`, a client namespace beyond the node, made by `make` with
 * routes to the addresses given; its VPN clients stopped and it removed after the block, before the
 * product's clean-up when called after useLiveProduct.
 */
export function useClientMachine(client: TestClient): { make: (addresses: string[]) => Promise<void> } {
  let made = false;
  afterAll(async () => {
    await stopAllVpnClients();
    if (made) await removeTestClient(client);
  });
  return {
    make: async (addresses) => {
      await makeTestClient(client, addresses);
      made = true;
    },
  };
}

/** Waits until the node has applied everything asked of the service so far; fails on its error. */
export async function nodeApplied(
  calls: JsonCalls,
  serviceId: string,
  withinMs: number,
): Promise<ServiceStatusDetail> {
  const status = () => calls.get<ServiceStatusDetail>(`/services/${serviceId}/status`);
  const { generation } = await status();
  return waitFor(`generation ${generation} applied`, withinMs, async () => {
    const now = await status();
    if (now.last_error) throw new Error(`the node failed to apply: ${now.last_error}`);
    return now.observed_generation >= generation ? now : undefined;
  });
}

/** A browser whose pages open `live`'s product. */
export function useLiveBrowser(live: LiveProduct): BrowserSession {
  return useBrowser(() => ({ baseUrl: live.product.url, dataDir: live.product.dataDir }));
}

export { planNamed, waitFor } from '../../scripts/lib/workspace-api.ts';
export { programsMissing, vpnUnavailable } from '../../scripts/lib/live-workspaces.ts';
