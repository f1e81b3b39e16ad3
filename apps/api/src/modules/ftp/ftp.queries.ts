// The only SQL on FTP access, settings and sessions. Every function takes the handle it runs on,
// so a change runs them inside its transaction.
import { and, asc, eq } from 'drizzle-orm';
import type { FtpProtocol } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { ftpSessionReports, ftpSessions, ftpSettings, ftpUsers } from './ftp.table.ts';

export type FtpUserRow = typeof ftpUsers.$inferSelect;
export type FtpSettingsRow = typeof ftpSettings.$inferSelect;
export type FtpSessionRow = typeof ftpSessions.$inferSelect;
export type FtpSettingsValues = Omit<
  FtpSettingsRow,
  'serviceId' | 'accountId' | 'changedGeneration' | 'updatedAt'
>;

export function createFtpQueries(db: Db) {
  return {
    async usersOf(serviceId: string): Promise<FtpUserRow[]> {
      return db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId));
    },
    async saveUser(values: typeof ftpUsers.$inferInsert): Promise<void> {
      const { userId: _userId, serviceId: _serviceId, accountId: _accountId, ...changes } = values;
      await db.insert(ftpUsers).values(values).onConflictDoUpdate({ target: ftpUsers.userId, set: changes });
    },
    async deleteUser(userId: string): Promise<void> {
      await db.delete(ftpUsers).where(eq(ftpUsers.userId, userId));
      await db.delete(ftpSessions).where(eq(ftpSessions.userId, userId));
    },

    async findSettings(serviceId: string): Promise<FtpSettingsRow | undefined> {
      const [row] = await db.select().from(ftpSettings).where(eq(ftpSettings.serviceId, serviceId)).limit(1);
      return row;
    },
    async saveSettings(values: typeof ftpSettings.$inferInsert): Promise<FtpSettingsRow> {
      const { serviceId: _serviceId, accountId: _accountId, ...changes } = values;
      const [row] = await db
        .insert(ftpSettings)
        .values(values)
        .onConflictDoUpdate({ target: ftpSettings.serviceId, set: changes })
        .returning();
      if (!row) throw new Error('ftp settings upsert returned no row');
      return row;
    },

    async sessionsOf(serviceId: string): Promise<FtpSessionRow[]> {
      return db
        .select()
        .from(ftpSessions)
        .where(eq(ftpSessions.serviceId, serviceId))
        .orderBy(asc(ftpSessions.connectedSince), asc(ftpSessions.id));
    },
    async replaceSessions(
      serviceId: string,
      protocol: FtpProtocol,
      rows: Array<typeof ftpSessions.$inferInsert>,
    ): Promise<void> {
      await db
        .delete(ftpSessions)
        .where(and(eq(ftpSessions.serviceId, serviceId), eq(ftpSessions.protocol, protocol)));
      if (rows.length > 0) await db.insert(ftpSessions).values(rows);
    },
    async markReported(serviceId: string, accountId: string, protocol: FtpProtocol, at: Date): Promise<void> {
      await db
        .insert(ftpSessionReports)
        .values({ serviceId, accountId, protocol, reportedAt: at })
        .onConflictDoUpdate({
          target: [ftpSessionReports.serviceId, ftpSessionReports.protocol],
          set: { reportedAt: at },
        });
    },
    async reportedAt(serviceId: string): Promise<Date | null> {
      const rows = await db
        .select({ reportedAt: ftpSessionReports.reportedAt })
        .from(ftpSessionReports)
        .where(eq(ftpSessionReports.serviceId, serviceId));
      const times = rows.map((row) => row.reportedAt.getTime());
      return times.length > 0 ? new Date(Math.max(...times)) : null;
    },
  };
}

export type FtpQueries = ReturnType<typeof createFtpQueries>;
