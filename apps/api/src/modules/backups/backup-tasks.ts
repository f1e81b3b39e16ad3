// What other modules may read of backup runs and restores: as tasks (monitoring's GET tasks), and
// the schedules whose latest finished run failed (monitoring's backup alert).
import { and, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { backupRestores, backupSessions } from './backups.table.ts';

export interface BackupTaskRow {
  id: string;
  kind: 'backup' | 'restore';
  serviceId: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  subject: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  errorCode: string | null;
  error: string | null;
}

/** Runs and restores of the services made since `from` (or the one named by id), newest first. */
export async function backupTasks(
  db: Executor,
  serviceIds: string[],
  from: Date,
  id?: string,
): Promise<BackupTaskRow[]> {
  if (serviceIds.length === 0) return [];
  const runs = db
    .select({
      id: backupSessions.id,
      serviceId: backupSessions.serviceId,
      status: backupSessions.status,
      subject: backupSessions.scheduleName,
      createdAt: backupSessions.createdAt,
      startedAt: backupSessions.startedAt,
      finishedAt: backupSessions.finishedAt,
      errorCode: backupSessions.errorCode,
      error: backupSessions.error,
    })
    .from(backupSessions)
    .where(
      and(
        inArray(backupSessions.serviceId, serviceIds),
        id === undefined ? gte(backupSessions.createdAt, from) : eq(backupSessions.id, id),
      ),
    )
    .orderBy(desc(backupSessions.createdAt))
    .limit(500);
  const restores = db
    .select({
      id: backupRestores.id,
      serviceId: backupRestores.serviceId,
      status: backupRestores.status,
      subject: backupRestores.path,
      createdAt: backupRestores.createdAt,
      startedAt: backupRestores.startedAt,
      finishedAt: backupRestores.finishedAt,
      errorCode: backupRestores.errorCode,
      error: backupRestores.error,
    })
    .from(backupRestores)
    .where(
      and(
        inArray(backupRestores.serviceId, serviceIds),
        id === undefined ? gte(backupRestores.createdAt, from) : eq(backupRestores.id, id),
      ),
    )
    .orderBy(desc(backupRestores.createdAt))
    .limit(500);
  const [runRows, restoreRows] = await Promise.all([runs, restores]);
  return [
    ...runRows.map((row) => ({ ...row, kind: 'backup' as const })),
    ...restoreRows.map((row) => ({ ...row, kind: 'restore' as const })),
  ] as BackupTaskRow[];
}

export interface FailingSchedule {
  serviceId: string;
  accountId: string;
  scheduleId: string;
  scheduleName: string;
  errorCode: string | null;
  finishedAt: Date;
}

/** Every schedule whose latest finished run failed (one row each). */
export async function failingSchedules(db: Executor): Promise<FailingSchedule[]> {
  const latest = db
    .selectDistinctOn([backupSessions.scheduleId], {
      serviceId: backupSessions.serviceId,
      accountId: backupSessions.accountId,
      scheduleId: sql<string>`${backupSessions.scheduleId}`.as('schedule_id'),
      scheduleName: backupSessions.scheduleName,
      status: backupSessions.status,
      errorCode: backupSessions.errorCode,
      finishedAt: sql<Date>`${backupSessions.finishedAt}`.as('finished_at'),
    })
    .from(backupSessions)
    .where(and(isNotNull(backupSessions.scheduleId), isNotNull(backupSessions.finishedAt)))
    .orderBy(backupSessions.scheduleId, desc(backupSessions.finishedAt))
    .as('latest');
  const rows = await db.select().from(latest).where(eq(latest.status, 'failed'));
  return rows.map(({ status: _status, ...row }) => ({ ...row, finishedAt: new Date(row.finishedAt) }));
}
