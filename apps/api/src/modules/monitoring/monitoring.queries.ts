// The only SQL on monitoring's tables. Every function takes the handle it runs on, so a report
// stores its events, rollups and alerts in one transaction.
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import {
  monitoringActivityHours,
  monitoringAlerts,
  monitoringApplies,
  monitoringDaemonStarts,
  monitoringEvents,
  monitoringUsageSamples,
  monitoringUserHours,
  monitoringUserKindHours,
  monitoringUserUsage,
  monitoringWebhooks,
  monitoringReportKeys,
} from './monitoring.table.ts';

export type EventRow = typeof monitoringEvents.$inferSelect;
export type NewEventRow = typeof monitoringEvents.$inferInsert;
export type AlertRow = typeof monitoringAlerts.$inferSelect;
export type ApplyRow = typeof monitoringApplies.$inferSelect;
export type UserUsageRow = typeof monitoringUserUsage.$inferSelect;
export type WebhookRow = typeof monitoringWebhooks.$inferSelect;

const HOUR_MS = 3_600_000;
export const startOfHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** One bucket of a window: its start, and per source the events and bytes. */
export interface BucketRow {
  start: Date;
  source: number;
  events: number;
  bytes: number;
}

export interface EventFilter {
  serviceId: string;
  from: Date;
  to: Date;
  username?: string | undefined;
  kind?: number | undefined;
  source?: number | undefined;
}

function eventConditions(filter: EventFilter) {
  return and(
    eq(monitoringEvents.serviceId, filter.serviceId),
    gte(monitoringEvents.at, filter.from),
    lt(monitoringEvents.at, filter.to),
    filter.username === undefined ? undefined : eq(monitoringEvents.username, filter.username),
    filter.kind === undefined ? undefined : eq(monitoringEvents.kind, filter.kind),
    filter.source === undefined ? undefined : eq(monitoringEvents.source, filter.source),
  );
}

/** The rollup a window's question is read from (monitoring.table.ts), by the filter it has. */
function rollupFor(filter: EventFilter) {
  return filter.username !== undefined ? monitoringUserKindHours : monitoringActivityHours;
}

function rollupConditions(filter: EventFilter) {
  const table = rollupFor(filter);
  return and(
    eq(table.serviceId, filter.serviceId),
    gte(table.hour, filter.from),
    lt(table.hour, filter.to),
    filter.username === undefined ? undefined : eq(monitoringUserKindHours.username, filter.username),
    filter.kind === undefined ? undefined : eq(table.kind, filter.kind),
    filter.source === undefined ? undefined : eq(table.source, filter.source),
  );
}

/** One event's share of the rollups, by hour. */
export interface HourShare {
  serviceId: string;
  hour: Date;
  username: string;
  source: number;
  kind: number;
  events: number;
  bytes: number;
}

function sumBy<T>(rows: readonly HourShare[], key: (row: HourShare) => string, pick: (row: HourShare) => T) {
  const sums = new Map<string, T & { events: number; bytes: number }>();
  for (const row of rows) {
    const id = key(row);
    const entry = sums.get(id) ?? { ...pick(row), events: 0, bytes: 0 };
    entry.events += row.events;
    entry.bytes += row.bytes;
    sums.set(id, entry);
  }
  return [...sums.values()];
}

const added = <T extends { events: unknown; bytes: unknown }>(table: T) => ({
  events: sql`${table.events} + excluded.events`,
  bytes: sql`${table.bytes} + excluded.bytes`,
});

export function createMonitoringQueries(db: Executor) {
  return {
    /** Stores events not stored before (by node key); answers those it stored. */
    async insertEvents(rows: NewEventRow[]): Promise<EventRow[]> {
      if (rows.length === 0) return [];
      return db.insert(monitoringEvents).values(rows).onConflictDoNothing().returning();
    },

    /** Adds newly stored events to the three rollups (rows: per hour, user, source and kind). */
    async addToHours(rows: readonly HourShare[]): Promise<void> {
      if (rows.length === 0) return;
      const byKind = sumBy(
        rows,
        (row) => `${row.hour.getTime()}|${row.source}|${row.kind}`,
        ({ serviceId, hour, source, kind }) => ({ serviceId, hour, source, kind }),
      );
      await db
        .insert(monitoringActivityHours)
        .values(byKind)
        .onConflictDoUpdate({
          target: [
            monitoringActivityHours.serviceId,
            monitoringActivityHours.hour,
            monitoringActivityHours.source,
            monitoringActivityHours.kind,
          ],
          set: added(monitoringActivityHours),
        });
      const named = rows.filter((row) => row.username !== '');
      if (named.length === 0) return;
      const byUser = sumBy(
        named,
        (row) => `${row.hour.getTime()}|${row.username}`,
        ({ serviceId, hour, username }) => ({ serviceId, hour, username }),
      );
      await db
        .insert(monitoringUserHours)
        .values(byUser)
        .onConflictDoUpdate({
          target: [monitoringUserHours.serviceId, monitoringUserHours.hour, monitoringUserHours.username],
          set: added(monitoringUserHours),
        });
      await db
        .insert(monitoringUserKindHours)
        .values(named.map((row) => ({ ...row })))
        .onConflictDoUpdate({
          target: [
            monitoringUserKindHours.serviceId,
            monitoringUserKindHours.username,
            monitoringUserKindHours.hour,
            monitoringUserKindHours.source,
            monitoringUserKindHours.kind,
          ],
          set: added(monitoringUserKindHours),
        });
    },

    /** Events and bytes per bucket (hours: 1 or 24) and source, from the rollups. */
    async hourBuckets(filter: EventFilter, bucketHours: number): Promise<BucketRow[]> {
      const table = rollupFor(filter);
      // An interval spliced as text, not a parameter: GROUP BY must see the same expression.
      const bucket =
        bucketHours === 1
          ? sql<Date>`${table.hour}`
          : sql<Date>`date_bin(${sql.raw(`'${Math.round(bucketHours)} hours'`)}, ${table.hour}, timestamptz '1970-01-01 00:00:00+00')`;
      const rows = await db
        .select({
          start: bucket,
          source: table.source,
          events: sql<number>`sum(${table.events})::int`,
          bytes: sql<number>`sum(${table.bytes})::bigint`,
        })
        .from(table)
        .where(rollupConditions(filter))
        .groupBy(bucket, table.source);
      return rows.map((row) => ({ ...row, start: new Date(row.start), bytes: Number(row.bytes) }));
    },

    /** Events and bytes per minute and source, from the events themselves (real time: 100 minutes). */
    async minuteBuckets(filter: EventFilter): Promise<BucketRow[]> {
      const bucket = sql<Date>`date_trunc('minute', ${monitoringEvents.at})`;
      const rows = await db
        .select({
          start: bucket,
          source: monitoringEvents.source,
          events: sql<number>`count(*)::int`,
          bytes: sql<number>`coalesce(sum(${monitoringEvents.bytes}), 0)::bigint`,
        })
        .from(monitoringEvents)
        .where(eventConditions(filter))
        .groupBy(bucket, monitoringEvents.source);
      return rows.map((row) => ({ ...row, start: new Date(row.start), bytes: Number(row.bytes) }));
    },

    /**
     * Per kind, and the busiest users, over whole hours of the rollups: the users from the per-user
     * rollup, or, filtered by kind or source, from the per-user-and-kind one.
     */
    async hourTotals(filter: EventFilter) {
      const table = rollupFor(filter);
      const kinds = db
        .select({
          kind: table.kind,
          events: sql<number>`sum(${table.events})::int`,
          bytes: sql<number>`sum(${table.bytes})::bigint`,
        })
        .from(table)
        .where(rollupConditions(filter))
        .groupBy(table.kind);
      const ranked =
        filter.kind !== undefined || filter.source !== undefined || filter.username !== undefined;
      const users = ranked
        ? db
            .select({
              user: monitoringUserKindHours.username,
              events: sql<number>`sum(${monitoringUserKindHours.events})::int`,
              bytes: sql<number>`sum(${monitoringUserKindHours.bytes})::bigint`,
            })
            .from(monitoringUserKindHours)
            .where(
              and(
                eq(monitoringUserKindHours.serviceId, filter.serviceId),
                gte(monitoringUserKindHours.hour, filter.from),
                lt(monitoringUserKindHours.hour, filter.to),
                filter.username === undefined
                  ? undefined
                  : eq(monitoringUserKindHours.username, filter.username),
                filter.kind === undefined ? undefined : eq(monitoringUserKindHours.kind, filter.kind),
                filter.source === undefined ? undefined : eq(monitoringUserKindHours.source, filter.source),
              ),
            )
            .groupBy(monitoringUserKindHours.username)
            .orderBy(desc(sql`sum(${monitoringUserKindHours.events})`), asc(monitoringUserKindHours.username))
            .limit(10)
        : db
            .select({
              user: monitoringUserHours.username,
              events: sql<number>`sum(${monitoringUserHours.events})::int`,
              bytes: sql<number>`sum(${monitoringUserHours.bytes})::bigint`,
            })
            .from(monitoringUserHours)
            .where(
              and(
                eq(monitoringUserHours.serviceId, filter.serviceId),
                gte(monitoringUserHours.hour, filter.from),
                lt(monitoringUserHours.hour, filter.to),
              ),
            )
            .groupBy(monitoringUserHours.username)
            .orderBy(desc(sql`sum(${monitoringUserHours.events})`), asc(monitoringUserHours.username))
            .limit(10);
      const [kindRows, userRows] = await Promise.all([kinds, users]);
      return {
        kinds: kindRows.map((row) => ({ ...row, bytes: Number(row.bytes) })),
        users: userRows.map((row) => ({ ...row, bytes: Number(row.bytes) })),
      };
    },

    /** The same from the events (real time). */
    async eventTotals(filter: EventFilter) {
      const [kinds, users] = await Promise.all([
        db
          .select({
            kind: monitoringEvents.kind,
            events: sql<number>`count(*)::int`,
            bytes: sql<number>`coalesce(sum(${monitoringEvents.bytes}), 0)::bigint`,
          })
          .from(monitoringEvents)
          .where(eventConditions(filter))
          .groupBy(monitoringEvents.kind),
        db
          .select({
            user: sql<string>`${monitoringEvents.username}`,
            events: sql<number>`count(*)::int`,
            bytes: sql<number>`coalesce(sum(${monitoringEvents.bytes}), 0)::bigint`,
          })
          .from(monitoringEvents)
          .where(and(eventConditions(filter), isNotNull(monitoringEvents.username)))
          .groupBy(monitoringEvents.username)
          .orderBy(desc(sql`count(*)`), asc(monitoringEvents.username))
          .limit(10),
      ]);
      return {
        kinds: kinds.map((row) => ({ ...row, bytes: Number(row.bytes) })),
        users: users.map((row) => ({ ...row, bytes: Number(row.bytes) })),
      };
    },

    /**
     * The newest events of the window (older than the cursor given: time, then id), at most
     * `limit` + 1 to tell if there are more.
     */
    async listEvents(
      filter: EventFilter,
      limit: number,
      before?: { at: Date; id: number },
    ): Promise<EventRow[]> {
      return db
        .select()
        .from(monitoringEvents)
        .where(
          and(
            eventConditions(filter),
            before === undefined
              ? undefined
              : or(
                  lt(monitoringEvents.at, before.at),
                  and(eq(monitoringEvents.at, before.at), lt(monitoringEvents.id, before.id)),
                ),
          ),
        )
        .orderBy(desc(monitoringEvents.at), desc(monitoringEvents.id))
        .limit(limit + 1);
    },

    async recordUsageSample(serviceId: string, at: Date, used: number, size: number | null, files: number) {
      await db
        .insert(monitoringUsageSamples)
        .values({ serviceId, hour: startOfHour(at), usedBytes: used, sizeBytes: size, files })
        .onConflictDoUpdate({
          target: [monitoringUsageSamples.serviceId, monitoringUsageSamples.hour],
          set: { usedBytes: used, sizeBytes: size, files },
        });
    },

    async usageSamples(serviceId: string, from: Date) {
      return db
        .select()
        .from(monitoringUsageSamples)
        .where(and(eq(monitoringUsageSamples.serviceId, serviceId), gte(monitoringUsageSamples.hour, from)))
        .orderBy(asc(monitoringUsageSamples.hour));
    },

    /** Replaces the service's per-user counts with the node's latest, unless they are older. */
    async replaceUserUsage(
      serviceId: string,
      measuredAt: Date,
      rows: Array<{ username: string; bytes: number; files: number }>,
    ): Promise<void> {
      const [stored] = await db
        .select({ measuredAt: monitoringUserUsage.measuredAt })
        .from(monitoringUserUsage)
        .where(eq(monitoringUserUsage.serviceId, serviceId))
        .limit(1);
      if (stored && stored.measuredAt.getTime() >= measuredAt.getTime()) return;
      await db.delete(monitoringUserUsage).where(eq(monitoringUserUsage.serviceId, serviceId));
      if (rows.length > 0)
        await db.insert(monitoringUserUsage).values(rows.map((row) => ({ ...row, serviceId, measuredAt })));
    },

    async userUsage(serviceId: string): Promise<UserUsageRow[]> {
      return db
        .select()
        .from(monitoringUserUsage)
        .where(eq(monitoringUserUsage.serviceId, serviceId))
        .orderBy(desc(monitoringUserUsage.bytes), asc(monitoringUserUsage.username));
    },

    /**
     * Takes `key` as the service's last stored report unless it already is, stored after
     * `trustedSince`: true when the report is to be stored (one statement either way; its row
     * lock orders two processes storing the same service's reports).
     */
    async claimReportKey(serviceId: string, key: string, at: Date, trustedSince: Date): Promise<boolean> {
      const rows = await db
        .insert(monitoringReportKeys)
        .values({ serviceId, key, storedAt: at })
        .onConflictDoUpdate({
          target: monitoringReportKeys.serviceId,
          set: { key, storedAt: at },
          setWhere: or(
            sql`${monitoringReportKeys.key} is distinct from ${key}`,
            lt(monitoringReportKeys.storedAt, trustedSince),
          ),
        })
        .returning({ serviceId: monitoringReportKeys.serviceId });
      return rows.length > 0;
    },

    async recordDaemonStarts(serviceId: string, starts: Array<{ daemon: string; startedAt: Date }>) {
      if (starts.length === 0) return;
      await db
        .insert(monitoringDaemonStarts)
        .values(starts.map((start) => ({ serviceId, ...start })))
        .onConflictDoNothing();
    },

    /** Per daemon, its starts since `from`. */
    async daemonStarts(serviceId: string, from: Date): Promise<Map<string, number>> {
      const rows = await db
        .select({ daemon: monitoringDaemonStarts.daemon, starts: sql<number>`count(*)::int` })
        .from(monitoringDaemonStarts)
        .where(
          and(eq(monitoringDaemonStarts.serviceId, serviceId), gte(monitoringDaemonStarts.startedAt, from)),
        )
        .groupBy(monitoringDaemonStarts.daemon);
      return new Map(rows.map((row) => [row.daemon, row.starts]));
    },

    /**
     * Per daemon, its starts since `from` that no apply explains: a start within `slackMs` of an
     * apply with a cause (the owner's start/stop/restart, a plan change, a status change; from
     * asking until applied, or `openMs` while it is not) was asked for, not a crash.
     */
    async unexplainedDaemonStarts(
      serviceId: string,
      from: Date,
      window: { slackMs: number; openMs: number },
    ): Promise<Map<string, number>> {
      const slack = sql`make_interval(secs => ${window.slackMs / 1000})`;
      const open = sql`make_interval(secs => ${window.openMs / 1000})`;
      const rows = await db
        .select({ daemon: monitoringDaemonStarts.daemon, starts: sql<number>`count(*)::int` })
        .from(monitoringDaemonStarts)
        .where(
          and(
            eq(monitoringDaemonStarts.serviceId, serviceId),
            gte(monitoringDaemonStarts.startedAt, from),
            sql`not exists (
              select 1 from ${monitoringApplies}
              where ${monitoringApplies.serviceId} = ${monitoringDaemonStarts.serviceId}
                and ${monitoringApplies.cause} is not null
                and ${monitoringDaemonStarts.startedAt} >= ${monitoringApplies.requestedAt} - ${slack}
                and ${monitoringDaemonStarts.startedAt} <= coalesce(${monitoringApplies.appliedAt}, ${monitoringApplies.requestedAt} + ${open}) + ${slack}
            )`,
          ),
        )
        .groupBy(monitoringDaemonStarts.daemon);
      return new Map(rows.map((row) => [row.daemon, row.starts]));
    },

    /** Applies of the services requested since `from` (or the one generation named), newest first. */
    async applies(serviceIds: string[], from: Date, generation?: number): Promise<ApplyRow[]> {
      if (serviceIds.length === 0) return [];
      return db
        .select()
        .from(monitoringApplies)
        .where(
          and(
            inArray(monitoringApplies.serviceId, serviceIds),
            generation === undefined
              ? gte(monitoringApplies.requestedAt, from)
              : eq(monitoringApplies.generation, generation),
          ),
        )
        .orderBy(desc(monitoringApplies.requestedAt), desc(monitoringApplies.generation))
        .limit(500);
    },

    /** How long the applies done since `since` took from asking to applied: median, 95th, count. */
    async applyDurations(since: Date): Promise<{ p50: number | null; p95: number | null; count: number }> {
      const seconds = sql`extract(epoch from ${monitoringApplies.appliedAt} - ${monitoringApplies.requestedAt})`;
      const [row] = await db
        .select({
          p50: sql<number | null>`percentile_cont(0.5) within group (order by ${seconds})`,
          p95: sql<number | null>`percentile_cont(0.95) within group (order by ${seconds})`,
          count: sql<number>`count(*)::int`,
        })
        .from(monitoringApplies)
        .where(gte(monitoringApplies.appliedAt, since));
      const number = (value: number | null | undefined) =>
        value === null || value === undefined ? null : Number(value);
      return { p50: number(row?.p50), p95: number(row?.p95), count: row?.count ?? 0 };
    },

    async lastApplied(serviceId: string): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | null>`max(${monitoringApplies.appliedAt})` })
        .from(monitoringApplies)
        .where(eq(monitoringApplies.serviceId, serviceId));
      return row?.at ? new Date(row.at) : null;
    },

    // Alerts.

    async openAlerts(serviceId: string, kinds: readonly string[]): Promise<AlertRow[]> {
      return db
        .select()
        .from(monitoringAlerts)
        .where(
          and(
            eq(monitoringAlerts.serviceId, serviceId),
            inArray(monitoringAlerts.kind, [...kinds]),
            isNull(monitoringAlerts.clearedAt),
          ),
        );
    },

    /** Every open alert of these kinds (the sweeps' own kinds, for all services). */
    async openAlertsOfKinds(kinds: readonly string[]): Promise<AlertRow[]> {
      return db
        .select()
        .from(monitoringAlerts)
        .where(and(inArray(monitoringAlerts.kind, [...kinds]), isNull(monitoringAlerts.clearedAt)));
    },

    /** Raises it unless it is open already (one open alert per service, kind and subject). */
    async raise(row: Omit<typeof monitoringAlerts.$inferInsert, 'id' | 'hook' | 'clearedAt'>) {
      const [raised] = await db
        .insert(monitoringAlerts)
        .values({ ...row, hook: 'raised' })
        .onConflictDoNothing()
        .returning();
      return raised;
    },

    async clear(ids: string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(monitoringAlerts)
        .set({ clearedAt: at, hook: 'cleared' })
        .where(and(inArray(monitoringAlerts.id, ids), isNull(monitoringAlerts.clearedAt)));
    },

    async listAlerts(filter: {
      accountId: string;
      from: Date;
      level?: string | undefined;
      serviceId?: string | undefined;
    }): Promise<AlertRow[]> {
      return db
        .select()
        .from(monitoringAlerts)
        .where(
          and(
            eq(monitoringAlerts.accountId, filter.accountId),
            or(gte(monitoringAlerts.raisedAt, filter.from), isNull(monitoringAlerts.clearedAt)),
            filter.level === undefined
              ? undefined
              : eq(monitoringAlerts.level, filter.level as AlertRow['level']),
            filter.serviceId === undefined ? undefined : eq(monitoringAlerts.serviceId, filter.serviceId),
          ),
        )
        .orderBy(desc(monitoringAlerts.raisedAt))
        .limit(500);
    },

    async countOpenAlerts(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(monitoringAlerts)
        .where(and(eq(monitoringAlerts.serviceId, serviceId), isNull(monitoringAlerts.clearedAt)));
      return row?.count ?? 0;
    },

    /** Alerts whose mail or webhook post is still owed, oldest first. */
    async owedAlerts(limit: number): Promise<AlertRow[]> {
      return db
        .select()
        .from(monitoringAlerts)
        .where(or(eq(monitoringAlerts.mail, 'pending'), isNotNull(monitoringAlerts.hook)))
        .orderBy(asc(monitoringAlerts.raisedAt))
        .limit(limit);
    },

    async markMailed(id: string): Promise<void> {
      await db.update(monitoringAlerts).set({ mail: 'sent' }).where(eq(monitoringAlerts.id, id));
    },

    /** The webhook post of this state is done (a later state still owed stays owed). */
    async markHooked(id: string, state: 'raised' | 'cleared'): Promise<void> {
      await db
        .update(monitoringAlerts)
        .set({ hook: null })
        .where(and(eq(monitoringAlerts.id, id), eq(monitoringAlerts.hook, state)));
    },

    // Webhooks.

    async webhook(accountId: string): Promise<WebhookRow | undefined> {
      const [row] = await db
        .select()
        .from(monitoringWebhooks)
        .where(eq(monitoringWebhooks.accountId, accountId));
      return row;
    },

    async setWebhook(
      row: Pick<WebhookRow, 'accountId' | 'url' | 'secretSealed' | 'createdAt'>,
    ): Promise<void> {
      await db
        .insert(monitoringWebhooks)
        .values(row)
        .onConflictDoUpdate({
          target: monitoringWebhooks.accountId,
          set: {
            url: row.url,
            secretSealed: row.secretSealed,
            createdAt: row.createdAt,
            lastDeliveryAt: null,
            lastDeliveryOk: null,
            lastDeliveryStatus: null,
          },
        });
    },

    async deleteWebhook(accountId: string): Promise<boolean> {
      const rows = await db
        .delete(monitoringWebhooks)
        .where(eq(monitoringWebhooks.accountId, accountId))
        .returning();
      return rows.length > 0;
    },

    async recordDelivery(accountId: string, at: Date, ok: boolean, status: number | null): Promise<void> {
      await db
        .update(monitoringWebhooks)
        .set({ lastDeliveryAt: at, lastDeliveryOk: ok ? 'ok' : 'failed', lastDeliveryStatus: status })
        .where(eq(monitoringWebhooks.accountId, accountId));
    },

    // Retention.

    /** Deletes events and rollups older than `before`, a batch at a time; answers how many events. */
    async prune(before: Date, batch = 50_000): Promise<number> {
      let deleted = 0;
      for (;;) {
        const rows = await db
          .delete(monitoringEvents)
          .where(
            inArray(
              monitoringEvents.id,
              db
                .select({ id: monitoringEvents.id })
                .from(monitoringEvents)
                .where(lt(monitoringEvents.at, before))
                .limit(batch),
            ),
          )
          .returning({ id: monitoringEvents.id });
        const count = rows.length;
        deleted += count;
        if (count < batch) break;
      }
      await db.delete(monitoringActivityHours).where(lt(monitoringActivityHours.hour, before));
      await db.delete(monitoringUserHours).where(lt(monitoringUserHours.hour, before));
      await db.delete(monitoringUserKindHours).where(lt(monitoringUserKindHours.hour, before));
      await db.delete(monitoringUsageSamples).where(lt(monitoringUsageSamples.hour, before));
      await db.delete(monitoringDaemonStarts).where(lt(monitoringDaemonStarts.startedAt, before));
      await db.delete(monitoringApplies).where(lt(monitoringApplies.requestedAt, before));
      await db
        .delete(monitoringAlerts)
        .where(and(isNotNull(monitoringAlerts.clearedAt), lte(monitoringAlerts.clearedAt, before)));
      return deleted;
    },
  };
}

export type MonitoringQueries = ReturnType<typeof createMonitoringQueries>;
