// The embedded local node registers itself with no set-up (a one-time token it issues in-process),
// keeps its identity across restarts, and a lost node.json is a recorded re-registration.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadAgentConfig } from '@debesis/agent';
import { embeddedAgentEnvironment, startEmbeddedAgent } from './embedded-agent.ts';
import { createNodesQueries } from './modules/nodes/nodes.queries.ts';
import { useTestContext } from './test/test-app.ts';

// One story: enrolled first, then its node.json lost; its steps keep their order when tests shuffle.
describe('the embedded local node', { shuffle: false }, () => {
  let apiUrl: string;
  const ctx = useTestContext({}, async (ctx) => {
    apiUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });

  const start = () =>
    startEmbeddedAgent({
      config: { ...ctx.config, nodeRegistrationToken: undefined },
      apiUrl,
      database: ctx.database,
      logger: pino({ level: 'silent' }),
    });
  const trail = async () =>
    (await createNodesQueries(ctx.database.db).registrationsOf('local')).map((row) => row.outcome);

  it('enrolls itself without a registration token, and keeps its identity across restarts', async () => {
    const first = await start();
    const nodeId = first.nodeId;
    expect(nodeId).toBeDefined();
    await first.stop();

    const second = await start();
    expect(second.nodeId).toBe(nodeId);
    await second.stop();
    expect(await trail()).toEqual(['enrolled']);
  });

  it('registers again when its node.json is lost: recorded and mailed to support', async () => {
    await rm(path.join(ctx.config.dataDir, 'nodes', 'local', 'node.json'));
    const agent = await start();
    expect(agent.nodeId).toBeDefined();
    await agent.stop();
    expect(await trail()).toEqual(['enrolled', 're-registered']);
    expect(ctx.mailbox.last(ctx.config.SUPPORT_EMAIL).subject).toBe('Storage node local registered again');
  });
});

describe('the embedded local node’s configuration', () => {
  it('answers the client blocks AGENT_CLIENT_ROUTES names (a VPN client beyond the node)', () => {
    const config = {
      dataDir: '/tmp/debesis-data',
      AGENT_POLL_INTERVAL_MS: 1000,
      AGENT_ADDRESS_POOL: '198.18.12.1-198.18.12.254',
    };
    const url = 'http://127.0.0.1:1';
    expect(
      loadAgentConfig(embeddedAgentEnvironment({ ...config, AGENT_CLIENT_ROUTES: '198.19.7.4/30' }, url))
        .clientRoutes,
    ).toEqual(['198.19.7.4/30']);
    expect(
      loadAgentConfig(embeddedAgentEnvironment({ ...config, AGENT_CLIENT_ROUTES: '' }, url)).clientRoutes,
    ).toEqual([]);
  });
});
