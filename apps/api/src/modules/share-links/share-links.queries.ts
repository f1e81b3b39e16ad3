// The only SQL on share links and their access logs. Every function takes the handle it runs on.
import { and, count, desc, eq, like, lt, sql } from 'drizzle-orm';
import { SHARE_LINK_ACCESS_LOG_KEPT, type ShareLinkAccessResult } from '@debesis/contract';
import type { Executor } from '../../db/transaction.ts';
import { shareLinkAccessLogs, shareLinks } from './share-links.table.ts';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type ShareLinkAccessRow = typeof shareLinkAccessLogs.$inferSelect;

/** One attempt, as the access log keeps it. */
export interface AccessAttempt {
  linkId: string;
  at: Date;
  ip: string;
  userAgent: string;
  result: ShareLinkAccessResult;
  bytesSent?: number;
  path?: string | null;
}

/** Every this-many rows of a link, the rows past SHARE_LINK_ACCESS_LOG_KEPT are dropped. */
const PRUNE_EVERY = 100;

/** `%` and `_` of a visitor's filter are letters, not patterns. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

export function createShareLinksQueries(db: Executor) {
  return {
    list(serviceId: string): Promise<ShareLinkRow[]> {
      return db
        .select()
        .from(shareLinks)
        .where(eq(shareLinks.serviceId, serviceId))
        .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
    },
    async find(serviceId: string, id: string): Promise<ShareLinkRow | undefined> {
      const [row] = await db
        .select()
        .from(shareLinks)
        .where(and(eq(shareLinks.serviceId, serviceId), eq(shareLinks.id, id)))
        .limit(1);
      return row;
    },
    async byId(id: string): Promise<ShareLinkRow | undefined> {
      const [row] = await db.select().from(shareLinks).where(eq(shareLinks.id, id)).limit(1);
      return row;
    },
    async byTokenHash(tokenHash: string): Promise<ShareLinkRow | undefined> {
      const [row] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash)).limit(1);
      return row;
    },
    async count(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(shareLinks)
        .where(eq(shareLinks.serviceId, serviceId));
      return row?.total ?? 0;
    },
    async insert(values: typeof shareLinks.$inferInsert): Promise<ShareLinkRow> {
      const [row] = await db.insert(shareLinks).values(values).returning();
      if (!row) throw new Error('share link insert returned no row');
      return row;
    },
    /** Revokes it (once: a revoked link keeps its first time); answers the row as it is now. */
    async revoke(id: string, at: Date): Promise<ShareLinkRow | undefined> {
      const [row] = await db
        .update(shareLinks)
        .set({ revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${at})` })
        .where(eq(shareLinks.id, id))
        .returning();
      return row;
    },
    async remove(id: string): Promise<void> {
      await db.delete(shareLinks).where(eq(shareLinks.id, id));
    },

    /** Records an attempt (and the link's last access); answers the entry's id. */
    async logAttempt(attempt: AccessAttempt): Promise<number> {
      const [row] = await db
        .insert(shareLinkAccessLogs)
        .values({
          linkId: attempt.linkId,
          at: attempt.at,
          ip: attempt.ip,
          userAgent: attempt.userAgent,
          result: attempt.result,
          bytesSent: attempt.bytesSent ?? 0,
          path: attempt.path ?? null,
        })
        .returning({ id: shareLinkAccessLogs.id });
      if (!row) throw new Error('access log insert returned no row');
      await db.update(shareLinks).set({ lastAccessAt: attempt.at }).where(eq(shareLinks.id, attempt.linkId));
      if (row.id % PRUNE_EVERY === 0) {
        await db.execute(sql`
          delete from share_link_access_logs
          where link_id = ${attempt.linkId}
            and id < (select id from share_link_access_logs where link_id = ${attempt.linkId}
                      order by id desc offset ${SHARE_LINK_ACCESS_LOG_KEPT - 1} limit 1)`);
      }
      return row.id;
    },
    /** A download's end: its result and bytes, and one more completed download when it counts. */
    async finishDownload(
      entryId: number,
      linkId: string,
      end: { result: ShareLinkAccessResult; bytesSent: number; counts: boolean },
    ): Promise<void> {
      await db
        .update(shareLinkAccessLogs)
        .set({ result: end.result, bytesSent: end.bytesSent })
        .where(eq(shareLinkAccessLogs.id, entryId));
      if (end.counts)
        await db
          .update(shareLinks)
          .set({ downloads: sql`${shareLinks.downloads} + 1` })
          .where(eq(shareLinks.id, linkId));
    },
    async accessLog(
      linkId: string,
      filter: { result?: ShareLinkAccessResult; ip?: string; skip: number; limit: number },
    ): Promise<{ rows: ShareLinkAccessRow[]; total: number }> {
      const where = and(
        eq(shareLinkAccessLogs.linkId, linkId),
        filter.result ? eq(shareLinkAccessLogs.result, filter.result) : undefined,
        filter.ip ? like(shareLinkAccessLogs.ip, `${escapeLike(filter.ip)}%`) : undefined,
      );
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(shareLinkAccessLogs)
          .where(where)
          .orderBy(desc(shareLinkAccessLogs.id))
          .offset(filter.skip)
          .limit(filter.limit),
        db.select({ total: count() }).from(shareLinkAccessLogs).where(where),
      ]);
      return { rows, total: total?.total ?? 0 };
    },
    /** Access-log entries older than `before`, dropped (the retention of the maintenance sweep). */
    async pruneAccessLogs(before: Date): Promise<number> {
      const deleted = await db
        .delete(shareLinkAccessLogs)
        .where(lt(shareLinkAccessLogs.at, before))
        .returning({ id: shareLinkAccessLogs.id });
      return deleted.length;
    },
  };
}

export type ShareLinksQueries = ReturnType<typeof createShareLinksQueries>;
