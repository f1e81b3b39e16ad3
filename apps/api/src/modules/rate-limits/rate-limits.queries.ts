import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { rateLimitEvents } from './rate-limits.table.ts';

export function createRateLimitQueries(db: Db) {
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
    async insert(bucket: string, subject: string, at: Date) {
      await db.insert(rateLimitEvents).values({ bucket, subject, createdAt: at });
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
