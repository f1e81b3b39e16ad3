// The embedded default's one storage node: the real agent, run inside this process, talking to
// this process's API over loopback exactly as a remote node would. Its workspaces live under
// DATA_DIR/nodes/local. It needs no shared secret: this process holds the database, so when the
// node must register (first start, node.json lost) it issues itself a one-time enrollment token,
// as an operator would with `npm run nodes -- enroll local`; a re-registration is recorded and
// mailed to support like any other.
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadAgentConfig, startAgent, type Agent } from '@debesis/agent';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { localAgents } from './modules/nodes/node-waker.ts';
import { createNodesQueries } from './modules/nodes/nodes.queries.ts';
import { issueEnrollment } from './modules/nodes/nodes.service.ts';

const LOCAL_NODE = 'local';
/** Long enough for one registration call. */
const ENROLLMENT_VALID_MS = 5 * 60_000;

/** The agent's environment of the embedded node, from the API's configuration. */
export function embeddedAgentEnvironment(
  config: Pick<Config, 'dataDir' | 'AGENT_POLL_INTERVAL_MS' | 'AGENT_ADDRESS_POOL' | 'AGENT_CLIENT_ROUTES'>,
  apiUrl: string,
): Record<string, string | undefined> {
  return {
    AGENT_API_URL: apiUrl,
    AGENT_NODE_NAME: LOCAL_NODE,
    AGENT_DATA_DIR: path.join(config.dataDir, 'nodes', 'local'),
    AGENT_POLL_INTERVAL_MS: String(config.AGENT_POLL_INTERVAL_MS),
    AGENT_ADDRESS_POOL: config.AGENT_ADDRESS_POOL,
    // Clients beyond the node (a VPN client's or a share's): without them a workspace answers the
    // node only.
    AGENT_CLIENT_ROUTES: config.AGENT_CLIENT_ROUTES,
    // auto (default): as root with samba installed, workspaces are real (image, alias, smbd);
    // off: rendered only, for test runs of the product that must leave no mounts or daemons.
    AGENT_LIVE_WORKSPACES: process.env.AGENT_LIVE_WORKSPACES,
    // Backup and restore jobs the node runs at once (default 1: they read and write the disks
    // the workspaces serve from).
    AGENT_BACKUP_CONCURRENCY: process.env.AGENT_BACKUP_CONCURRENCY,
  };
}

export async function startEmbeddedAgent(options: {
  config: Config;
  apiUrl: string;
  database: Database;
  logger: FastifyBaseLogger;
}): Promise<Agent> {
  const agentConfig = loadAgentConfig(embeddedAgentEnvironment(options.config, options.apiUrl));
  const queries = createNodesQueries(options.database.db);
  const agent = startAgent(agentConfig, options.logger.child({ component: 'agent' }), {
    enrollmentToken: async () =>
      (await issueEnrollment(queries, LOCAL_NODE, { validForMs: ENROLLMENT_VALID_MS })).token,
  });
  // A change placed on this node (placement, start/stop, a new user…) wakes the agent at once
  // instead of at its next poll.
  const unregister = localAgents.register(agent);
  // The first pass registers the node; wait for it so `npm start` reports a healthy node.
  await agent.runOnce().catch((error: unknown) => {
    options.logger.warn({ err: error }, 'the embedded agent could not finish its first pass; it will retry');
  });
  return {
    runOnce: () => agent.runOnce(),
    wake: () => agent.wake(),
    async stop() {
      unregister();
      await agent.stop();
    },
    get nodeId() {
      return agent.nodeId;
    },
  };
}
