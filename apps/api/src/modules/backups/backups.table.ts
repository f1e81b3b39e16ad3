import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  BackupFailureCode,
  BackupFrequency,
  BackupJob,
  BackupPath,
  BackupScheduleState,
  BackupSessionStatus,
  BackupType,
  RestoreTarget,
} from '@debesis/contract';
import { vpnUsers } from '../vpn/vpn.table.ts';
import { accountIdColumn, createdAtColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A backup schedule (spec §3 "Backup schedule"). `next_run_at` is when the scheduler queues its
 * next run (null while paused); the provider's daily backup is one row per service with
 * `provider_managed`, made by the scheduler for every active service.
 */
export const backupSchedules = pgTable(
  'backup_schedules',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    name: text('name').notNull(),
    frequency: text('frequency').$type<BackupFrequency>().notNull(),
    hour: integer('hour').notNull(),
    minute: integer('minute').notNull(),
    weekday: integer('weekday').notNull(),
    monthDay: integer('month_day').notNull(),
    timeZone: text('time_zone').notNull(),
    paths: jsonb('paths').$type<BackupPath[]>().notNull(),
    keepFull: integer('keep_full').notNull(),
    keepIncremental: integer('keep_incremental').notNull(),
    fullEveryDays: integer('full_every_days').notNull(),
    state: text('state').$type<BackupScheduleState>().notNull(),
    providerManaged: boolean('provider_managed').notNull().default(false),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [
    index('backup_schedules_service_idx').on(table.serviceId),
    uniqueIndex('backup_schedules_provider_unique')
      .on(table.serviceId)
      .where(sql`${table.providerManaged}`),
    index('backup_schedules_due_idx')
      .on(table.nextRunAt)
      .where(sql`${table.state} = 'active'`),
  ],
);

/**
 * A backup run (spec §3 "Backup history entry"), from queued to completed or failed. Its
 * `paths`, `tags` and `retention` are fixed when it is queued: the node's job is exactly this row.
 * A scheduled run is unique per schedule and due time, so two schedulers cannot queue it twice.
 * `pruned_at`: the node's repository no longer holds its snapshot (the schedule's retention).
 * `failure_mail`: `pending` until the owner is mailed about its failure (once per run of failures).
 */
export const backupSessions = pgTable(
  'backup_sessions',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    scheduleId: uuid('schedule_id').references(() => backupSchedules.id, { onDelete: 'set null' }),
    scheduleName: text('schedule_name').notNull(),
    type: text('type').$type<BackupType>().notNull(),
    trigger: text('trigger').$type<'schedule' | 'manual'>().notNull(),
    status: text('status').$type<BackupSessionStatus>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    paths: jsonb('paths').$type<string[]>().notNull(),
    tags: jsonb('tags').$type<string[]>().notNull(),
    retention: jsonb('retention').$type<BackupJob['retention']>(),
    progress: jsonb('progress').$type<{ percent: number; files_done: number; bytes_done: number }>(),
    snapshotId: text('snapshot_id'),
    bytesAdded: bigint('bytes_added', { mode: 'number' }),
    files: integer('files'),
    filesNew: integer('files_new'),
    errorCode: text('error_code').$type<BackupFailureCode>(),
    error: text('error'),
    failureMail: text('failure_mail').$type<'pending' | 'sent'>(),
    prunedAt: timestamp('pruned_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('backup_sessions_service_idx').on(table.serviceId, table.createdAt),
    uniqueIndex('backup_sessions_due_unique').on(table.scheduleId, table.dueAt),
    index('backup_sessions_open_idx')
      .on(table.serviceId)
      .where(sql`${table.status} in ('queued', 'running')`),
    index('backup_sessions_mail_idx')
      .on(table.failureMail)
      .where(sql`${table.failureMail} = 'pending'`),
  ],
);

/** A restore asked for from a backup's snapshot; the node runs it like a backup run. */
export const backupRestores = pgTable(
  'backup_restores',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => backupSessions.id, { onDelete: 'cascade' }),
    snapshotId: text('snapshot_id').notNull(),
    path: text('path').notNull(),
    target: text('target').$type<RestoreTarget>().notNull(),
    status: text('status').$type<BackupSessionStatus>().notNull(),
    restoredTo: text('restored_to'),
    filesRestored: integer('files_restored'),
    errorCode: text('error_code').$type<BackupFailureCode>(),
    error: text('error'),
    createdAt: createdAtColumn(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('backup_restores_service_idx').on(table.serviceId, table.createdAt),
    index('backup_restores_open_idx')
      .on(table.serviceId)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);

/** The workspace's repository as the node last measured it. No row: never measured. */
export const backupUsage = pgTable('backup_usage', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  repositoryBytes: bigint('repository_bytes', { mode: 'number' }).notNull(),
  storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull(),
  snapshots: integer('snapshots').notNull(),
  measuredAt: timestamp('measured_at', { withTimezone: true }).notNull(),
});

/**
 * A backup client (spec §3 "Backup client"; docs/features/backup-clients.md): a customer's machine
 * that pushes restic backups over the workspace's VPN, with a VPN login of its own (`vpn_login_id`,
 * a vpn_users row of purpose `backup_client`) and a repository on the node named `name`. Only the
 * bcrypt hash of its password is kept here (the node's REST server checks it; the VPN login keeps
 * its SHA-512 crypt). `revoked_at`: disconnected by the owner, for good; its repository stays until
 * the client is deleted. The rest is what the node last reported of the repository.
 */
export const backupClients = pgTable(
  'backup_clients',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    name: text('name').notNull(),
    vpnLoginId: uuid('vpn_login_id').references(() => vpnUsers.id, { onDelete: 'set null' }),
    passwordBcrypt: text('password_bcrypt').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    snapshots: integer('snapshots').notNull().default(0),
    repositoryBytes: bigint('repository_bytes', { mode: 'number' }),
    lastPushAt: timestamp('last_push_at', { withTimezone: true }),
    pushing: boolean('pushing').notNull().default(false),
    /** When the node last copied its repository to the backup target (agent: client-mirror.ts). */
    offNodeAt: timestamp('off_node_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [uniqueIndex('backup_clients_name_unique').on(table.serviceId, sql`lower(${table.name})`)],
);

/**
 * The key of a workspace's restic repository on the operator's backup target
 * (docs/features/backups.md "Backups off the node"; backup-target.ts): made once, the first time a
 * desired state names the repository, and sealed under a key derived from the server's secret
 * (crypto/server-keys.ts), so a copy of the database alone opens no backup. Any node the workspace
 * lands on is given it: the backups outlive the node that made them. Deleted with the service's
 * row.
 */
export const backupRepositoryKeys = pgTable('backup_repository_keys', {
  serviceId: serviceKeyColumn(),
  keySealed: text('key_sealed').notNull(),
  createdAt: createdAtColumn(),
});
