// Paid → active: from a completed sandbox payment of a new workspace order until the service's
// status is `active` (the worker has delivered the signed event and created the service, it is
// placed on the embedded node and that node's agent has applied its workspace and reported).
// The product runs as its own process on a fresh embedded PGlite data folder; one verified account
// buys the cheapest plan ACTIVATIONS times, one order at a time, each its own service. Live
// (disk image, network namespace, smbd) as root with samba installed, else the render-only path,
// and the output says which. Afterwards every service is terminated through the API and its
// node's removal awaited; whatever is still left (smbd, mount, loop device, workspace network)
// is removed by force before the data folder goes.
import { withBenchProduct } from '../lib/live-product.ts';
import { liveWorkspacesUnavailable } from '../lib/live-workspaces.ts';
import { buyWorkspace, cheapestPlan } from '../lib/workspace-api.ts';

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
  // The agent's removal path first (smbd stopped, namespace deleted, image unmounted and
  // detached), then by force whatever of this data folder is still on the machine: of the
  // workspace networks, only those of the addresses this run's workspaces were given.
  return withBenchProduct(
    { liveWorkspaces: live, ownAddressesOnly: true },
    async ({ product, signUp, bought }) => {
      const api = await signUp();
      const plan = await cheapestPlan(product.url);

      const runsMs: number[] = [];
      for (let run = 1; run <= ACTIVATIONS; run += 1) {
        // Paid: the clock starts when the card page has accepted the payment.
        const workspace = await buyWorkspace(api, plan.order, `bench-activation-${run}`, {
          withinMs: ACTIVE_WITHIN_MS,
          pollMs: POLL_MS,
          onService: bought,
        });
        runsMs.push(Math.round(workspace.activeAt - workspace.paidAt));
      }
      const sorted = [...runsMs].sort((a, b) => a - b);
      return {
        mode,
        plan: plan.label,
        runsMs,
        medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
        maxMs: sorted[sorted.length - 1] ?? 0,
      };
    },
  );
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
