// What monitoring keeps of a node's report of a workspace, in the report's transaction:
//   - every report that says something new: the use as an hourly point (the quota's trend), each
//     daemon's start (uptime, restarting over and over), and the alerts a report decides (disk,
//     daemons, VPN limits);
//   - its `features.monitoring` section: the daemons' events (stored once each, by the node's
//     key, and added to the hourly rollup only when newly stored) and who owns what.
import { ACTIVITY_RETENTION_DAYS, RESTART_ALERT_MINUTES, type MonitoringReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { daemonAlerts, diskAlerts, EXPECTED_START_WINDOW, vpnAlerts } from './alert-rules.ts';
import { applyAlertDecision } from './alerts.ts';
import { kindCode } from './monitoring.codes.ts';
import { sourceCode } from './monitoring.codes.ts';
import {
  createMonitoringQueries,
  startOfHour,
  type HourShare,
  type NewEventRow,
} from './monitoring.queries.ts';

const DAY_MS = 86_400_000;
/** A node's clock may run a little ahead of the API's: an event up to this far ahead is kept as is. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** How long a report that says nothing new is trusted to have been stored (then it is again). */
const UNCHANGED_TRUST_MS = 60_000;

/**
 * The store told of every report (WorkspaceFeature.everyReport). A node reports each workspace
 * every few seconds, mostly the same: a report whose daemons, disk alert levels, VPN limits and
 * hour are what was stored last for the service, within the last minute, costs one statement
 * and stores nothing. The last stored key is kept in the database, in the report's transaction:
 * reports of one service land on any API process, and a key kept in one process's memory let a
 * process skip a report that another had since superseded (an alert raised there, left standing).
 * The minute's bound re-reads what time alone changes (a daemon's restarts leaving the window).
 */
export function createEveryReportStore(now: () => Date = () => new Date()) {
  return async function storeEveryReport(tx: Tx, context: FeatureReportContext): Promise<void> {
    const { serviceId, at, report } = context;
    const size = report.facts ? (report.facts.storage_bytes ?? context.planBytes) : null;
    const key = JSON.stringify([
      startOfHour(at).getTime(),
      report.drivers.map((driver) => [driver.driver, driver.serving ?? null, driver.started_at ?? null]),
      report.facts && size !== null
        ? diskAlerts(report.facts.disk_used_bytes, size).wanted.map((alert) => alert.kind)
        : null,
      report.features?.vpn?.usage.filter((usage) => usage.over_limit).map((usage) => usage.user) ?? null,
    ]);
    const stamp = now();
    const trustedSince = new Date(stamp.getTime() - UNCHANGED_TRUST_MS);
    if (!(await createMonitoringQueries(tx).claimReportKey(serviceId, key, stamp, trustedSince))) return;
    await storeReportFacts(tx, context);
  };
}

async function storeReportFacts(tx: Tx, context: FeatureReportContext): Promise<void> {
  const queries = createMonitoringQueries(tx);
  const { serviceId, accountId, at, report } = context;
  const scope = { serviceId, accountId };
  const starts = report.drivers.flatMap((driver) => {
    const startedAt = driver.started_at ? new Date(driver.started_at) : undefined;
    return startedAt && !Number.isNaN(startedAt.getTime()) ? [{ daemon: driver.driver, startedAt }] : [];
  });
  await queries.recordDaemonStarts(serviceId, starts);
  const recent = await queries.unexplainedDaemonStarts(
    serviceId,
    new Date(at.getTime() - RESTART_ALERT_MINUTES * 60_000),
    EXPECTED_START_WINDOW,
  );
  await applyAlertDecision(queries, scope, daemonAlerts(report.drivers, recent), at);

  if (report.facts) {
    const size = report.facts.storage_bytes ?? context.planBytes;
    await queries.recordUsageSample(
      serviceId,
      at,
      report.facts.disk_used_bytes,
      size,
      report.facts.file_count,
    );
    await applyAlertDecision(queries, scope, diskAlerts(report.facts.disk_used_bytes, size), at);
  }
  const vpn = report.features?.vpn;
  if (vpn)
    await applyAlertDecision(
      queries,
      scope,
      vpnAlerts(vpn.usage.filter((usage) => usage.over_limit).map((usage) => usage.user)),
      at,
    );
}

/** The event's time: the node's, unless it cannot be (unreadable, far ahead): then the report's. */
function eventTime(reported: string, at: Date): Date {
  const time = new Date(reported);
  return Number.isNaN(time.getTime()) || time.getTime() > at.getTime() + CLOCK_SKEW_MS ? at : time;
}

export async function storeMonitoringReport(
  tx: Tx,
  { serviceId, at }: FeatureReportContext,
  section: MonitoringReport,
): Promise<void> {
  const queries = createMonitoringQueries(tx);
  const oldest = at.getTime() - ACTIVITY_RETENTION_DAYS * DAY_MS;
  const rows: NewEventRow[] = [];
  for (const event of section.events) {
    const kind = kindCode(event.kind);
    const time = eventTime(event.at, at);
    if (kind === undefined || time.getTime() < oldest) continue;
    rows.push({
      serviceId,
      at: time,
      source: sourceCode(event.source),
      kind,
      username: event.user,
      path: event.path,
      target: event.target,
      bytes: event.bytes,
      remoteAddress: event.remote_address,
      nodeKey: event.id,
    });
  }
  const stored = await queries.insertEvents(rows);
  const hours = new Map<string, HourShare>();
  for (const event of stored) {
    const hour = startOfHour(event.at);
    const username = event.username ?? '';
    const key = `${hour.getTime()}\u0000${username}\u0000${event.source}\u0000${event.kind}`;
    const entry = hours.get(key) ?? {
      serviceId,
      hour,
      username,
      source: event.source,
      kind: event.kind,
      events: 0,
      bytes: 0,
    };
    entry.events += 1;
    entry.bytes += event.bytes ?? 0;
    hours.set(key, entry);
  }
  await queries.addToHours([...hours.values()]);

  if (section.usage) {
    const measuredAt = new Date(section.usage.measured_at);
    if (!Number.isNaN(measuredAt.getTime()))
      await queries.replaceUserUsage(serviceId, measuredAt, [
        ...section.usage.users.map(({ user, bytes, files }) => ({ username: user, bytes, files })),
        { username: '', bytes: section.usage.other_bytes, files: section.usage.other_files },
      ]);
  }
}
