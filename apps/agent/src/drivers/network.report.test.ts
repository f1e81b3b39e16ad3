// The network driver tells who can reach a workspace (issue point 4): the node only unless the
// agent has client routes (AGENT_CLIENT_ROUTES), which it then names.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { createNetworkDriver } from './network.driver.ts';

describe('network driver report', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'debesis-net-report-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const context = () => ({
    dataDir,
    workspaceDir: join(dataDir, 'ws'),
    logger: silentLogger,
    run: runCommand,
  });
  const desired = desiredWorkspace({ service_id: 'svc-report', address: '198.18.0.1' });

  it('says the workspace answers the node only without client routes', async () => {
    const driver = createNetworkDriver({ live: false, addressPool: ['198.18.0.1'] });
    expect(await driver.report!(desired, context())).toEqual({
      network: { reachable_from: 'node_only', client_routes: [] },
    });
  });

  it('names the client routes it answers beyond the node', async () => {
    const driver = createNetworkDriver({
      live: false,
      addressPool: ['198.18.0.1'],
      clientRoutes: ['192.0.2.7/24', '10.9.0.0/16'],
    });
    expect(await driver.report!(desired, context())).toEqual({
      network: { reachable_from: 'routes', client_routes: ['10.9.0.0/16', '192.0.2.0/24'] },
    });
  });
});
