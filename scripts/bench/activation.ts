// Paid → active: from a completed sandbox payment of a new workspace order until the service's
// status is `active` (the worker has delivered the signed event and created the service, it is
// placed on the embedded node and that node's agent has applied its workspace and reported).
// The product runs as its own process on a fresh embedded PGlite data folder; one verified account
// buys the cheapest plan ACTIVATIONS times, one order at a time, each its own service. Live
// (disk image, network namespace, smbd) as root with samba installed, else the render-only path,
// and the output says which. Afterwards every service is terminated through the API and its
// node's removal awaited; whatever is still left (smbd, mount, loop device, workspace network)
// is removed by force before the data folder goes.
import { createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import {
  findLeftovers,
  isClean,
  liveWorkspacesUnavailable,
  removeLeftovers,
} from '../lib/live-workspaces.ts';
import { LIVE_ADDRESS_POOL, startProduct } from '../lib/processes.ts';
import {
  buyWorkspace,
  cheapestPlan,
  customerApi,
  serviceAddresses,
  terminateWorkspace,
  type CustomerApi,
} from '../lib/workspace-api.ts';

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

export async function measureActivation(): Promise<ActivationFigures> {
  const unavailable = liveWorkspacesUnavailable();
  const live = unavailable === undefined;
  const mode = live
    ? 'live: image, network namespace, smbd'
    : `render only (${unavailable ?? ''}; the agent renders and checks, mounts and starts nothing)`;
  const product = await startProduct({}, { liveWorkspaces: live });
  const baseUrl = product.url;
  const serviceIds: string[] = [];
  let api: CustomerApi | undefined;
  try {
    const [email = ''] = await createVerifiedAccounts(baseUrl, product.dataDir, 1);
    api = await customerApi(baseUrl, (await signInTokens(baseUrl, email)).access_token);
    const plan = await cheapestPlan(baseUrl);

    const runsMs: number[] = [];
    for (let run = 1; run <= ACTIVATIONS; run += 1) {
      // Paid: the clock starts when the card page has accepted the payment.
      const bought = await buyWorkspace(api, plan.order, `bench-activation-${run}`, {
        withinMs: ACTIVE_WITHIN_MS,
        pollMs: POLL_MS,
        onService: (id) => serviceIds.push(id),
      });
      runsMs.push(Math.round(bought.activeAt - bought.paidAt));
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
    const addresses = api ? await serviceAddresses(api, serviceIds).catch(() => [] as string[]) : [];
    if (api) {
      for (const id of serviceIds) {
        await terminateWorkspace(api, id).catch((error: unknown) => failures.push(String(error)));
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
