// Crash safety of automatic renewal (issue 38, acceptance 5): twenty workspaces of an account that
// keeps a card come due; the worker running `billing.renewals` is SIGKILLed three times at random
// moments, each right after a charge reached the provider (the sandbox's ledger, a table, is how
// the test sees it), and started again. Afterwards each service was charged exactly once, has one
// paid RENEWAL invoice and one extension order, and ends one period later; one more run charges
// nothing. The moments come from a seed that is printed; CLUSTER_CRASH_SEED=<n> repeats a run.
//
// A run killed mid-renewal leaves that renewal claimed for RENEWAL_CLAIM_MS (ten minutes) before
// another run may overtake it; the test lets that time pass by ending the claims in the database.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedAccounts, signInTokens } from '../../../../scripts/lib/accounts.ts';
import { startCluster, type Cluster } from '../../../../scripts/lib/cluster.ts';
import {
  cheapestPlan,
  customerApi,
  json,
  payOrder,
  waitForActive,
  type CustomerApi,
  type Plan,
} from '../../../../scripts/lib/workspace-api.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { startQueue, type JobQueue } from '../jobs/queue.ts';
import { seededRandom } from '../../../../scripts/lib/seeded-random.ts';

const server = process.env.DATABASE_URL;
const SERVICES = 20;
const KILLS = 3;
const RUN_WITHIN_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!server)('many processes on one PostgreSQL: SIGKILL in the middle of renewals', () => {
  let cluster: Cluster;
  let api: CustomerApi;
  let plan: Plan;
  let accountId: string;
  let database: Database;
  let queue: JobQueue;

  beforeAll(async () => {
    cluster = await startCluster({
      serverUrl: server ?? '',
      templateDatabase: inject('postgresTemplate'),
      apis: 1,
    });
    const [email] = await createVerifiedAccounts(cluster.apis[0]!.url, cluster.dataDir, 1);
    api = await customerApi(
      cluster.apis[0]!.url,
      (await signInTokens(cluster.apis[0]!.url, email!)).access_token,
    );
    plan = await cheapestPlan(cluster.apis[0]!.url);
    accountId = (await cluster.query<{ id: string }>('select id from users where email = $1', [email]))[0]!
      .id;
    // The test's own handle on the queue, to ask for runs as the schedule does.
    database = await openDatabase({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    queue = await startQueue(database, { supervise: false });
  }, 240_000);

  afterAll(async () => {
    await queue?.stop();
    await database?.close();
    await cluster?.stop();
  }, 60_000);

  /** The first workspace is paid with "Keep this card"; the others on the card page as usual. */
  async function buyWithKeptCard(): Promise<void> {
    const names = Array.from({ length: SERVICES }, (_, index) => `renew-${index}`);
    const first = await json<{ id: string }>(
      await api.send('POST', '/orders/', { ...plan.order, name: names[0] }),
      'order',
    );
    const session = await json<{ url: string }>(
      await api.send('POST', '/payments/session', { order_id: first.id, save_payment_method: true }),
      'payment session',
    );
    const paid = await fetch(`${api.baseUrl}${new URL(session.url).pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242+4242+4242+4242&exp_month=12&exp_year=40&cvc=123&keep_card=on',
      redirect: 'manual',
    });
    expect(paid.status, await paid.text()).toBe(303);
    for (const name of names.slice(1)) {
      const order = await json<{ id: string }>(
        await api.send('POST', '/orders/', { ...plan.order, name }),
        'order',
      );
      await payOrder(api, order.id);
    }
    await Promise.all(
      names.map((name) => waitForActive(api, name, { withinMs: RUN_WITHIN_MS, pollMs: 250 })),
    );
    const deadline = Date.now() + RUN_WITHIN_MS;
    while (
      (await cluster.query('select 1 from payment_methods where account_id = $1', [accountId])).length === 0
    ) {
      if (Date.now() > deadline) throw new Error('the card was not kept');
      await sleep(250);
    }
  }

  const charges = () =>
    cluster.query<{ key: string; status: string; requests: number; amount_minor: number }>(
      `select idempotency_key as key, status, requests, amount_minor from sandbox_charges`,
    );

  /** Asks for one run and waits until it has ended or `stop` says to kill the worker. */
  async function run(stop?: () => Promise<boolean>): Promise<'ended' | 'killed'> {
    const id = await queue.send('billing.renewals', {});
    const deadline = Date.now() + RUN_WITHIN_MS;
    for (;;) {
      if (stop && (await stop())) {
        await cluster.worker.kill('SIGKILL');
        return 'killed';
      }
      const job = await queue.job('billing.renewals', id!);
      if (job?.state === 'completed') return 'ended';
      if (job?.state === 'failed') throw new Error(`the renewals run failed: ${JSON.stringify(job.output)}`);
      if (Date.now() > deadline) throw new Error(`the renewals run did not end: ${job?.state}`);
      await sleep(10);
    }
  }

  it('charges each of twenty services exactly once, whatever moment the worker dies at', async () => {
    const seed = Number(process.env.CLUSTER_CRASH_SEED) || Date.now() % 1_000_000;
    const random = seededRandom(seed);
    console.warn(`renewals crash test seed ${seed} (CLUSTER_CRASH_SEED=${seed} repeats it)`);
    try {
      await buyWithKeptCard();
      // Two days before the end, as RENEWAL_LEAD_DAYS allows (three).
      const before = await cluster.query<{ id: string; valid_until: Date }>(
        `update services set valid_until = date_trunc('second', now()) + interval '2 days'
          where account_id = $1 returning id, valid_until`,
        [accountId],
      );
      expect(before).toHaveLength(SERVICES);

      // Each kill right after a charge the provider answered: often before its payment was
      // recorded, the moment a careless renewal would charge again.
      const killAt = Array.from({ length: KILLS }, () => 1 + Math.floor(random() * (SERVICES - 2))).sort(
        (a, b) => a - b,
      );
      const seen: string[] = [];
      for (const at of killAt) {
        const outcome = await run(async () => (await charges()).length >= at);
        const [{ paid } = { paid: 0 }] = await cluster.query<{ paid: number }>(
          `select count(*)::int as paid from service_renewals where status = 'paid'`,
        );
        seen.push(`${outcome} at ${(await charges()).length} charges, ${paid} renewals paid`);
        // RENEWAL_CLAIM_MS later: the claims of the dead run have lapsed.
        await cluster.query(
          `update service_renewals set claimed_until = now() - interval '1 second' where claimed_until > now()`,
        );
        await sleep(Math.floor(random() * 500));
        await cluster.worker.start();
      }
      expect(await run()).toBe('ended');
      const ledger = await charges();
      expect(await run()).toBe('ended');
      console.warn(
        `renewals crash test: ${seen.join('; ')}; then ${ledger.length} charges, ` +
          `${ledger.filter((charge) => charge.requests > 1).length} of them asked again after a kill`,
      );

      // Exactly once at the provider: one charge per renewal, every one succeeded, and one more
      // run asked nothing more.
      expect(await charges()).toEqual(ledger);
      expect(ledger).toHaveLength(SERVICES);
      expect(ledger.every((charge) => charge.status === 'succeeded')).toBe(true);
      const renewals = await cluster.query<{ service_id: string; status: string; key: string }>(
        `select service_id, status, 'renewal-' || id || '-' || attempts as key from service_renewals`,
      );
      expect(renewals.map((renewal) => renewal.status)).toEqual(Array(SERVICES).fill('paid'));
      expect(new Set(renewals.map((renewal) => renewal.key))).toEqual(
        new Set(ledger.map((charge) => charge.key)),
      );

      // Each service: one extension order, paid, one RENEWAL invoice, one period more.
      const perService = await cluster.query<{
        id: string;
        valid_until: Date;
        orders: number;
        paid_orders: number;
        invoices: number;
        months: number;
      }>(
        `select s.id, s.valid_until,
                (select max(o.months)::int from orders o where o.service_id = s.id and o.kind = 'extension') as months,
                (select count(*)::int from orders o where o.service_id = s.id and o.kind = 'extension') as orders,
                (select count(*)::int from orders o where o.service_id = s.id and o.kind = 'extension'
                    and o.status = 'PAID') as paid_orders,
                (select count(*)::int from invoices i join orders o on o.id = i.order_id
                  where o.service_id = s.id and i.type = 'RENEWAL' and i.status = 'paid') as invoices
           from services s where s.account_id = $1 order by s.id`,
        [accountId],
      );
      const ends = new Map(before.map((row) => [row.id, new Date(row.valid_until)]));
      for (const service of perService) {
        const expected = new Date(ends.get(service.id)!);
        expected.setUTCMonth(expected.getUTCMonth() + service.months);
        expect({ ...service, valid_until: new Date(service.valid_until).toISOString() }).toEqual({
          id: service.id,
          valid_until: expected.toISOString(),
          orders: 1,
          paid_orders: 1,
          invoices: 1,
          months: service.months,
        });
      }
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${cluster.logs()}`);
    }
  }, 600_000);
});
