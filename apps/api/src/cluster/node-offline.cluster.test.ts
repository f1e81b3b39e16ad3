// A node whose agent stops: within 90 s it counts as offline (the health report's online nodes)
// and its workspaces show degraded (node_silent); nothing new is placed on it meanwhile. Started
// again, it takes up the same workspaces: same folders (same inodes, a file left in each still
// there), same places and addresses, nothing re-created or moved, and they show running again.
//
// The first minute of silence is not waited out: once the stopped agent's last report has landed,
// the node's and its workspaces' last reports are moved a minute back in the database (as
// renewals.cluster.test.ts ends a dead run's claims), and that minute counts in the 90 s. The
// product still decides from its own threshold and clock; a report after the agent stopped would
// undo the move and fail the 90 s.
import { statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedAccounts, signInTokens } from '../../../../scripts/lib/accounts.ts';
import { startCluster, waitForNodes, type Cluster } from '../../../../scripts/lib/cluster.ts';
import {
  buyWorkspace,
  cheapestPlan,
  customerApi,
  json,
  type CustomerApi,
  type Plan,
} from '../../../../scripts/lib/workspace-api.ts';
import { expectConsistent, placedServices } from './cluster-checks.ts';

const server = process.env.DATABASE_URL;
const OFFLINE_WITHIN_MS = 90_000;
/** The silence the test does not wait out (see above). */
const SILENCE_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Shown {
  id: string;
  name: string;
  display_state: string;
  display_reason: string | null;
}

describe.skipIf(!server)('many processes on one PostgreSQL: a node that stops and comes back', () => {
  let cluster: Cluster;
  let api: CustomerApi;
  let plan: Plan;

  beforeAll(async () => {
    cluster = await startCluster({ serverUrl: server ?? '', templateDatabase: inject('postgresTemplate') });
    const urls = cluster.apis.map((process) => process.url);
    const [email] = await createVerifiedAccounts(urls[0]!, cluster.dataDir, 1);
    api = await customerApi(urls, (await signInTokens(urls[0]!, email!)).access_token);
    plan = await cheapestPlan(urls[0]!);
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  /**
   * Once the node's last report has landed (a request in flight when its agent stopped), its last
   * reports, the node's and its workspaces', move SILENCE_MS back.
   */
  const passSilence = async (node: string) => {
    const lastSeen = async () =>
      (
        await cluster.query<{ at: string }>(`select last_seen_at::text as at from nodes where name = $1`, [
          node,
        ])
      )[0]?.at;
    for (let seen = await lastSeen(); ;) {
      await sleep(1000);
      const now = await lastSeen();
      if (now === seen) break;
      seen = now;
    }
    const back = `${SILENCE_MS} milliseconds`;
    await cluster.query(
      `update services set reported_at = reported_at - $2::interval
        where node_id = (select id from nodes where name = $1)`,
      [node, back],
    );
    await cluster.query(`update nodes set last_seen_at = last_seen_at - $2::interval where name = $1`, [
      node,
      back,
    ]);
  };

  const shown = async () =>
    (await json<{ services: Shown[] }>(await api.get('/services/status'), 'services status')).services;
  const onlineNodes = async () =>
    (
      await json<{ nodes: { online: number; total: number } }>(
        await fetch(`${api.baseUrl}/api/v1/health`),
        'health',
      )
    ).nodes;

  it('offline within 90 s, its workspaces degraded, nothing placed on it; back: the same workspaces, not re-created', async () => {
    await Promise.all(
      [0, 1, 2, 3].map((index) => buyWorkspace(api, plan.order, `steady-${index}`, { withinMs: 120_000 })),
    );
    const [stopped] = cluster.agents.filter((agent) => agent.name === 'node-b');
    const before = (await placedServices(cluster)).filter((service) => service.node === 'node-b');
    expect(before.length).toBeGreaterThan(0);
    const folders = before.map((service) => {
      const folder = path.join(cluster.agentDataDirs['node-b']!, 'workspaces', service.id);
      writeFileSync(path.join(folder, 'still-here'), service.id);
      return { id: service.id, folder, inode: statSync(folder).ino };
    });

    await stopped!.kill('SIGTERM');
    const stoppedAt = performance.now();
    await passSilence('node-b');
    for (;;) {
      const states = (await shown()).filter((service) => before.some((held) => held.id === service.id));
      const health = await onlineNodes();
      if (health.online === 1 && states.every((state) => state.display_state === 'degraded')) {
        expect(states.map((state) => state.display_reason)).toEqual(states.map(() => 'node_silent'));
        break;
      }
      expect(performance.now() - stoppedAt + SILENCE_MS, 'offline and degraded within 90 s').toBeLessThan(
        OFFLINE_WITHIN_MS,
      );
      await sleep(1000);
    }
    console.warn(
      `node-b offline and its workspaces degraded ${((performance.now() - stoppedAt + SILENCE_MS) / 1000).toFixed(1)} s after its agent stopped (${SILENCE_MS / 1000} s of it moved back in the database)`,
    );

    // Nothing is placed on a node that is not there.
    await buyWorkspace(api, plan.order, 'while-b-is-away', { withinMs: 120_000 });
    const [placedMeanwhile] = (await placedServices(cluster)).filter(
      (service) =>
        !before.some((held) => held.id === service.id) && service.node !== 'node-a' && service.node !== null,
    );
    expect(placedMeanwhile, 'a workspace placed on node-b while it was offline').toBeUndefined();

    await stopped!.start();
    await waitForNodes(cluster, 2);
    const backAt = performance.now();
    for (;;) {
      const states = (await shown()).filter((service) => before.some((held) => held.id === service.id));
      if (states.every((state) => state.display_state === 'running' || state.display_state === 'active'))
        break;
      expect(performance.now() - backAt, 'running again').toBeLessThan(60_000);
      await sleep(500);
    }
    const after = (await placedServices(cluster)).filter((service) => service.node === 'node-b');
    expect(after).toEqual(before);
    for (const folder of folders) {
      expect(statSync(folder.folder).ino, `${folder.id} kept its folder`).toBe(folder.inode);
      expect(existsSync(path.join(folder.folder, 'still-here')), `${folder.id} kept what it held`).toBe(true);
    }
    await expectConsistent(cluster);
  }, 300_000);
});
