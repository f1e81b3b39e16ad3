// What a node reports of a workspace's VPN (contract `features.vpn`), stored: the sessions it
// sees now, and its per-user monthly counters turned into traffic history. The node counts bytes
// per user and calendar month across sessions and reconnects; the API keeps the last totals it
// saw, and the difference to the next ones is the traffic since, stored under the hour of the
// report. A new month, or a counter below the last seen (the node lost its count), starts over
// from zero: a delta is never negative. A month older than the one last seen is ignored.
import type { VpnReport, VpnUsageReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { createVpnQueries, type VpnSessionRow, type VpnUsageRow } from './vpn.queries.ts';
import { startOfHour, TRAFFIC_RETENTION_MS } from './vpn.traffic.ts';

type LastSeen = Pick<VpnUsageRow, 'month' | 'bytesSent' | 'bytesReceived'>;

/** Bytes moved since `previous`, or null when `reported` is of an older month. */
export function usageDelta(
  previous: LastSeen | undefined,
  reported: Pick<VpnUsageReport, 'month' | 'bytes_sent' | 'bytes_received'>,
): { sent: number; received: number } | null {
  if (previous && reported.month < previous.month) return null;
  if (!previous || reported.month !== previous.month) {
    return { sent: reported.bytes_sent, received: reported.bytes_received };
  }
  const since = (now: number, before: number) => (now >= before ? now - before : now);
  return {
    sent: since(reported.bytes_sent, previous.bytesSent),
    received: since(reported.bytes_received, previous.bytesReceived),
  };
}

type SessionValues = Omit<VpnSessionRow, 'id'>;

function sessionKey(session: SessionValues): string {
  return JSON.stringify([
    session.userId,
    session.realAddress,
    session.virtualAddress,
    session.bytesSent,
    session.bytesReceived,
    session.connectedSince.getTime(),
  ]);
}

function sameSessions(stored: readonly SessionValues[], reported: readonly SessionValues[]): boolean {
  if (stored.length !== reported.length) return false;
  const keys = stored.map(sessionKey).sort();
  return reported
    .map(sessionKey)
    .sort()
    .every((key, index) => key === keys[index]);
}

export async function storeVpnReport(tx: Tx, { serviceId, at }: FeatureReportContext, report: VpnReport) {
  const q = createVpnQueries(tx);
  const users = await q.listLogins(serviceId);
  const accountId = users[0]?.accountId;
  // Sessions and traffic are kept per VPN user: without users there is nothing to keep them by.
  if (!accountId) return;
  const byName = new Map(users.map((user) => [user.username.toLowerCase(), user]));

  const sessions = report.sessions.flatMap((session): SessionValues[] => {
    const user = byName.get(session.user.toLowerCase());
    const connectedSince = new Date(session.connected_since);
    if (!user || Number.isNaN(connectedSince.getTime())) return [];
    return [
      {
        serviceId,
        accountId,
        userId: user.id,
        realAddress: session.real_address,
        virtualAddress: session.virtual_address,
        bytesSent: session.bytes_sent,
        bytesReceived: session.bytes_received,
        connectedSince,
      },
    ];
  });
  if (!sameSessions(await q.sessionsOf(serviceId), sessions)) await q.replaceSessions(serviceId, sessions);
  await q.sessionsReported(serviceId, accountId, at);

  // One entry per user (a name listed twice, or in two cases, counts once: the last one).
  const reported = new Map<string, VpnUsageReport>();
  for (const entry of report.usage) {
    const user = byName.get(entry.user.toLowerCase());
    if (user) reported.set(user.id, entry);
  }
  const previous = new Map((await q.usageOf(serviceId)).map((row) => [row.userId, row]));
  const hour = startOfHour(at);
  const traffic: Parameters<typeof q.addTraffic>[0] = [];
  const usage: Parameters<typeof q.saveUsage>[0] = [];
  for (const [userId, entry] of reported) {
    const before = previous.get(userId);
    const delta = usageDelta(before, entry);
    if (!delta) continue;
    if (delta.sent > 0 || delta.received > 0) {
      traffic.push({
        serviceId,
        accountId,
        userId,
        hour,
        bytesSent: delta.sent,
        bytesReceived: delta.received,
      });
    }
    const same =
      before?.month === entry.month &&
      before.bytesSent === entry.bytes_sent &&
      before.bytesReceived === entry.bytes_received &&
      before.overLimit === entry.over_limit;
    if (!same) {
      usage.push({
        userId,
        serviceId,
        accountId,
        month: entry.month,
        bytesSent: entry.bytes_sent,
        bytesReceived: entry.bytes_received,
        overLimit: entry.over_limit,
        reportedAt: at,
      });
    }
  }
  await q.saveUsage(usage);
  if (traffic.length > 0) {
    await q.addTraffic(traffic);
    await q.pruneTraffic(serviceId, new Date(at.getTime() - TRAFFIC_RETENTION_MS));
  }
}
