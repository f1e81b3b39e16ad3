import { and, count, desc, eq, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { activityEvents } from './activity.table.ts';

export type ActivityEventRow = typeof activityEvents.$inferSelect;
export type NewActivityEvent = typeof activityEvents.$inferInsert;

/** What a page of the log is narrowed to; every field is optional and they combine. */
export interface ActivityCriteria {
  action?: string;
  /** Entries whose action is not this one (the management history: all but sign-ins). */
  notAction?: string;
  tone?: ActivityEventRow['tone'];
  serviceId?: string;
  /** Included. */
  from?: Date;
  /** Excluded. */
  before?: Date;
  /** Filters that contradict each other: no entry matches. */
  nothing?: boolean;
}

export function createActivityQueries(db: Executor) {
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
    /** One page of the account's entries, newest first, and how many match in all. */
    async page(
      accountId: string,
      criteria: ActivityCriteria,
      skip: number,
      limit: number,
    ): Promise<{ rows: ActivityEventRow[]; total: number }> {
      const conditions: SQL[] = [eq(activityEvents.accountId, accountId)];
      if (criteria.nothing) conditions.push(sql`false`);
      if (criteria.action !== undefined) conditions.push(eq(activityEvents.action, criteria.action));
      if (criteria.notAction !== undefined) conditions.push(ne(activityEvents.action, criteria.notAction));
      if (criteria.tone !== undefined) conditions.push(eq(activityEvents.tone, criteria.tone));
      if (criteria.serviceId !== undefined) conditions.push(eq(activityEvents.serviceId, criteria.serviceId));
      if (criteria.from !== undefined) conditions.push(gte(activityEvents.createdAt, criteria.from));
      if (criteria.before !== undefined) conditions.push(lt(activityEvents.createdAt, criteria.before));
      const where = and(...conditions);
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(activityEvents)
          .where(where)
          // The id breaks ties between entries of the same instant, so pages never overlap.
          .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
          .offset(skip)
          .limit(limit),
        db.select({ total: count() }).from(activityEvents).where(where),
      ]);
      return { rows, total: counted?.total ?? 0 };
    },
  };
}

export type ActivityQueries = ReturnType<typeof createActivityQueries>;
