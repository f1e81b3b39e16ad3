// The only SQL on subusers, their backup codes and their sessions. Every function takes the handle
// it runs on.
import { and, asc, count, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { subuserBackupCodes, subuserSessions, subusers } from './subusers.table.ts';

export type SubuserRow = typeof subusers.$inferSelect;
export type SubuserSessionRow = typeof subuserSessions.$inferSelect;

/** A subuser with what its list shows beside it. */
export interface SubuserListed extends SubuserRow {
  backupCodesLeft: number;
  activeSessions: number;
}

/** A session as its guard reads it on every request: with its subuser, in one query. */
export interface SessionWithSubuser {
  session: SubuserSessionRow;
  subuser: SubuserRow;
}

const live = (at: Date) => and(isNull(subuserSessions.revokedAt), gt(subuserSessions.expiresAt, at));

export function createSubusersQueries(db: Executor) {
  return {
    async list(serviceId: string, at: Date): Promise<SubuserListed[]> {
      const rows = await db
        .select({
          subuser: subusers,
          // Named in full: drizzle writes a column of the outer table unqualified inside a subquery.
          backupCodesLeft: sql<number>`(select count(*)::int from subuser_backup_codes c
            where c.subuser_id = "subusers"."id" and c.used_at is null)`,
          activeSessions: sql<number>`(select count(*)::int from subuser_sessions s
            where s.subuser_id = "subusers"."id" and s.revoked_at is null
            and s.expires_at > ${at.toISOString()})`,
        })
        .from(subusers)
        .where(eq(subusers.serviceId, serviceId))
        .orderBy(asc(subusers.username));
      return rows.map((row) => ({
        ...row.subuser,
        backupCodesLeft: Number(row.backupCodesLeft),
        activeSessions: Number(row.activeSessions),
      }));
    },
    async find(serviceId: string, id: string): Promise<SubuserRow | undefined> {
      const [row] = await db
        .select()
        .from(subusers)
        .where(and(eq(subusers.serviceId, serviceId), eq(subusers.id, id)));
      return row;
    },
    async findNamed(serviceId: string, username: string): Promise<SubuserRow | undefined> {
      const [row] = await db
        .select()
        .from(subusers)
        .where(and(eq(subusers.serviceId, serviceId), eq(subusers.username, username)));
      return row;
    },
    async count(serviceId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(subusers).where(eq(subusers.serviceId, serviceId));
      return row?.n ?? 0;
    },
    async insert(values: typeof subusers.$inferInsert): Promise<SubuserRow | undefined> {
      const [row] = await db.insert(subusers).values(values).onConflictDoNothing().returning();
      return row;
    },
    async update(id: string, values: Partial<typeof subusers.$inferInsert>): Promise<SubuserRow | undefined> {
      const [row] = await db.update(subusers).set(values).where(eq(subusers.id, id)).returning();
      return row;
    },
    /**
     * Takes a TOTP time step for the subuser only if it is later than the last one taken: of two
     * requests with the same code, one wins.
     */
    async takeTotpStep(id: string, step: number): Promise<boolean> {
      const rows = await db
        .update(subusers)
        .set({ totpLastStep: step })
        .where(and(eq(subusers.id, id), or(isNull(subusers.totpLastStep), lt(subusers.totpLastStep, step))))
        .returning({ id: subusers.id });
      return rows.length === 1;
    },
    async remove(id: string): Promise<void> {
      await db.delete(subusers).where(eq(subusers.id, id));
    },

    async replaceBackupCodes(subuserId: string, hashes: string[]): Promise<void> {
      await db.delete(subuserBackupCodes).where(eq(subuserBackupCodes.subuserId, subuserId));
      if (hashes.length > 0) {
        await db.insert(subuserBackupCodes).values(hashes.map((codeHash) => ({ subuserId, codeHash })));
      }
    },
    /**
     * Marks an unused code used; false when there is none such (wrong, or used already).
     * `codeHashes` are the hashes the typed code may be kept as, one per key: at most one matches.
     */
    async useBackupCode(subuserId: string, codeHashes: readonly string[], at: Date): Promise<boolean> {
      const rows = await db
        .update(subuserBackupCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(subuserBackupCodes.subuserId, subuserId),
            inArray(subuserBackupCodes.codeHash, [...codeHashes]),
            isNull(subuserBackupCodes.usedAt),
          ),
        )
        .returning({ id: subuserBackupCodes.id });
      return rows.length === 1;
    },

    async insertSession(values: typeof subuserSessions.$inferInsert): Promise<SubuserSessionRow> {
      const [row] = await db.insert(subuserSessions).values(values).returning();
      if (!row) throw new Error('subuser session not inserted');
      return row;
    },
    /** The session of a token hash with its subuser, whatever their state. */
    async findSession(tokenHash: string): Promise<SessionWithSubuser | undefined> {
      const [row] = await db
        .select({ session: subuserSessions, subuser: subusers })
        .from(subuserSessions)
        .innerJoin(subusers, eq(subusers.id, subuserSessions.subuserId))
        .where(eq(subuserSessions.tokenHash, tokenHash));
      return row;
    },
    async touchSession(id: string, at: Date): Promise<void> {
      await db.update(subuserSessions).set({ lastUsedAt: at }).where(eq(subuserSessions.id, id));
    },
    listSessions(subuserId: string, at: Date): Promise<SubuserSessionRow[]> {
      return db
        .select()
        .from(subuserSessions)
        .where(and(eq(subuserSessions.subuserId, subuserId), live(at)))
        .orderBy(sql`${subuserSessions.lastUsedAt} desc`);
    },
    /** Ends the subuser's live sessions (`sessionIds`: only those); how many it ended. */
    async revokeSessions(subuserId: string, at: Date, sessionIds?: string[]): Promise<number> {
      const rows = await db
        .update(subuserSessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(subuserSessions.subuserId, subuserId),
            live(at),
            sessionIds ? inArray(subuserSessions.id, sessionIds) : undefined,
          ),
        )
        .returning({ id: subuserSessions.id });
      return rows.length;
    },
    /** Sessions that ended more than a while ago go (a sweep keeps the table small). */
    async pruneSessions(before: Date): Promise<void> {
      await db
        .delete(subuserSessions)
        .where(or(lt(subuserSessions.expiresAt, before), lt(subuserSessions.revokedAt, before)));
    },
  };
}

export type SubusersQueries = ReturnType<typeof createSubusersQueries>;
