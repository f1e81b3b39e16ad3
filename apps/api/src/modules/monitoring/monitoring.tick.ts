// The worker's minute of monitoring (job `monitoring.tick`, one at a time across every worker
// through pg-boss's schedule):
//   - the alerts no report can decide: a node silent for NODE_UNREACHABLE_SECONDS, a service
//     ending within EXPIRY_ALERT_DAYS, a backup schedule whose latest run failed;
//   - what is owed of each alert: the owner's mail when raised (once: marked sent after), and
//     the account's webhook post when raised and when cleared (retried each minute for a day).
// And, hourly (`monitoring.prune`), events and rollups past ACTIVITY_RETENTION_DAYS.
import { ACTIVITY_RETENTION_DAYS, NODE_UNREACHABLE_SECONDS, type AlertKind } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { failingSchedules } from '../backups/backup-tasks.ts';
import { onlineNodesSince } from '../nodes/online-nodes.ts';
import { createWorkspaceRows } from '../services/workspace-rows.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { expiryAlert, type AlertDecision, type WantedAlert } from './alert-rules.ts';
import { applyAlertDecision } from './alerts.ts';
import { alertMail } from './monitoring.mail.ts';
import { createMonitoringQueries, type AlertRow } from './monitoring.queries.ts';
import type { WebhookSender } from './webhooks.ts';

export const MONITORING_TICK_CRON = '* * * * *';
export const MONITORING_PRUNE_CRON = '41 * * * *';
const OWED_BATCH = 100;
const DAY_MS = 86_400_000;
/** The kinds the tick decides, for every active service at once. */
const SWEPT_KINDS: AlertKind[] = ['node_unreachable', 'service_expiring', 'backup_failed'];

export function createMonitoringTick(deps: {
  db: Db;
  users: Pick<UsersQueries, 'findById'>;
  sendMail: (message: MailMessage) => Promise<void>;
  webhooks: WebhookSender;
  publicUrl: string;
  now: () => Date;
}) {
  const queries = createMonitoringQueries(deps.db);
  const services = createWorkspaceRows(deps.db);

  async function sweep(at: Date): Promise<void> {
    const [active, online, failing, open] = await Promise.all([
      services.listActive(),
      onlineNodesSince(deps.db, new Date(at.getTime() - NODE_UNREACHABLE_SECONDS * 1000)),
      failingSchedules(deps.db),
      queries.openAlertsOfKinds(SWEPT_KINDS),
    ]);
    const onlineIds = new Set(online.map((node) => node.id));
    const failingOf = new Map<string, WantedAlert[]>();
    for (const schedule of failing) {
      const list = failingOf.get(schedule.serviceId) ?? [];
      list.push({
        kind: 'backup_failed',
        level: 'warning',
        subject: schedule.scheduleId,
        params: {
          schedule: schedule.scheduleName,
          ...(schedule.errorCode ? { code: schedule.errorCode } : {}),
        },
      });
      failingOf.set(schedule.serviceId, list);
    }
    const activeIds = new Set(active.map((service) => service.id));
    for (const service of active) {
      const wanted: WantedAlert[] = [...(failingOf.get(service.id) ?? [])];
      if (service.nodeId && !onlineIds.has(service.nodeId))
        wanted.push({ kind: 'node_unreachable', level: 'critical', subject: '', params: {} });
      const expiry = expiryAlert(service.validUntil, at);
      if (expiry) wanted.push(expiry);
      const decision: AlertDecision = { kinds: SWEPT_KINDS, wanted };
      const hasOpen = open.some((alert) => alert.serviceId === service.id);
      if (wanted.length > 0 || hasOpen)
        await applyAlertDecision(
          queries,
          { serviceId: service.id, accountId: service.accountId },
          decision,
          at,
        );
    }
    // A service no longer active (expired, terminated) has none of these causes left.
    const gone = open.filter((alert) => !activeIds.has(alert.serviceId));
    await queries.clear(
      gone.map((alert) => alert.id),
      at,
    );
  }

  async function pay(alert: AlertRow, at: Date): Promise<void> {
    const service = await services.findForAccount(alert.accountId, alert.serviceId);
    if (alert.mail === 'pending') {
      const owner = await deps.users.findById(alert.accountId);
      const message =
        owner &&
        service &&
        alertMail({
          id: `alert-${alert.id}`,
          to: owner.email,
          firstName: owner.firstName,
          language: owner.settings.language,
          serviceName: service.name,
          link: `${deps.publicUrl}/dashboard/services/${service.id}/monitoring`,
          kind: alert.kind as AlertKind,
          params: alert.params,
        });
      if (message) await deps.sendMail(message);
      await queries.markMailed(alert.id);
    }
    if (alert.hook) {
      const state = alert.hook;
      const delivered =
        !service || (await deps.webhooks.post({ ...alert, serviceName: service.name }, state, at));
      const stale = at.getTime() - (alert.clearedAt ?? alert.raisedAt).getTime() > DAY_MS;
      if (delivered || stale) await queries.markHooked(alert.id, state);
    }
  }

  return {
    async tick(): Promise<{ owed: number }> {
      const at = deps.now();
      await sweep(at);
      const owed = await queries.owedAlerts(OWED_BATCH);
      for (const alert of owed) await pay(alert, at);
      return { owed: owed.length };
    },

    async prune(): Promise<number> {
      return queries.prune(new Date(deps.now().getTime() - ACTIVITY_RETENTION_DAYS * DAY_MS));
    },
  };
}
