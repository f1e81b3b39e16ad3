// Questions to the node that runs a service (a VPN user's config), met by that node's long poll
// in this process (modules/nodes/node-calls.ts says why in memory). Closing the app ends held
// polls first, so the server is not kept open by them.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createNodeCalls, type NodeCallsHub } from '../modules/nodes/node-calls.ts';
import { createNodeCallsRelay } from '../modules/nodes/node-calls-relay.ts';
import { localAgents } from '../modules/nodes/node-waker.ts';
import { createServicesQueries } from '../modules/services/services.queries.ts';

export async function createNodeCallsHub(
  app: FastifyInstance,
  { config, database }: { config: Config; database: Database },
): Promise<NodeCallsHub> {
  const servicesQueries = createServicesQueries(database.db);
  // On a server, several API processes share the calls through the database (node-calls-relay.ts).
  const relay = database.listen
    ? await createNodeCallsRelay({
        database,
        selfUrl: (config.INTERNAL_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, ''),
      })
    : undefined;
  const hub = createNodeCalls({
    nodeOf: async (serviceId) => (await servicesQueries.findById(serviceId))?.nodeId ?? undefined,
    log: app.log,
    ...(relay ? { relay } : {}),
  });
  app.addHook('preClose', async () => hub.close());
  // Without a relay every wake-up starts in this process; with one, it comes through the database.
  if (!relay) {
    const stopHearing = localAgents.listen((nodeId) => hub.nudge(nodeId));
    app.addHook('onClose', async () => stopHearing());
  }
  app.addHook('onClose', async () => relay?.close());
  return hub;
}
