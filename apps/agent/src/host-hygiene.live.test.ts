// Nothing the agent added is left on the host once it no longer needs it, as root against the
// real kernel: a real agent (its own loop, a stand-in API) applies a workspace, which makes its
// network and the pool's `unreachable … metric 4242` guard; once the last workspace is removed,
// `ip route` holds neither, and an agent that stops with no workspace takes a guard left behind
// (by an agent killed midway) along, while one that stops with workspaces keeps it (their daemons
// outlive it). Elsewhere it is skipped with the reason printed.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type Agent } from './agent.ts';
import type { AgentConfig } from './config.ts';
import { runCommand } from './exec/run-command.ts';
import { createJsonLogger, silentLogger } from './logger.ts';
import { poolBlocks, POOL_GUARD_METRIC } from './system/netns.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { startFakeApi, type FakeApi } from './testing/fake-api.ts';
import { testAgentConfig } from './testing/agent-config.ts';
import { liveSkipReason, randomTestAddresses } from './testing/live.ts';
import { removeTestNetworks } from './testing/network.ts';

const reason = await liveSkipReason('host hygiene test', [
  'ip',
  'losetup',
  'mkfs.ext4',
  'nsenter',
  'unshare',
]);

const POOL = randomTestAddresses(2);
const SERVICES = [`hyg-${randomUUID()}`, `hyg-${randomUUID()}`];

let api: FakeApi;
let dataDir: string;
const agents: Agent[] = [];

function config(): AgentConfig {
  return testAgentConfig(api, dataDir, {
    nodeName: 'hygiene-node',
    pollIntervalMs: 50,
    addresses: POOL,
    requestTimeoutMs: 5000,
    liveWorkspaces: true,
  });
}

function start(): Agent {
  const agent = startAgent(
    config(),
    process.env.DBG ? createJsonLogger((line) => process.stderr.write(line)) : silentLogger,
    { loop: false, calls: false },
  );
  agents.push(agent);
  return agent;
}

const workspace = (index: number, state: 'running' | 'removed' = 'running', generation = 1) =>
  desiredWorkspace({
    service_id: SERVICES[index]!,
    address: POOL[index]!,
    storage_bytes: 16 * 1024 * 1024,
    state,
    generation,
  });

/** `ip route` lines that name an address of the pool (the guard's and the workspaces'). */
async function poolRoutes(): Promise<string[]> {
  const { stdout } = await runCommand('ip', ['route', 'show'], { check: true });
  return stdout
    .split('\n')
    .filter((line) =>
      POOL.some((address) => line.startsWith(`unreachable ${address}`) || line.startsWith(`${address} `)),
    );
}

describe.skipIf(reason !== undefined)(
  'live host hygiene (root, real routes)',
  { shuffle: false, timeout: 120_000 },
  () => {
    beforeAll(async () => {
      api = await startFakeApi();
      dataDir = await mkdtemp(join(tmpdir(), 'agent-hygiene-'));
    });

    afterEach(async () => {
      for (const agent of agents.splice(0)) await agent.stop();
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      await removeTestNetworks(SERVICES, POOL);
      await api.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('the last workspace removed takes the pool’s guard routes along', async () => {
      const agent = start();
      api.workspaces = [workspace(0), workspace(1)];
      const made = await agent.runOnce();
      expect(made.workspaces.map((report) => report.ok)).toEqual([true, true]);
      const routes = await poolRoutes();
      expect(routes.some((line) => line.includes(`metric ${POOL_GUARD_METRIC}`))).toBe(true);

      // One of two removed: the other still needs the guard.
      api.workspaces = [workspace(0, 'removed', 2), workspace(1)];
      await agent.runOnce();
      expect((await poolRoutes()).filter((line) => line.includes(`metric ${POOL_GUARD_METRIC}`))).not.toEqual(
        [],
      );

      api.workspaces = [workspace(0, 'removed', 2), workspace(1, 'removed', 2)];
      const removed = await agent.runOnce();
      expect(removed.actions.join('\n')).toMatch(/removed the pool's guard/);
      expect(await poolRoutes()).toEqual([]);
    });

    it('an agent stopping with no workspace removes a guard left behind; with one it keeps it', async () => {
      // The guard an agent killed midway left, with no workspace on the node.
      for (const block of poolBlocks(POOL))
        await runCommand('ip', ['route', 'add', 'unreachable', block, 'metric', String(POOL_GUARD_METRIC)], {
          check: true,
        });
      expect(await poolRoutes()).not.toEqual([]);
      api.workspaces = [];
      await start().runOnce();
      await agents.pop()!.stop();
      expect(await poolRoutes()).toEqual([]);

      // With a workspace the guard stays when the agent stops.
      api.workspaces = [workspace(0, 'running', 3)];
      const agent = start();
      await agent.runOnce();
      await agents.pop()!.stop();
      expect((await poolRoutes()).some((line) => line.includes(`metric ${POOL_GUARD_METRIC}`))).toBe(true);

      const last = start();
      api.workspaces = [workspace(0, 'removed', 4)];
      await last.runOnce();
      expect(await poolRoutes()).toEqual([]);
    });
  },
);
