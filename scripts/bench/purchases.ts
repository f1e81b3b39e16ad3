// Purchases per second through two API processes on PostgreSQL (issue 22): the cluster as the
// cluster tests start it (two APIs, one worker, two standalone agents at the product's default
// poll interval, woken through their long poll for node calls; each its own process), PURCHASES workspaces bought at once by ACCOUNTS
// customers, every call of a customer going to the next API. Figures: purchases per second from
// the first accepted payment to the last workspace active, and each purchase's paid → active.
// Needs DATABASE_URL (a PostgreSQL server; the cluster makes and drops a database of its own).
import { createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import { startCluster } from '../lib/cluster.ts';
import { buyWorkspace, cheapestPlan, customerApi } from '../lib/workspace-api.ts';

const ACCOUNTS = 8;
const PURCHASES = 40;
/** The agents' AGENT_POLL_INTERVAL_MS default: a standalone agent has no wake-up, it polls. */
const AGENT_POLL_MS = 5000;

export interface PurchaseFigures {
  skipped?: string;
  purchases: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  perNode: Record<string, number>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function measurePurchases(): Promise<PurchaseFigures> {
  const empty = { purchases: 0, seconds: 0, perSecond: 0, p50Ms: 0, p95Ms: 0, maxMs: 0, perNode: {} };
  const server = process.env.DATABASE_URL;
  if (!server) return { ...empty, skipped: 'needs DATABASE_URL (a PostgreSQL server)' };
  const cluster = await startCluster({ serverUrl: server, agentPollMs: AGENT_POLL_MS });
  try {
    const urls = cluster.apis.map((api) => api.url);
    const emails = await createVerifiedAccounts(urls[0]!, cluster.dataDir, ACCOUNTS);
    const apis = await Promise.all(
      emails.map(async (email, index) =>
        customerApi(urls, (await signInTokens(urls[index % urls.length]!, email)).access_token),
      ),
    );
    const plan = await cheapestPlan(urls[0]!);
    const bought = await Promise.all(
      Array.from({ length: PURCHASES }, (_, index) =>
        buyWorkspace(apis[index % apis.length]!, plan.order, `bench-${index}`, {
          withinMs: 300_000,
          pollMs: 500,
        }),
      ),
    );
    const firstPaid = Math.min(...bought.map((purchase) => purchase.paidAt));
    const lastActive = Math.max(...bought.map((purchase) => purchase.activeAt));
    const latencies = bought.map((purchase) => purchase.activeAt - purchase.paidAt).sort((a, b) => a - b);
    const seconds = (lastActive - firstPaid) / 1000;
    const rows = await cluster.query<{ node: string; count: number }>(
      'select n.name as node, count(*)::int as count from services s join nodes n on n.id = s.node_id group by n.name',
    );
    return {
      purchases: PURCHASES,
      seconds: Math.round(seconds * 10) / 10,
      perSecond: Math.round((PURCHASES / seconds) * 100) / 100,
      p50Ms: Math.round(percentile(latencies, 50)),
      p95Ms: Math.round(percentile(latencies, 95)),
      maxMs: Math.round(latencies.at(-1) ?? 0),
      perNode: Object.fromEntries(rows.map((row) => [row.node, row.count])),
    };
  } finally {
    await cluster.stop();
  }
}

export function printPurchases(figures: PurchaseFigures) {
  console.log(
    `\nPurchases through two API processes on PostgreSQL (one worker, two standalone agents: ${AGENT_POLL_MS / 1000} s poll, woken through their long poll)`,
  );
  if (figures.skipped) {
    console.log(`  skipped: ${figures.skipped}`);
    return;
  }
  console.log(
    `  ${figures.purchases} bought at once by ${ACCOUNTS} customers: all active in ${figures.seconds} s, ` +
      `${figures.perSecond} purchases per second (paid → active); per node ${JSON.stringify(figures.perNode)}`,
  );
  console.log(
    `  each purchase, paid → active: p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms, max ${figures.maxMs} ms`,
  );
}
