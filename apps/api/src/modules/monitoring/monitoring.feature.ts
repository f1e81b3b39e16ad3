// Monitoring as a workspace feature (workspace-feature.ts): told of every report (use, daemons'
// starts, the alerts a report decides), the `features.monitoring` section (the daemons' events,
// who owns what), and the /monitoring routes. It has no desired state: the node collects
// activity from every feature's daemon without being asked.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createEveryReportStore, storeMonitoringReport } from './monitoring.report.ts';
import { monitoringRoutes } from './monitoring.routes.ts';
import { createMonitoringService } from './monitoring.service.ts';
import { createWebhooks } from './webhooks.ts';

export const createMonitoringFeature: WorkspaceFeatureFactory = ({
  db,
  changes,
  serverSecret,
  secureCookies,
}) => {
  const monitoring = createMonitoringService({ db, changes, now: changes.now });
  const webhooks = createWebhooks({
    db,
    serverSecret,
    // Only the embedded development mode (no Secure cookies: not served over HTTPS) and the test
    // runs built on it may post to a receiver on a private or local address.
    allowPrivateTargets: !secureCookies,
    now: changes.now,
  });
  return {
    feature: 'monitoring',
    everyReport: createEveryReportStore(changes.now),
    reports: { monitoring: storeMonitoringReport },
    routes: async (api) => {
      await api.register(monitoringRoutes, { prefix: '/monitoring', monitoring, webhooks });
    },
  };
};
