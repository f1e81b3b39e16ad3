// What the API keeps of a node's `features.network` section of a workspace, in the report's
// transaction: who can reach the workspace, and its traffic, added to the month of its billing
// period by the growth of the node's running total (network.period.ts). Then the month's use
// decides the bandwidth alerts (through monitoring's alert rules: raised once, mailed once,
// cleared with a new month) and the throttle: when that changes, the service's generation moves,
// so its node pulls `bandwidth_throttled` and applies it (tc) or lifts it.
//
// Nodes report every few seconds, mostly the same: a report that changes neither the reach nor
// the total, within the month already decided, costs one query.
import type { NetworkReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import { applyAlertDecisionIn } from '../monitoring/alerts.ts';
import { createWorkspaceRows } from '../services/workspace-rows.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { bandwidthDecision, bandwidthLimitBytes, bandwidthMonth, trafficGrowth } from './network.period.ts';
import { createNetworkQueries } from './network.queries.ts';

export async function storeNetworkReport(
  tx: Tx,
  { serviceId, accountId, at }: FeatureReportContext,
  section: NetworkReport,
): Promise<void> {
  const queries = createNetworkQueries(tx);
  const rows = createWorkspaceRows(tx);
  const service = await rows.findById(serviceId);
  if (!service) return;
  const row = await queries.findForUpdate(serviceId);
  const month = bandwidthMonth(service.paidFrom, at);
  const traffic = section.traffic;
  const sameReach =
    row?.reachableFrom === section.reachable_from &&
    row.clientRoutes.join(',') === section.client_routes.join(',');
  const sameCounter =
    !traffic ||
    (row?.counterId === traffic.counter_id &&
      row.counterReceived === traffic.received_bytes &&
      row.counterSent === traffic.sent_bytes);
  const sameMonth = row?.periodStart?.getTime() === month.start.getTime();
  if (row && sameReach && sameCounter && sameMonth) return;

  const growth = traffic
    ? trafficGrowth(
        row && { counterId: row.counterId, received: row.counterReceived, sent: row.counterSent },
        traffic,
      )
    : { received: 0, sent: 0 };
  const totals =
    growth.received + growth.sent > 0
      ? await queries.addTraffic(serviceId, month.start, growth, at)
      : await queries.monthTraffic(serviceId, month.start);
  const decision = bandwidthDecision(totals.received + totals.sent, bandwidthLimitBytes(service.diskSpace));
  await applyAlertDecisionIn(tx, { serviceId, accountId }, decision.alerts, at);
  const throttled = row?.throttled ?? false;
  if (decision.throttle !== throttled) await rows.bumpGeneration(serviceId, at);
  await queries.save({
    serviceId,
    reachableFrom: section.reachable_from,
    clientRoutes: section.client_routes,
    counterId: traffic?.counter_id ?? row?.counterId ?? null,
    counterReceived: traffic?.received_bytes ?? row?.counterReceived ?? 0,
    counterSent: traffic?.sent_bytes ?? row?.counterSent ?? 0,
    throttled: decision.throttle,
    periodStart: month.start,
    reportedAt: at,
  });
}
