// The only SQL on analytics events.
import { asc, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { analyticsEvents } from './analytics.table.ts';

export type AnalyticsEventRow = typeof analyticsEvents.$inferSelect;
export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export function createAnalyticsQueries(db: Db) {
  return {
    async insert(event: NewAnalyticsEvent): Promise<void> {
      await db.insert(analyticsEvents).values(event);
    },
    /** Deletes the events recorded before `before`; answers how many. */
    async pruneBefore(before: Date): Promise<number> {
      const deleted = await db
        .delete(analyticsEvents)
        .where(lt(analyticsEvents.createdAt, before))
        .returning({ id: analyticsEvents.id });
      return deleted.length;
    },
    /** Every event, oldest first (tests and reports). */
    async all(): Promise<AnalyticsEventRow[]> {
      return db.select().from(analyticsEvents).orderBy(asc(analyticsEvents.id));
    },
  };
}

export type AnalyticsQueries = ReturnType<typeof createAnalyticsQueries>;
