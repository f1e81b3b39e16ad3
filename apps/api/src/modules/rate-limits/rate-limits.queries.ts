import { and, count, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rateLimitEvents } from './rate-limits.table.ts';

function queriesOn(db: Db) {
  return {
    async windowStats(
      bucket: string,
      subject: string,
      since: Date,
    ): Promise<{ count: number; oldest: Date | null }> {
      const [row] = await db
        .select({ count: count(), oldest: min(rateLimitEvents.createdAt) })
        .from(rateLimitEvents)
        .where(
          and(
            eq(rateLimitEvents.bucket, bucket),
            eq(rateLimitEvents.subject, subject),
            gt(rateLimitEvents.createdAt, since),
          ),
        );
      return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
    },
    async insert(bucket: string, subject: string, at: Date): Promise<number> {
      const [row] = await db
        .insert(rateLimitEvents)
        .values({ bucket, subject, createdAt: at })
        .returning({ id: rateLimitEvents.id });
      if (!row) throw new Error('rate-limit event insert returned no row');
      return row.id;
    },
  };
}

export type RateLimitCounter = ReturnType<typeof queriesOn>;

export function createRateLimitQueries(db: Db) {
  return {
    ...queriesOn(db),
    /**
     * Runs `decide` in one transaction that holds a lock per (bucket, subject), so whatever it
     * counts cannot change under it: two requests at once are counted one after the other. The
     * locks are taken in one order, so two callers never wait on each other in a circle.
     */
    async whileLocked<T>(
      keys: Array<{ bucket: string; subject: string }>,
      decide: (counter: RateLimitCounter) => Promise<T>,
    ): Promise<T> {
      const ordered = [...new Set(keys.map((key) => JSON.stringify([key.bucket, key.subject])))].sort();
      return db.transaction(async (tx) => {
        for (const key of ordered) {
          const [bucket, subject] = JSON.parse(key) as [string, string];
          // Two int4 keys: a space apart from the single-bigint advisory locks of other modules.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${bucket}), hashtext(${subject}))`);
        }
        return decide(queriesOn(tx));
      });
    },
    async deleteEvents(ids: number[]) {
      if (ids.length === 0) return;
      await db.delete(rateLimitEvents).where(inArray(rateLimitEvents.id, ids));
    },
    async clear(bucket: string, subject: string) {
      await db
        .delete(rateLimitEvents)
        .where(and(eq(rateLimitEvents.bucket, bucket), eq(rateLimitEvents.subject, subject)));
    },
    async pruneBefore(before: Date) {
      await db.delete(rateLimitEvents).where(lt(rateLimitEvents.createdAt, before));
    },
  };
}

export type RateLimitQueries = ReturnType<typeof createRateLimitQueries>;
