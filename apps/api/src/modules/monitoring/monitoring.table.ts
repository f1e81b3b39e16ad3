import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accountIdColumn, uuidPrimaryKey } from '../../db/columns.ts';
import { serviceIdColumn, serviceKeyColumn } from '../services/service-columns.ts';

/**
 * What a workspace's daemons recorded (contract monitoring-node.ts), one row per event, kept
 * ACTIVITY_RETENTION_DAYS. Compact on purpose: kind and source are small codes (monitoring
 * .codes.ts), `node_key` is the node's id of the event (a report sent twice stores it once).
 * The windows' charts and totals read the hourly rollups below; the list reads the events
 * newest first by `(service_id, at, id)`.
 */
export const monitoringEvents = pgTable(
  'monitoring_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serviceId: serviceIdColumn(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    source: smallint('source').notNull(),
    kind: smallint('kind').notNull(),
    username: text('username'),
    path: text('path'),
    target: text('target'),
    bytes: bigint('bytes', { mode: 'number' }),
    remoteAddress: text('remote_address'),
    nodeKey: text('node_key').notNull(),
  },
  (table) => [
    uniqueIndex('monitoring_events_node_key').on(table.serviceId, table.nodeKey),
    // Newest first with the id as tie-break, read backwards: the list's order, no sort.
    index('monitoring_events_service_at').on(table.serviceId, table.at, table.id),
    index('monitoring_events_service_user_at').on(table.serviceId, table.username, table.at, table.id),
    // Retention deletes by age across services.
    index('monitoring_events_at').on(table.at),
  ],
);

/**
 * The rollups the windows read instead of the events, written with them (only for events newly
 * stored), each the smallest that answers its question over a week of a busy workspace in
 * milliseconds: the chart and the kinds' totals (per hour, source and kind), the users' ranking
 * (per hour and user), and one user's chart or a kind's ranking (per user, hour, source and kind).
 */
export const monitoringActivityHours = pgTable(
  'monitoring_activity_hours',
  {
    serviceId: serviceIdColumn(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    source: smallint('source').notNull(),
    kind: smallint('kind').notNull(),
    events: integer('events').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.hour, table.source, table.kind] })],
);

export const monitoringUserHours = pgTable(
  'monitoring_user_hours',
  {
    serviceId: serviceIdColumn(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    username: text('username').notNull(),
    events: integer('events').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.hour, table.username] })],
);

export const monitoringUserKindHours = pgTable(
  'monitoring_user_kind_hours',
  {
    serviceId: serviceIdColumn(),
    username: text('username').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    source: smallint('source').notNull(),
    kind: smallint('kind').notNull(),
    events: integer('events').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.serviceId, table.username, table.hour, table.source, table.kind] }),
    index('monitoring_user_kind_hours_kind').on(table.serviceId, table.kind, table.hour),
  ],
);

/** The service's use, one point an hour (the last report of the hour wins): the quota's trend. */
export const monitoringUsageSamples = pgTable(
  'monitoring_usage_samples',
  {
    serviceId: serviceIdColumn(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    usedBytes: bigint('used_bytes', { mode: 'number' }).notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    files: bigint('files', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.hour] })],
);

/** What each workspace user owns, as the node last counted (replaced by each count). */
export const monitoringUserUsage = pgTable(
  'monitoring_user_usage',
  {
    serviceId: serviceIdColumn(),
    /** '' holds what no user owns. */
    username: text('username').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    files: bigint('files', { mode: 'number' }).notNull(),
    measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.username] })],
);

/** Each start of each daemon as the reports told it: uptime, and restarting over and over. */
export const monitoringDaemonStarts = pgTable(
  'monitoring_daemon_starts',
  {
    serviceId: serviceIdColumn(),
    daemon: text('daemon').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.daemon, table.startedAt] })],
);

/**
 * What each service's last stored report said, in short (monitoring.report.ts), and when: a
 * report saying the same within a minute is not stored again, whichever API process receives it.
 */
export const monitoringReportKeys = pgTable('monitoring_report_keys', {
  serviceId: serviceKeyColumn(),
  key: text('key').notNull(),
  storedAt: timestamp('stored_at', { withTimezone: true }).notNull(),
});

/** Why a generation was asked for, where that restarts daemons on purpose (see `cause`). */
export const APPLY_CAUSES = ['owner', 'plan', 'lifecycle'] as const;
export type ApplyCause = (typeof APPLY_CAUSES)[number];

/**
 * Each generation of a service asked of its node and when the node applied it: the tasks'
 * provisioning (the generation that placed it) and config applies. Written by triggers on
 * `services` (migration 0032), so every path that moves a generation is counted, whichever
 * module moved it.
 */
export const monitoringApplies = pgTable(
  'monitoring_applies',
  {
    serviceId: serviceIdColumn(),
    generation: integer('generation').notNull(),
    kind: text('kind', { enum: ['provisioning', 'apply'] }).notNull(),
    /**
     * What the generation changed that restarts daemons, set by the trigger from the row's diff:
     * `owner` (start, stop, restart), `plan` (a plan change), `lifecycle` (a status change:
     * suspended, expired, restored…); null for the rest (users, shares…). Daemon starts within
     * such an apply are expected, not a daemon restarting over and over (alert-rules.ts).
     */
    cause: text('cause', { enum: APPLY_CAUSES }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.serviceId, table.generation] }),
    index('monitoring_applies_requested').on(table.serviceId, table.requestedAt),
  ],
);

/**
 * An alert (contract ALERT_KINDS): raised once while its cause lasts (one open row per service,
 * kind and subject), cleared when the cause goes. `mail` and `hook` say what is still owed to the
 * owner: a mail when raised, a webhook post when raised and when cleared.
 */
export const monitoringAlerts = pgTable(
  'monitoring_alerts',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    serviceId: serviceIdColumn(),
    kind: text('kind').notNull(),
    level: text('level', { enum: ['warning', 'critical'] }).notNull(),
    /** '' when the alert is about the whole service. */
    subject: text('subject').notNull().default(''),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    mail: text('mail', { enum: ['pending', 'sent'] }),
    hook: text('hook', { enum: ['raised', 'cleared'] }),
  },
  (table) => [
    uniqueIndex('monitoring_alerts_open')
      .on(table.serviceId, table.kind, table.subject)
      .where(sql`${table.clearedAt} IS NULL`),
    index('monitoring_alerts_account').on(table.accountId, table.raisedAt),
    index('monitoring_alerts_owed')
      .on(table.raisedAt)
      .where(sql`${table.mail} = 'pending' OR ${table.hook} IS NOT NULL`),
  ],
);

/** Beyond the spec: where an account's alerts are posted, and the sealed key they are signed with. */
export const monitoringWebhooks = pgTable('monitoring_webhooks', {
  accountId: uuid('account_id').primaryKey(),
  url: text('url').notNull(),
  secretSealed: text('secret_sealed').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
  lastDeliveryOk: text('last_delivery_ok', { enum: ['ok', 'failed'] }),
  lastDeliveryStatus: integer('last_delivery_status'),
});
