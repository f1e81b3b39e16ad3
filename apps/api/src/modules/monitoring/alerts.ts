// Applies an alert decision (alert-rules.ts) to the stored alerts of one service: raises what is
// wanted and not open (the unique open index makes a raise by two processes at once one alert),
// clears what is open and no longer wanted. Mail and webhook posts are owed from here and paid
// by the minute's tick (monitoring.tick.ts).
import { MAILED_ALERT_KINDS, type AlertDecision } from './alert-rules.ts';
import type { Tx } from '../../db/transaction.ts';
import { createMonitoringQueries, type MonitoringQueries } from './monitoring.queries.ts';

const keyOf = (alert: { kind: string; subject: string }) => `${alert.kind}\u0000${alert.subject}`;

export async function applyAlertDecision(
  queries: MonitoringQueries,
  scope: { serviceId: string; accountId: string },
  decision: AlertDecision,
  at: Date,
): Promise<void> {
  const open = await queries.openAlerts(scope.serviceId, decision.kinds);
  const wanted = new Set(decision.wanted.map(keyOf));
  await queries.clear(
    open.filter((alert) => !wanted.has(keyOf(alert))).map((alert) => alert.id),
    at,
  );
  const raised = new Set(open.map(keyOf));
  for (const alert of decision.wanted) {
    if (raised.has(keyOf(alert))) continue;
    await queries.raise({
      ...scope,
      ...alert,
      raisedAt: at,
      mail: MAILED_ALERT_KINDS.has(alert.kind) ? 'pending' : 'sent',
    });
  }
}

/** applyAlertDecision for another module's report store, in the report's transaction (bandwidth). */
export function applyAlertDecisionIn(
  tx: Tx,
  scope: { serviceId: string; accountId: string },
  decision: AlertDecision,
  at: Date,
): Promise<void> {
  return applyAlertDecision(createMonitoringQueries(tx), scope, decision, at);
}
