// The workspace's own network link as a workspace feature (workspace-feature.ts): the
// `bandwidth_throttled` part of the desired state, the node's `features.network` section (reach,
// traffic: network.report.ts), and GET /network/{serviceId}.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { storeNetworkReport } from './network.report.ts';
import { networkRoutes } from './network.routes.ts';
import { createNetworkService } from './network.service.ts';

export const createNetworkFeature: WorkspaceFeatureFactory = ({ db, changes, plans }) => {
  const network = createNetworkService({ db, changes, plans });
  return {
    feature: 'network',
    desiredSection: ({ serviceId }) => network.desiredSection(serviceId),
    reports: { network: storeNetworkReport },
    routes: async (api) => {
      await api.register(networkRoutes, { prefix: '/network', network });
    },
  };
};
