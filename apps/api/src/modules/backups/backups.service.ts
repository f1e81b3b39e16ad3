// The workspace's backups (spec §3 "Backup schedule", "Backup history entry", §7 "Backups", §9):
// schedules, "run now", history, browse, restore, usage, and the `backup` section of the desired
// state (every queued or running job). The API decides what runs when (backups.scheduler.ts
// queues due runs; "run now" queues one here); the node runs each job once and reports
// (backups.report.ts).
//
// Every change goes through the workspace change pipeline (owner check, a service that runs its
// paid time, one transaction with the generation and the activity entry, then the node's
// wake-up). Reads check the owner the same way; another account's service is 404.
import type { z } from 'zod';
import {
  BACKUP_DEFAULT_TIME_ZONE,
  BACKUP_SCHEDULES_MAX,
  PROVIDER_BACKUP_NAMES,
  PROVIDER_BACKUP_RETENTION,
  type BackupBrowseResponse,
  type BackupPath,
  type BackupRestore,
  type BackupSchedule,
  type BackupSectionState,
  type BackupSession,
  type BackupSources,
  type BackupUsage,
  type backupRestoreRequestSchema,
  type createBackupScheduleRequestSchema,
  type updateBackupScheduleRequestSchema,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import { nodeCallError, type NodeCallStream, type NodeCalls } from '../nodes/node-calls.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { nextRunAfter, providerBackupTime } from './backup-calendar.ts';
import { queueRun, storageFolders } from './backup-runs.ts';
import {
  isBrowsable,
  presentRestore,
  presentSchedule,
  presentSession,
  presentUsage,
} from './backups.presenter.ts';
import { createBackupsQueries, type BackupScheduleRow } from './backups.queries.ts';

/** The name the node's agent gives its backup driver in its reports. */
export const BACKUP_DRIVER = NODE_DRIVERS.backup;

/** Restores listed at most. */
const RESTORES_LISTED = 50;
/** How long browsing waits for the node: a folder of many entries takes restic a moment. */
const BROWSE_TIMEOUT_MS = 30_000;

type CreateSchedule = z.output<typeof createBackupScheduleRequestSchema>;
type UpdateSchedule = z.output<typeof updateBackupScheduleRequestSchema>;
type RestoreRequest = z.output<typeof backupRestoreRequestSchema>;

/** The provider's daily backup of a service (§9), as a schedule row to insert. */
export function providerSchedule(service: { id: string; accountId: string }, at: Date) {
  const time = {
    frequency: 'daily' as const,
    ...providerBackupTime(service.id),
    weekday: 0,
    monthDay: 1,
    timeZone: BACKUP_DEFAULT_TIME_ZONE,
  };
  return {
    serviceId: service.id,
    accountId: service.accountId,
    name: PROVIDER_BACKUP_NAMES.en,
    ...time,
    paths: [],
    keepFull: PROVIDER_BACKUP_RETENTION.keep_full,
    keepIncremental: PROVIDER_BACKUP_RETENTION.keep_incremental,
    fullEveryDays: PROVIDER_BACKUP_RETENTION.full_every_days,
    state: 'active' as const,
    nextRunAt: nextRunAfter(time, at),
    createdAt: at,
    updatedAt: at,
  };
}

const scheduleTime = (
  row: Pick<BackupScheduleRow, 'frequency' | 'hour' | 'minute' | 'weekday' | 'monthDay' | 'timeZone'>,
) => ({
  frequency: row.frequency,
  hour: row.hour,
  minute: row.minute,
  weekday: row.weekday,
  monthDay: row.monthDay,
  timeZone: row.timeZone,
});

export function createBackupsService(deps: { db: Db; changes: WorkspaceChanges; nodeCalls: NodeCalls }) {
  const { changes } = deps;
  const queries = createBackupsQueries(deps.db);

  async function requireSchedule(db: Db, serviceId: string, id: string, lock = false) {
    const row = await createBackupsQueries(db).findSchedule(serviceId, id, lock);
    if (!row) throw new AppError('backup_schedule_not_found');
    return row;
  }

  async function requireSession(serviceId: string, id: string) {
    const row = await queries.findSession(serviceId, id);
    if (!row) throw new AppError('backup_session_not_found');
    return row;
  }

  /** Each path a schedule names must be a share, home or export the service has now. */
  async function checkPaths(db: Db, serviceId: string, paths: BackupPath[]): Promise<void> {
    const folders = new Set((await storageFolders(db, serviceId)).map((f) => `${f.kind}\u0000${f.name}`));
    const errors: AppFieldError[] = paths.flatMap((path, index) =>
      folders.has(`${path.kind}\u0000${path.name}`)
        ? []
        : [{ field: `paths.${index}.name`, code: 'backup_path_unknown', values: { name: path.name } }],
    );
    if (errors.length > 0) throw new AppError('validation_error', { fieldErrors: errors });
  }

  async function presentOne(db: Db, row: BackupScheduleRow): Promise<BackupSchedule> {
    return presentSchedule(row, (await createBackupsQueries(db).lastSessions(row.serviceId)).get(row.id));
  }

  return {
    async listSchedules(accountId: string, serviceId: string): Promise<{ schedules: BackupSchedule[] }> {
      const service = await changes.owned(accountId, serviceId);
      const [rows, last] = await Promise.all([
        queries.listSchedules(service.id),
        queries.lastSessions(service.id),
      ]);
      return { schedules: rows.map((row) => presentSchedule(row, last.get(row.id))) };
    },

    async createSchedule(
      accountId: string,
      serviceId: string,
      input: CreateSchedule,
      meta: ChangeMeta,
    ): Promise<BackupSchedule> {
      return changes.change<BackupSchedule>(accountId, serviceId, meta, async ({ tx, service, at }) => {
        const q = createBackupsQueries(tx);
        if ((await q.countOwnSchedules(service.id)) >= BACKUP_SCHEDULES_MAX) {
          throw new AppError('backup_schedule_limit');
        }
        await checkPaths(tx, service.id, input.paths);
        const time = {
          frequency: input.frequency,
          hour: input.hour,
          minute: input.minute,
          weekday: input.weekday,
          monthDay: input.month_day,
          timeZone: input.time_zone,
        };
        const row = await q.insertSchedule({
          serviceId: service.id,
          accountId,
          name: input.name,
          ...time,
          paths: input.paths,
          keepFull: input.keep_full,
          keepIncremental: input.keep_incremental,
          fullEveryDays: input.full_every_days,
          state: input.state,
          nextRunAt: nextRunAfter(time, at),
          createdAt: at,
          updatedAt: at,
        });
        return {
          result: presentSchedule(row, undefined),
          activity: [{ action: 'Backup schedule created', tone: 'success', details: { name: row.name } }],
        };
      });
    },

    async updateSchedule(
      accountId: string,
      serviceId: string,
      id: string,
      input: UpdateSchedule,
      meta: ChangeMeta,
    ): Promise<BackupSchedule> {
      return changes.change<BackupSchedule>(accountId, serviceId, meta, async ({ tx, service, at }) => {
        const row = await requireSchedule(tx, service.id, id, true);
        if (row.providerManaged) throw new AppError('backup_schedule_provider_managed');
        if (input.paths) await checkPaths(tx, service.id, input.paths);
        const time = scheduleTime({
          frequency: input.frequency ?? row.frequency,
          hour: input.hour ?? row.hour,
          minute: input.minute ?? row.minute,
          weekday: input.weekday ?? row.weekday,
          monthDay: input.month_day ?? row.monthDay,
          timeZone: input.time_zone ?? row.timeZone,
        });
        const state = input.state ?? row.state;
        const updated = await createBackupsQueries(tx).updateSchedule(row.id, {
          ...time,
          name: input.name ?? row.name,
          paths: input.paths ?? row.paths,
          keepFull: input.keep_full ?? row.keepFull,
          keepIncremental: input.keep_incremental ?? row.keepIncremental,
          fullEveryDays: input.full_every_days ?? row.fullEveryDays,
          state,
          // Resumed or moved: the next run counts from now, so a paused schedule does not run
          // at once for the times it missed.
          nextRunAt: nextRunAfter(time, at),
          updatedAt: at,
        });
        if (!updated) throw new AppError('backup_schedule_not_found');
        const fields = Object.keys(input).sort();
        return {
          result: await presentOne(tx, updated),
          activity: [
            {
              action: 'Backup schedule updated',
              tone: 'info',
              details: { name: updated.name, fields },
            },
          ],
        };
      });
    },

    async deleteSchedule(accountId: string, serviceId: string, id: string, meta: ChangeMeta): Promise<void> {
      await changes.change<void>(accountId, serviceId, meta, async ({ tx, service }) => {
        const row = await requireSchedule(tx, service.id, id, true);
        if (row.providerManaged) throw new AppError('backup_schedule_provider_managed');
        await createBackupsQueries(tx).deleteSchedule(row.id);
        return {
          result: undefined,
          activity: [{ action: 'Backup schedule deleted', tone: 'warning', details: { name: row.name } }],
        };
      });
    },

    /** Run now: the schedule's open run if it has one, else a new one (202). */
    async trigger(
      accountId: string,
      serviceId: string,
      id: string,
      meta: ChangeMeta,
    ): Promise<BackupSession> {
      return changes.change<BackupSession>(accountId, serviceId, meta, async ({ tx, service, at }) => {
        const row = await requireSchedule(tx, service.id, id, true);
        const queued = await queueRun(tx, row, { trigger: 'manual', at, dueAt: null });
        if (!queued) throw new Error('a manual run has no due time to clash on');
        if (!queued.created) return { unchanged: presentSession(queued.session) };
        return {
          result: presentSession(queued.session),
          activity: [{ action: 'Backup started', tone: 'info', details: { name: row.name } }],
        };
      });
    },

    async listSessions(
      accountId: string,
      serviceId: string,
      query: { schedule_id?: string | undefined; limit: number },
    ): Promise<{ sessions: BackupSession[] }> {
      const service = await changes.owned(accountId, serviceId);
      const rows = await queries.listSessions(service.id, query.schedule_id, query.limit);
      return { sessions: rows.map(presentSession) };
    },

    async browse(
      accountId: string,
      serviceId: string,
      sessionId: string,
      path: string,
    ): Promise<BackupBrowseResponse> {
      const service = await changes.owned(accountId, serviceId);
      const session = await requireSession(service.id, sessionId);
      if (!isBrowsable(session) || !session.snapshotId) throw new AppError('backup_not_browsable');
      const answer = await deps.nodeCalls.call(
        service.id,
        'backup.browse',
        { snapshot_id: session.snapshotId, path },
        { timeoutMs: BROWSE_TIMEOUT_MS },
      );
      if (!answer.ok) throw nodeCallError(answer.code, { not_found: 'backup_not_browsable' });
      if (!answer.result.found) throw new AppError('backup_path_not_found');
      return { path, entries: answer.result.entries, truncated: answer.result.truncated };
    },

    /**
     * One file of a completed backup, as the node streams it (restic dump). The caller pipes
     * `body` to the owner; nothing of it is kept here.
     */
    async download(
      accountId: string,
      serviceId: string,
      sessionId: string,
      path: string,
    ): Promise<NodeCallStream> {
      const service = await changes.owned(accountId, serviceId);
      const session = await requireSession(service.id, sessionId);
      if (!isBrowsable(session) || !session.snapshotId) throw new AppError('backup_not_browsable');
      const answer = await deps.nodeCalls.stream(
        service.id,
        'backup.download',
        { snapshot_id: session.snapshotId, path },
        { timeoutMs: BROWSE_TIMEOUT_MS },
      );
      if (!answer.ok) {
        // The node says `not_found` for a path that is no file in the snapshot.
        throw answer.code === 'not_found'
          ? new AppError('backup_path_not_found')
          : nodeCallError(answer.code, {});
      }
      return answer.stream;
    },

    async restore(
      accountId: string,
      serviceId: string,
      sessionId: string,
      input: RestoreRequest,
      meta: ChangeMeta,
    ): Promise<BackupRestore> {
      return changes.change<BackupRestore>(accountId, serviceId, meta, async ({ tx, service, at }) => {
        const q = createBackupsQueries(tx);
        const session = await q.findSession(service.id, sessionId);
        if (!session) throw new AppError('backup_session_not_found');
        if (!isBrowsable(session) || !session.snapshotId) throw new AppError('backup_not_browsable');
        const row = await q.insertRestore({
          serviceId: service.id,
          accountId,
          sessionId: session.id,
          snapshotId: session.snapshotId,
          path: input.path,
          target: input.target,
          status: 'queued',
          createdAt: at,
        });
        return {
          result: presentRestore(row),
          activity: [
            {
              action: 'Backup restore started',
              tone: 'info',
              details: { path: input.path, target: input.target, backup: session.scheduleName },
            },
          ],
        };
      });
    },

    async listRestores(accountId: string, serviceId: string): Promise<{ restores: BackupRestore[] }> {
      const service = await changes.owned(accountId, serviceId);
      return { restores: (await queries.listRestores(service.id, RESTORES_LISTED)).map(presentRestore) };
    },

    async usage(accountId: string, serviceId: string): Promise<BackupUsage> {
      const service = await changes.owned(accountId, serviceId);
      const [row, lastSuccess] = await Promise.all([
        queries.usage(service.id),
        queries.lastSuccessAt(service.id),
      ]);
      return presentUsage(row, lastSuccess);
    },

    async sources(accountId: string, serviceId: string): Promise<BackupSources> {
      const service = await changes.owned(accountId, serviceId);
      const folders = await storageFolders(deps.db, service.id);
      const named = (kind: BackupPath['kind']) =>
        folders.filter((folder) => folder.kind === kind).map((folder) => folder.name);
      return { shares: named('share'), homes: named('home'), exports: named('export') };
    },

    /** The `backup` section's jobs: every one not finished yet, oldest first. */
    async desiredSection(serviceId: string): Promise<{ backup: Pick<BackupSectionState, 'jobs'> }> {
      const { sessions, restores } = await queries.openJobs(serviceId);
      return {
        backup: {
          jobs: [
            ...sessions.map((session) => ({
              id: session.id,
              kind: 'backup' as const,
              type: session.type,
              paths: session.paths,
              tags: session.tags,
              retention: session.retention ?? null,
            })),
            ...restores.map((restore) => ({
              id: restore.id,
              kind: 'restore' as const,
              snapshot_id: restore.snapshotId,
              path: restore.path,
              target: restore.target,
            })),
          ].slice(0, 100),
        },
      };
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
