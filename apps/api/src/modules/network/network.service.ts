// A workspace's network link for its owner (contract ServiceNetwork) and its part of the desired
// state (`bandwidth_throttled`, decided by network.report.ts).
import {
  BANDWIDTH_THROTTLE_KBIT,
  type ServiceNetwork,
  type WorkspaceFeatureSections,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { WorkspaceChanges } from '../workspace/workspace-change.ts';
import { servicesAddressOf, type PlanFacts } from '../workspace/workspace-feature.ts';
import { bandwidthLimitBytes, bandwidthMonth, usedPercent } from './network.period.ts';
import { createNetworkQueries } from './network.queries.ts';

export const NETWORK_DRIVER = NODE_DRIVERS.network;

export function createNetworkService(deps: { db: Db; changes: WorkspaceChanges; plans: PlanFacts }) {
  const queries = createNetworkQueries(deps.db);
  return {
    async desiredSection(serviceId: string): Promise<Partial<WorkspaceFeatureSections>> {
      const row = await queries.find(serviceId);
      return row?.throttled ? { bandwidth_throttled: true } : {};
    },

    async view(accountId: string, serviceId: string): Promise<ServiceNetwork> {
      const service = await deps.changes.owned(accountId, serviceId);
      const row = await queries.find(service.id);
      const month = bandwidthMonth(service.paidFrom, deps.changes.now());
      const traffic = await queries.monthTraffic(service.id, month.start);
      const used = traffic.received + traffic.sent;
      const limit = bandwidthLimitBytes(service.diskSpace);
      // A NAT plan's node binds every daemon but OpenVPN inside the tunnel (the agent's
      // net/serving-address.ts): the owner is told that address and to connect the VPN first.
      return {
        reachable_from: row?.reachableFrom ?? null,
        client_routes: row?.clientRoutes ?? [],
        vpn_only: !(await deps.plans.publicAddress(service.productId)),
        services_address: await servicesAddressOf(deps.plans, service),
        reported_at: row?.reportedAt.toISOString() ?? null,
        bandwidth:
          service.nodeId === null
            ? null
            : {
                period_start: month.start.toISOString(),
                period_end: month.end.toISOString(),
                limit_bytes: limit,
                used_bytes: used,
                received_bytes: traffic.received,
                sent_bytes: traffic.sent,
                percent: usedPercent(used, limit),
                // Lifted by the first report of a new month; until then the node still has it.
                throttled: row?.throttled ?? false,
                throttle_kbit: BANDWIDTH_THROTTLE_KBIT,
              },
      };
    },
  };
}

export type NetworkService = ReturnType<typeof createNetworkService>;
