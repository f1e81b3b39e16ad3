// The only SQL on backup schedules, history, restores and usage.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { backupRestores, backupSchedules, backupSessions, backupUsage } from './backups.table.ts';

export type BackupScheduleRow = typeof backupSchedules.$inferSelect;
export type BackupSessionRow = typeof backupSessions.$inferSelect;
export type BackupRestoreRow = typeof backupRestores.$inferSelect;
export type BackupUsageRow = typeof backupUsage.$inferSelect;

const OPEN = ['queued', 'running'] as const;

export function createBackupsQueries(db: Executor) {
  return {
    async listSchedules(serviceId: string): Promise<BackupScheduleRow[]> {
      return db
        .select()
        .from(backupSchedules)
        .where(eq(backupSchedules.serviceId, serviceId))
        .orderBy(desc(backupSchedules.providerManaged), asc(backupSchedules.createdAt));
    },
    async findSchedule(serviceId: string, id: string, lock = false): Promise<BackupScheduleRow | undefined> {
      const query = db
        .select()
        .from(backupSchedules)
        .where(and(eq(backupSchedules.serviceId, serviceId), eq(backupSchedules.id, id)))
        .limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },
    async countOwnSchedules(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(backupSchedules)
        .where(and(eq(backupSchedules.serviceId, serviceId), eq(backupSchedules.providerManaged, false)));
      return row?.count ?? 0;
    },
    async insertSchedule(values: typeof backupSchedules.$inferInsert): Promise<BackupScheduleRow> {
      const [row] = await db.insert(backupSchedules).values(values).returning();
      if (!row) throw new Error('backup schedule not inserted');
      return row;
    },
    /** The provider's schedule of a service, made once: a second insert does nothing. */
    async insertProviderSchedule(values: typeof backupSchedules.$inferInsert): Promise<void> {
      await db
        .insert(backupSchedules)
        .values({ ...values, providerManaged: true })
        .onConflictDoNothing({
          target: backupSchedules.serviceId,
          where: sql`${backupSchedules.providerManaged}`,
        });
    },
    async servicesWithProviderSchedule(): Promise<Set<string>> {
      const rows = await db
        .select({ serviceId: backupSchedules.serviceId })
        .from(backupSchedules)
        .where(eq(backupSchedules.providerManaged, true));
      return new Set(rows.map((row) => row.serviceId));
    },
    async updateSchedule(
      id: string,
      values: Partial<typeof backupSchedules.$inferInsert>,
    ): Promise<BackupScheduleRow | undefined> {
      const [row] = await db
        .update(backupSchedules)
        .set(values)
        .where(eq(backupSchedules.id, id))
        .returning();
      return row;
    },
    async deleteSchedule(id: string): Promise<void> {
      await db.delete(backupSchedules).where(eq(backupSchedules.id, id));
    },
    /**
     * Active schedules due at `at`, locked for this transaction; another scheduler skips them, so
     * two processes never queue one due time twice (the unique due index stands behind that too).
     */
    async lockDue(at: Date, limit: number): Promise<BackupScheduleRow[]> {
      return db
        .select()
        .from(backupSchedules)
        .where(
          and(
            eq(backupSchedules.state, 'active'),
            isNotNull(backupSchedules.nextRunAt),
            lte(backupSchedules.nextRunAt, at),
          ),
        )
        .orderBy(asc(backupSchedules.nextRunAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    async listSessions(serviceId: string, scheduleId: string | undefined, limit: number) {
      return db
        .select()
        .from(backupSessions)
        .where(
          and(
            eq(backupSessions.serviceId, serviceId),
            scheduleId ? eq(backupSessions.scheduleId, scheduleId) : undefined,
          ),
        )
        .orderBy(desc(backupSessions.createdAt), desc(backupSessions.id))
        .limit(limit);
    },
    async findSession(serviceId: string, id: string): Promise<BackupSessionRow | undefined> {
      const [row] = await db
        .select()
        .from(backupSessions)
        .where(and(eq(backupSessions.serviceId, serviceId), eq(backupSessions.id, id)))
        .limit(1);
      return row;
    },
    /** Each schedule's newest history entry. */
    async lastSessions(serviceId: string): Promise<Map<string, BackupSessionRow>> {
      const rows = await db
        .selectDistinctOn([backupSessions.scheduleId])
        .from(backupSessions)
        .where(and(eq(backupSessions.serviceId, serviceId), isNotNull(backupSessions.scheduleId)))
        .orderBy(backupSessions.scheduleId, desc(backupSessions.createdAt));
      return new Map(rows.map((row) => [row.scheduleId ?? '', row]));
    },
    async openSessionOf(scheduleId: string): Promise<BackupSessionRow | undefined> {
      const [row] = await db
        .select()
        .from(backupSessions)
        .where(and(eq(backupSessions.scheduleId, scheduleId), inArray(backupSessions.status, OPEN)))
        .limit(1);
      return row;
    },
    /** When the schedule last completed a full run. */
    async lastFullAt(scheduleId: string): Promise<Date | null> {
      const [row] = await db
        .select({
          at: sql<Date | null>`max(${backupSessions.finishedAt})`.mapWith(backupSessions.finishedAt),
        })
        .from(backupSessions)
        .where(
          and(
            eq(backupSessions.scheduleId, scheduleId),
            eq(backupSessions.type, 'full'),
            eq(backupSessions.status, 'completed'),
          ),
        );
      return row?.at ?? null;
    },
    /** A new run; undefined when this schedule's due time was queued already. */
    async insertSession(values: typeof backupSessions.$inferInsert): Promise<BackupSessionRow | undefined> {
      const [row] = await db.insert(backupSessions).values(values).onConflictDoNothing().returning();
      return row;
    },
    async updateSession(id: string, values: Partial<typeof backupSessions.$inferInsert>): Promise<void> {
      await db.update(backupSessions).set(values).where(eq(backupSessions.id, id));
    },
    /** The schedule's last finished run before this one: whether the owner was told already. */
    async previousFinished(scheduleId: string, before: Date, exceptId: string) {
      const [row] = await db
        .select({ status: backupSessions.status })
        .from(backupSessions)
        .where(
          and(
            eq(backupSessions.scheduleId, scheduleId),
            inArray(backupSessions.status, ['completed', 'failed']),
            lte(backupSessions.createdAt, before),
            ne(backupSessions.id, exceptId),
          ),
        )
        .orderBy(desc(backupSessions.createdAt))
        .limit(1);
      return row;
    },
    /** Completed runs whose snapshot the repository no longer holds: retention forgot them. */
    async markPruned(serviceId: string, snapshotIds: string[], at: Date): Promise<void> {
      await db
        .update(backupSessions)
        .set({ prunedAt: at })
        .where(
          and(
            eq(backupSessions.serviceId, serviceId),
            eq(backupSessions.status, 'completed'),
            isNull(backupSessions.prunedAt),
            isNotNull(backupSessions.snapshotId),
            snapshotIds.length > 0 ? notInArray(backupSessions.snapshotId, snapshotIds) : undefined,
          ),
        );
    },
    async lastSuccessAt(serviceId: string): Promise<Date | null> {
      const [row] = await db
        .select({
          at: sql<Date | null>`max(${backupSessions.finishedAt})`.mapWith(backupSessions.finishedAt),
        })
        .from(backupSessions)
        .where(and(eq(backupSessions.serviceId, serviceId), eq(backupSessions.status, 'completed')));
      return row?.at ?? null;
    },
    async pendingFailureMails(limit: number): Promise<BackupSessionRow[]> {
      return db
        .select()
        .from(backupSessions)
        .where(eq(backupSessions.failureMail, 'pending'))
        .orderBy(asc(backupSessions.finishedAt))
        .limit(limit);
    },

    async openJobs(serviceId: string) {
      const [sessions, restores] = await Promise.all([
        db
          .select()
          .from(backupSessions)
          .where(and(eq(backupSessions.serviceId, serviceId), inArray(backupSessions.status, OPEN)))
          .orderBy(asc(backupSessions.createdAt)),
        db
          .select()
          .from(backupRestores)
          .where(and(eq(backupRestores.serviceId, serviceId), inArray(backupRestores.status, OPEN)))
          .orderBy(asc(backupRestores.createdAt)),
      ]);
      return { sessions, restores };
    },

    async listRestores(serviceId: string, limit: number): Promise<BackupRestoreRow[]> {
      return db
        .select()
        .from(backupRestores)
        .where(eq(backupRestores.serviceId, serviceId))
        .orderBy(desc(backupRestores.createdAt), desc(backupRestores.id))
        .limit(limit);
    },
    async insertRestore(values: typeof backupRestores.$inferInsert): Promise<BackupRestoreRow> {
      const [row] = await db.insert(backupRestores).values(values).returning();
      if (!row) throw new Error('restore not inserted');
      return row;
    },
    async updateRestore(
      serviceId: string,
      id: string,
      values: Partial<typeof backupRestores.$inferInsert>,
    ): Promise<boolean> {
      const rows = await db
        .update(backupRestores)
        .set(values)
        .where(and(eq(backupRestores.serviceId, serviceId), eq(backupRestores.id, id)))
        .returning({ id: backupRestores.id });
      return rows.length > 0;
    },

    async usage(serviceId: string): Promise<BackupUsageRow | undefined> {
      const [row] = await db.select().from(backupUsage).where(eq(backupUsage.serviceId, serviceId)).limit(1);
      return row;
    },
    async saveUsage(values: BackupUsageRow): Promise<void> {
      await db
        .insert(backupUsage)
        .values(values)
        .onConflictDoUpdate({
          target: backupUsage.serviceId,
          set: {
            repositoryBytes: values.repositoryBytes,
            storedBytes: values.storedBytes,
            snapshots: values.snapshots,
            measuredAt: values.measuredAt,
          },
        });
    },
  };
}

export type BackupsQueries = ReturnType<typeof createBackupsQueries>;
