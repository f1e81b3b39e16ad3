// The embedded default's one storage node: the real agent, run inside this process, talking to
// this process's API over loopback exactly as a remote node would. Its workspaces live under
// DATA_DIR/nodes/local.
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { loadAgentConfig, startAgent, type Agent } from '@debesis/agent';
import type { Config } from './config.ts';
import { localAgents } from './modules/nodes/node-waker.ts';

export async function startEmbeddedAgent(options: {
  config: Config;
  apiUrl: string;
  logger: FastifyBaseLogger;
}): Promise<Agent> {
  const agentConfig = loadAgentConfig({
    AGENT_API_URL: options.apiUrl,
    AGENT_REGISTRATION_TOKEN: options.config.nodeRegistrationToken,
    AGENT_NODE_NAME: 'local',
    AGENT_DATA_DIR: path.join(options.config.dataDir, 'nodes', 'local'),
    AGENT_POLL_INTERVAL_MS: String(options.config.AGENT_POLL_INTERVAL_MS),
    AGENT_ADDRESS_POOL: options.config.AGENT_ADDRESS_POOL,
    // auto (default): as root with samba installed, workspaces are real (image, alias, smbd);
    // off: rendered only, for test runs of the product that must leave no mounts or daemons.
    AGENT_LIVE_WORKSPACES: process.env.AGENT_LIVE_WORKSPACES,
  });
  const agent = startAgent(agentConfig, options.logger.child({ component: 'agent' }));
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
