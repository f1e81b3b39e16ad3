// A dashboard change → the node serving it (target p95 ≤ 2 s), live as root with the embedded
// stack: the product as its own process with live workspaces and its embedded agent (woken in
// process on every change, polling every second as startProduct sets it). One workspace; for each
// kind of change (a user, a Samba share, an NFS export of that share, a VPN user) a few runs, one
// at a time: from the API's 2xx to the service's status showing the node's observed generation at
// or past the one the change made (the agent reports it once its pass applied the change: files
// written, the daemons reloaded or restarted and checked), asked every 20 ms. A kind whose daemon
// is not installed is skipped, saying which program is missing.
import { firstMissingProgram } from '@debesis/agent';
import type { ServiceStatusDetail } from '@debesis/contract';
import { existsSync } from 'node:fs';
import { withBenchProduct } from '../lib/live-product.ts';
import { liveWorkspacesUnavailable } from '../lib/live-workspaces.ts';
import { buyWorkspace, cheapestPlan, json, type CustomerApi } from '../lib/workspace-api.ts';

const RUNS = Number(process.env.BENCH_NODE_CHANGE_RUNS ?? 6);
const PASSWORD = 'Bench-Change-Pass-1';
const POLL_MS = 20;
const APPLIED_WITHIN_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ChangeKind {
  label: string;
  /** Why this kind cannot run here, if it cannot. */
  unavailable(): Promise<string | undefined>;
  /** The change's call for run `run` (0-based). */
  request(run: number): { method: 'POST'; path: (serviceId: string) => string; body: unknown };
}

const missing = async (programs: string[]) => {
  const program = await firstMissingProgram(programs);
  return program ? `${program} is not installed` : undefined;
};

const KINDS: ChangeKind[] = [
  {
    label: 'a user created',
    unavailable: () => missing(['smbd']),
    request: (run) => ({
      method: 'POST',
      path: (id) => `/user-groups/${id}/users`,
      body: { name: `member${run}`, password: PASSWORD },
    }),
  },
  {
    label: 'a Samba share created',
    unavailable: () => missing(['smbd']),
    request: (run) => ({
      method: 'POST',
      path: (id) => `/samba/${id}/shares`,
      body: { name: `share${run}` },
    }),
  },
  {
    label: 'an NFS export of that share',
    unavailable: () => missing(['ganesha.nfsd']),
    request: (run) => ({
      method: 'POST',
      path: (id) => `/nfs/${id}/shares`,
      body: { path: `shares/share${run}`, client: '192.168.1.0/24' },
    }),
  },
  {
    label: 'a VPN user created',
    async unavailable() {
      if (!existsSync('/usr/share/easy-rsa/easyrsa')) return 'easy-rsa is not installed';
      return missing(['openvpn', 'openssl']);
    },
    request: (run) => ({
      method: 'POST',
      path: (id) => `/vpn/${id}/users`,
      body: { username: `vpn${run}`, password: PASSWORD },
    }),
  },
];

export interface NodeChangeFigures {
  skipped?: string;
  kinds: Array<{ label: string; skipped?: string; ms: number[] }>;
}

const status = async (api: CustomerApi, serviceId: string) =>
  json<ServiceStatusDetail>(await api.get(`/services/${serviceId}/status`), 'status');

/** From now until the node reports `generation` applied (ms). */
async function appliedAfter(api: CustomerApi, serviceId: string, since: number, generation: number) {
  while ((await status(api, serviceId)).observed_generation < generation) {
    if (performance.now() - since > APPLIED_WITHIN_MS)
      throw new Error(`generation ${generation} not applied within ${APPLIED_WITHIN_MS} ms`);
    await sleep(POLL_MS);
  }
  return Math.round(performance.now() - since);
}

export async function measureNodeChange(): Promise<NodeChangeFigures> {
  const live = liveWorkspacesUnavailable();
  if (live) return { skipped: live, kinds: [] };
  return withBenchProduct({}, async ({ product, signUp, bought }) => {
    const customer = await signUp();
    const plan = await cheapestPlan(product.url);
    const order = { ...plan.order, users_count: Math.max(plan.order.users_count, RUNS + 2) };
    const workspace = await buyWorkspace(customer, order, 'bench-node-change', {
      withinMs: 120_000,
      onService: bought,
    });
    // Settled first: the workspace's first apply is not what this measures.
    await appliedAfter(
      customer,
      workspace.id,
      performance.now(),
      (await status(customer, workspace.id)).generation,
    );
    const kinds: NodeChangeFigures['kinds'] = [];
    for (const kind of KINDS) {
      const skipped = await kind.unavailable();
      if (skipped) {
        kinds.push({ label: kind.label, skipped, ms: [] });
        continue;
      }
      const ms: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const { method, path, body } = kind.request(run);
        const response = await customer.send(method, path(workspace.id), body);
        const answered = performance.now();
        if (!response.ok) throw new Error(`${kind.label}: ${response.status} ${await response.text()}`);
        const { generation } = await status(customer, workspace.id);
        ms.push(await appliedAfter(customer, workspace.id, answered, generation));
      }
      kinds.push({ label: kind.label, ms });
    }
    return { kinds };
  });
}

/** The value at or below which `share` of the runs fall (nearest rank). */
const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;
};

export function printNodeChange(figures: NodeChangeFigures) {
  if (figures.skipped) {
    console.log(`\nDashboard change → node: skipped (${figures.skipped}; it runs as root with samba)`);
    return;
  }
  console.log('\nDashboard change → node (live: the API’s 2xx → the node reports the generation applied)');
  console.log('| change | p50 | p95 | target | each |');
  console.log('|---|---:|---:|---:|---|');
  for (const kind of figures.kinds) {
    if (kind.skipped) {
      console.log(`| ${kind.label} | skipped: ${kind.skipped} | | | |`);
      continue;
    }
    // The first change of a kind also starts its daemon (smbd with the passdb, ganesha, the VPN's
    // PKI and openvpn): shown on its own, and the percentiles are of the changes after it.
    const [first = 0, ...rest] = kind.ms;
    console.log(
      `| ${kind.label} | ${percentile(rest, 0.5)} ms | ${percentile(rest, 0.95)} ms | ≤ 2 s p95 | ${rest.join(', ')} (first, starting its daemon: ${first}) |`,
    );
  }
}

// `tsx scripts/bench/node-change.ts` measures this alone.
if (import.meta.url === `file://${process.argv[1]}`) printNodeChange(await measureNodeChange());
