// The only SQL on analytics events.
import { asc } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { analyticsEvents } from './analytics.table.ts';

export type AnalyticsEventRow = typeof analyticsEvents.$inferSelect;
export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

export function createAnalyticsQueries(db: Db) {
  return {
    async insert(event: NewAnalyticsEvent): Promise<void> {
      await db.insert(analyticsEvents).values(event);
    },
    /** Every event, oldest first (tests and reports). */
    async all(): Promise<AnalyticsEventRow[]> {
      return db.select().from(analyticsEvents).orderBy(asc(analyticsEvents.id));
    },
  };
}

export type AnalyticsQueries = ReturnType<typeof createAnalyticsQueries>;
