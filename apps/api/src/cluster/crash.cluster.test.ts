// Crash safety: while customers buy workspaces, the worker and one agent (and in one round the
// API process that the worker and a node talk to) are killed with SIGKILL at random moments and
// started again. Afterwards every paid order has its active service, applied on exactly one
// node, and its invoice, with nothing twice; a workspace terminated while its node's agent was
// dead is gone from that node once it is back. The random moments come from a seed that is
// printed; CLUSTER_CRASH_SEED=<n> repeats a run. Bounded: three rounds, each waited on at most
// four minutes (a job lost with a killed worker is handed out again once it expires and a
// maintenance pass finds it: both shortened here, LOST_JOB_ENV, so a round waits for the job run
// again and not for production's minute).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedAccounts, signInTokens } from '../../../../scripts/lib/accounts.ts';
import { startCluster, type Cluster, type ClusterProcess } from '../../../../scripts/lib/cluster.ts';
import {
  cheapestPlan,
  customerApi,
  json,
  orderAndPay,
  payOrder,
  type CatalogueProduct,
  waitForActive,
  type CustomerApi,
  type Plan,
} from '../../../../scripts/lib/workspace-api.ts';
import { seededRandom } from '../../../../scripts/lib/seeded-random.ts';
import { expectConsistent, placedServices } from './cluster-checks.ts';

const server = process.env.DATABASE_URL;
const ROUNDS = 3;
const PER_ROUND = 6;
const ROUND_WITHIN_MS = 240_000;
/**
 * A purchase's step (payment event, placement) in a killed worker counts as lost after 5 s and is
 * looked for every 2 s. Its run takes milliseconds, so 5 s is still far past a live one (a slow one
 * handed out twice must change nothing: what the checks below hold the product to).
 */
const LOST_JOB_ENV = { JOB_QUICK_EXPIRE_SECONDS: '5', JOB_MAINTENANCE_INTERVAL_SECONDS: '2' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!server)('many processes on one PostgreSQL: SIGKILL in the middle of purchases', () => {
  let cluster: Cluster;
  let api: CustomerApi;
  let plan: Plan;
  /** The plan one workspace is upgraded to in the last round. */
  let bigger: CatalogueProduct;

  beforeAll(async () => {
    cluster = await startCluster({
      serverUrl: server ?? '',
      templateDatabase: inject('postgresTemplate'),
      controlEnv: LOST_JOB_ENV,
    });
    // The customer talks to the second API; the first is the worker's (API_URL) and node-a's,
    // so killing it cuts payment-event delivery and a node's reports, not the customer.
    const customerUrl = cluster.apis[1]!.url;
    const [email] = await createVerifiedAccounts(customerUrl, cluster.dataDir, 1);
    api = await customerApi(customerUrl, (await signInTokens(customerUrl, email!)).access_token);
    plan = await cheapestPlan(customerUrl);
    const products = await json<CatalogueProduct[]>(
      await fetch(`${customerUrl}/api/v1/products/`),
      'products',
    );
    [, bigger] = [...products].sort((a, b) => a.price - b.price) as [CatalogueProduct, CatalogueProduct];
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('every paid order ends with its active service and invoice, nothing twice', async () => {
    const seed = Number(process.env.CLUSTER_CRASH_SEED) || Date.now() % 1_000_000;
    const random = seededRandom(seed);
    console.warn(`crash test seed ${seed} (CLUSTER_CRASH_SEED=${seed} repeats it)`);
    const [firstApi] = cluster.apis;
    const terminatedWhileDown: string[] = [];
    let upgraded: { id: string; serviceId: string } | undefined;

    /** Orders and pays an upgrade of an active workspace (a plan change's order, its own invoice). */
    const upgradeOne = async () => {
      const [service] = (await placedServices(cluster)).filter((candidate) => candidate.status === 'active');
      const change = await json<{ id: string; order_id: string | null }>(
        await api.send('POST', '/plan-changes/', {
          service_id: service!.id,
          product_id: bigger.id,
          disk_space: bigger.disk_space,
          users_count: bigger.allowed_users,
        }),
        'plan change',
      );
      await payOrder(api, change.order_id!);
      upgraded = { id: change.id, serviceId: service!.id };
    };

    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const names = Array.from({ length: PER_ROUND }, (_, index) => `crash-${round}-${index}`);
        // Paid first (the card page answers on the customer's API, which is not killed), then
        // the processes die while the events are delivered, services placed and applied.
        const purchases = [
          ...names.map(async (name, index) => {
            await sleep(index * 400);
            await orderAndPay(api, plan.order, name);
          }),
          // The last round changes a plan too: its payment, its invoice and the node's resize.
          ...(round === ROUNDS - 1 ? [upgradeOne()] : []),
        ];
        const victim = cluster.agents[Math.floor(random() * cluster.agents.length)]!;
        const victims: ClusterProcess[] = [cluster.worker, victim, ...(round === 1 ? [firstApi!] : [])];
        // Purchases start 0.4 s apart and each is active within a second or two: the kill finds
        // some paid, some placed, some applied.
        await sleep(Math.floor(random() * 2500));
        await Promise.all(victims.map((process) => process.kill('SIGKILL')));
        const [{ active } = { active: 0 }] = await cluster.query<{ active: number }>(
          `select count(*)::int as active from services where name like $1 and status = 'active'`,
          [`crash-${round}-%`],
        );
        const down = `${victims.map((process) => process.name).join(', ')} with ${active} of ${PER_ROUND} active`;
        await Promise.all(purchases);

        if (round === ROUNDS - 1) {
          // Two workspaces of the dead node ended while it cannot hear of it.
          const held = (await placedServices(cluster)).filter(
            (service) =>
              service.node === victim.name &&
              service.status === 'active' &&
              service.id !== upgraded?.serviceId,
          );
          for (const service of held.slice(0, 2)) {
            const response = await api.send('POST', `/services/${service.id}/action`, {
              action: 'terminate',
            });
            expect(response.status, await response.clone().text()).toBe(200);
            terminatedWhileDown.push(service.id);
          }
        }
        await sleep(200 + Math.floor(random() * 1800));
        // The API first: the worker's start and the node's pulls go to it.
        for (const process of victims.reverse()) await process.start();
        const started = performance.now();
        await Promise.all(
          names.map((name) => waitForActive(api, name, { withinMs: ROUND_WITHIN_MS, pollMs: 250 })),
        );
        console.warn(
          `round ${round + 1}: killed ${down}; every order active ${((performance.now() - started) / 1000).toFixed(1)} s after the restart`,
        );
      }
      // The plan change went through once: applied, the node runs the bigger workspace.
      const changeDeadline = Date.now() + ROUND_WITHIN_MS;
      for (;;) {
        const change = await json<{ status: string }>(
          await api.get(`/plan-changes/${upgraded!.id}`),
          'plan change',
        );
        const [row] = await cluster.query<{
          disk_space: number;
          generation: number;
          observed_generation: number;
        }>('select disk_space, generation, observed_generation from services where id = $1', [
          upgraded!.serviceId,
        ]);
        if (
          change.status === 'applied' &&
          row?.disk_space === bigger.disk_space &&
          row.observed_generation === row.generation
        )
          break;
        if (Date.now() > changeDeadline)
          throw new Error(`plan change not applied: ${JSON.stringify({ change, row })}`);
        await sleep(250);
      }
      const changeInvoices = await cluster.query<{ number: string }>(
        `select i.number from invoices i join orders o on o.id = i.order_id
          where o.kind = 'plan_change' and o.service_id = $1 and i.type = 'PLAN_CHANGE'`,
        [upgraded!.serviceId],
      );
      expect(changeInvoices).toHaveLength(1);

      // The terminated ones are removed by their node, back from the dead.
      const deadline = Date.now() + ROUND_WITHIN_MS;
      for (;;) {
        const services = await placedServices(cluster);
        const removed = services.filter(
          (service) =>
            terminatedWhileDown.includes(service.id) &&
            service.status === 'terminated' &&
            service.observed_generation === service.generation,
        );
        if (removed.length === terminatedWhileDown.length) break;
        if (Date.now() > deadline) throw new Error(`not removed: ${JSON.stringify(services)}`);
        await sleep(250);
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${cluster.logs()}`);
    }

    const perNode = await expectConsistent(cluster);
    expect(terminatedWhileDown).toHaveLength(2);
    expect(Object.values(perNode).reduce((sum, count) => sum + count, 0)).toBe(ROUNDS * PER_ROUND - 2);
  }, 900_000);
});
