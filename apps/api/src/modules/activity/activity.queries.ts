import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { activityEvents } from './activity.table.ts';

export type ActivityEventRow = typeof activityEvents.$inferSelect;
export type NewActivityEvent = typeof activityEvents.$inferInsert;

export function createActivityQueries(db: Db) {
  return {
    async insert(event: NewActivityEvent) {
      await db.insert(activityEvents).values(event);
    },
    /** The newest `limit` entries about one service of the account, newest first. */
    async listForService(accountId: string, serviceId: string, limit: number): Promise<ActivityEventRow[]> {
      return db
        .select()
        .from(activityEvents)
        .where(and(eq(activityEvents.accountId, accountId), eq(activityEvents.serviceId, serviceId)))
        .orderBy(desc(activityEvents.createdAt))
        .limit(limit);
    },
  };
}

export type ActivityQueries = ReturnType<typeof createActivityQueries>;
