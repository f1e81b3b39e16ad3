// The VPN as a workspace feature (workspace-feature.ts): the `vpn` section of the desired state
// (absent while the service has no VPN users: no server), the VPN users and those online of the
// overview, the `vpn_user` failures of the agent's VPN driver, the sessions and traffic of the
// node's reports (`features.vpn`), and the /vpn routes.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { storeVpnReport } from './vpn.report.ts';
import { vpnRoutes } from './vpn.routes.ts';
import { createVpnService, VPN_FAILURE_KINDS } from './vpn.service.ts';

export const createVpnFeature: WorkspaceFeatureFactory = ({ db, changes, nodeCalls, publicUrl, limiter }) => {
  const vpn = createVpnService({ db, changes, nodeCalls, publicUrl });
  return {
    feature: 'vpn',
    failureKinds: VPN_FAILURE_KINDS,
    desiredSection: ({ serviceId }) => vpn.desiredSection(serviceId),
    counts: (serviceIds) => vpn.counts(serviceIds),
    planUsers: { code: 'below_vpn_users_in_use', inUse: (serviceId) => vpn.usersCount(serviceId) },
    reports: { vpn: storeVpnReport },
    routes: async (api) => {
      await api.register(vpnRoutes, { prefix: '/vpn', vpn, limiter });
    },
  };
};
