// The worker's minute of backups (job `backups.tick`, every minute, one at a time across every
// worker process through pg-boss's schedule): gives every active service the provider's daily
// backup, queues the runs that are due, and mails owners about failed runs.
//
// Due runs: the due schedules are locked with SKIP LOCKED in one transaction, so two workers
// never queue the same schedule, and a run is unique per schedule and due time besides. A
// schedule queues at most one open run and its next time is counted from now, so a node or a
// worker that was down for a day runs a missed hourly schedule once, not 24 times.
import { PROVIDER_BACKUP_NAMES } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { createWorkspaceRows } from '../services/workspace-rows.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { nextRunAfter } from './backup-calendar.ts';
import { queueRun } from './backup-runs.ts';
import { backupFailedMail } from './backups.mail.ts';
import { createBackupsQueries } from './backups.queries.ts';
import { providerSchedule } from './backups.service.ts';

/** Schedules queued per transaction, and failure mails sent per tick. */
const BATCH = 50;

export const BACKUP_TICK_CRON = '* * * * *';

export function createBackupScheduler(deps: {
  db: Db;
  users: Pick<UsersQueries, 'findById'>;
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  wakeNode: (nodeId: string) => void;
  now: () => Date;
}) {
  const queries = createBackupsQueries(deps.db);
  const services = createWorkspaceRows(deps.db);

  async function provide(at: Date): Promise<number> {
    const [active, provided] = await Promise.all([
      services.listActive(),
      queries.servicesWithProviderSchedule(),
    ]);
    const missing = active.filter((service) => !provided.has(service.id));
    for (const service of missing) await queries.insertProviderSchedule(providerSchedule(service, at));
    return missing.length;
  }

  /** One batch of due schedules; how many it took. */
  async function queueBatch(at: Date, wake: Set<string>): Promise<{ taken: number; queued: number }> {
    return inTransaction(deps.db, async (tx) => {
      const q = createBackupsQueries(tx);
      const rows = createWorkspaceRows(tx);
      const due = await q.lockDue(at, BATCH);
      let queued = 0;
      for (const schedule of due) {
        const service = await rows.findForAccount(schedule.accountId, schedule.serviceId);
        if (service?.status === 'active' && schedule.nextRunAt) {
          await rows.bumpGeneration(service.id, at);
          const run = await queueRun(tx, schedule, { trigger: 'schedule', at, dueAt: schedule.nextRunAt });
          if (run?.created) queued += 1;
          if (service.nodeId) wake.add(service.nodeId);
        }
        await q.updateSchedule(schedule.id, {
          nextRunAt: nextRunAfter(
            {
              frequency: schedule.frequency,
              hour: schedule.hour,
              minute: schedule.minute,
              weekday: schedule.weekday,
              monthDay: schedule.monthDay,
              timeZone: schedule.timeZone,
            },
            at,
          ),
        });
      }
      return { taken: due.length, queued };
    });
  }

  async function mailFailures(): Promise<number> {
    let sent = 0;
    for (const session of await queries.pendingFailureMails(BATCH)) {
      const [owner, service] = await Promise.all([
        deps.users.findById(session.accountId),
        services.findForAccount(session.accountId, session.serviceId),
      ]);
      if (owner && service) {
        await deps.sendMail(
          backupFailedMail({
            id: `backup-failed-${session.id}`,
            to: owner.email,
            firstName: owner.firstName,
            language: owner.settings.language,
            serviceName: service.name,
            link: `${deps.publicUrl}/dashboard/services/${service.id}/backups`,
            scheduleName:
              session.scheduleName === PROVIDER_BACKUP_NAMES.en
                ? PROVIDER_BACKUP_NAMES[owner.settings.language]
                : session.scheduleName,
            failedAt: session.finishedAt ?? session.createdAt,
            code: session.errorCode ?? 'failed',
          }),
        );
        sent += 1;
      }
      await queries.updateSession(session.id, { failureMail: 'sent' });
    }
    return sent;
  }

  return {
    async tick(): Promise<{ provided: number; queued: number; mailed: number }> {
      const at = deps.now();
      const provided = await provide(at);
      const wake = new Set<string>();
      let queued = 0;
      for (;;) {
        const batch = await queueBatch(at, wake);
        queued += batch.queued;
        if (batch.taken < BATCH) break;
      }
      for (const nodeId of wake) deps.wakeNode(nodeId);
      return { provided, queued, mailed: await mailFailures() };
    },
  };
}
