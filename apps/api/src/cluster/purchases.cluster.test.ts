// Two API processes, one worker and two standalone agents on one PostgreSQL server, as deploy/
// runs them. Customers buy 20 workspaces at once through both APIs (every call of a customer goes
// to the next API, as a round-robin balancer sends them): each is placed exactly once, the two
// nodes share them by capacity, and the invoice numbers have no twins and no gaps. A session,
// its CSRF pair, its refresh token and the sign-in limit hold across the API processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedAccounts, csrf, PASSWORD, signInTokens } from '../../../../scripts/lib/accounts.ts';
import { startCluster, type Cluster } from '../../../../scripts/lib/cluster.ts';
import { buyWorkspace, cheapestPlan, customerApi, json } from '../../../../scripts/lib/workspace-api.ts';
import { expectConsistent } from './cluster-checks.ts';

const server = process.env.DATABASE_URL;
const ACCOUNTS = 4;
const PER_ACCOUNT = 5;

describe.skipIf(!server)('many processes on one PostgreSQL: purchases', () => {
  let cluster: Cluster;
  let emails: string[];

  beforeAll(async () => {
    // From an empty database (no templateDatabase), as a first deployment starts: the processes
    // starting at once take turns migrating it. The other cluster files start from the template.
    cluster = await startCluster({ serverUrl: server ?? '' });
    const [first] = cluster.apis;
    emails = await createVerifiedAccounts(first!.url, cluster.dataDir, ACCOUNTS);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('20 workspaces bought at once through both APIs: each placed once, spread over both nodes, invoices gap-free', async () => {
    const urls = cluster.apis.map((api) => api.url);
    const plan = await cheapestPlan(urls[0]!);
    const started = performance.now();
    try {
      const bought = await Promise.all(
        emails.flatMap((email, account) =>
          Array.from({ length: PER_ACCOUNT }, async (_, index) => {
            const { access_token } = await signInTokens(urls[(account + index) % urls.length]!, email);
            const api = await customerApi(urls, access_token);
            return buyWorkspace(api, plan.order, `cluster-${account}-${index}`, {
              withinMs: 180_000,
              pollMs: 250,
            });
          }),
        ),
      );
      expect(bought).toHaveLength(ACCOUNTS * PER_ACCOUNT);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${cluster.logs()}`);
    }
    const seconds = (performance.now() - started) / 1000;
    const perNode = await expectConsistent(cluster);
    console.warn(
      `20 purchases through 2 APIs: all active after ${seconds.toFixed(1)} s; per node ${JSON.stringify(perNode)}`,
    );
    // Both nodes report the same room, so placement (most room left first) alternates between them.
    expect(Object.values(perNode).sort()).toHaveLength(2);
    for (const count of Object.values(perNode)) expect(count).toBeGreaterThanOrEqual(8);
  }, 300_000);

  it("node calls cross processes: a workspace's storage is browsed through either API, whichever holds its node's poll", async () => {
    const urls = cluster.apis.map((api) => api.url);
    // An account of its own (tests run in any order): four workspaces, two on each node.
    const [email] = await createVerifiedAccounts(urls[0]!, cluster.dataDir, 1);
    const api = await customerApi(urls, (await signInTokens(urls[0]!, email!)).access_token);
    const plan = await cheapestPlan(urls[0]!);
    await Promise.all([0, 1, 2, 3].map((index) => buyWorkspace(api, plan.order, `browsed-${index}`)));
    const { services } = await json<{ services: { id: string }[] }>(
      await api.get('/services/status'),
      'services',
    );
    expect(services).toHaveLength(4);
    // Every workspace twice, once through each API; node-a polls api-1 and node-b api-2, so half
    // the calls are made on a process that does not hold the node's poll, and the answers land
    // wherever the agent sends them.
    const started = performance.now();
    for (const service of services) {
      for (let turn = 0; turn < urls.length; turn += 1) {
        const response = await api.get(`/shares/${service.id}/storage`);
        expect(response.status, await response.clone().text()).toBe(200);
        expect(await response.json()).toMatchObject({ path: '', truncated: false });
      }
    }
    const perCall = (performance.now() - started) / (services.length * urls.length);
    console.warn(`storage browsed through both APIs: ${perCall.toFixed(0)} ms a call`);
  }, 120_000);

  it('a session, its CSRF pair and its refresh token made on one API work on the other; the sign-in limit counts across both', async () => {
    const [a, b] = cluster.apis.map((api) => api.url) as [string, string];
    const email = emails[0]!;
    const tokens = await signInTokens(a, email);
    // The CSRF pair comes from API a; the change is made on API b.
    const pair = await csrf(a);
    const changed = await fetch(`${b}/api/v1/users/me`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        cookie: pair.cookie,
        'x-csrf-token': pair.token,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ theme: 'dark' }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    // The refresh token rotates on b; reusing the old one on a is caught as reuse.
    const refreshed = await json<{ refresh_token: string }>(
      await fetch(`${b}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: tokens.refresh_token }),
      }),
      'refresh on b',
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const reused = await fetch(`${a}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    });
    expect(reused.status).toBe(401);

    // Five failed sign-ins per account in 15 minutes, wherever they land.
    // An account of its own: the limit locks it for 15 minutes (tests run in any order).
    const [target] = await createVerifiedAccounts(a, cluster.dataDir, 1);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await fetch(`${attempt % 2 ? b : a}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: target!,
          password: `${PASSWORD}-wrong`,
          grant_type: 'password',
        }).toString(),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  }, 60_000);
});
