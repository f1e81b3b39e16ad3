import type { Db } from '../../db/database.ts';
import { activityEvents } from './activity.table.ts';

export type ActivityEventRow = typeof activityEvents.$inferSelect;
export type NewActivityEvent = typeof activityEvents.$inferInsert;

export function createActivityQueries(db: Db) {
  return {
    async insert(event: NewActivityEvent) {
      await db.insert(activityEvents).values(event);
    },
  };
}

export type ActivityQueries = ReturnType<typeof createActivityQueries>;
