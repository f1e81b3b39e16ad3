import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { workspaceUsers } from '../directory/directory.table.ts';
import { accountIdColumn, updatedAtColumn } from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A service user's FTP/SFTP access, once the owner changed it: no row means the default (may sign
 * in, read and write; FTP_DEFAULT_USER_ACCESS). The row goes with the user (the directory tells
 * the FTP module first, in its deleting transaction). `changed_generation` is the service
 * generation of its last change (see resourceStatus).
 */
export const ftpUsers = pgTable(
  'ftp_users',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => workspaceUsers.id, { onDelete: 'cascade' }),
    ...workspaceColumns(),
    enabled: boolean('enabled').notNull(),
    permissions: text('permissions', { enum: ['read_write', 'read_only'] }).notNull(),
    changedGeneration: integer('changed_generation').notNull(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('ftp_users_service_idx').on(table.serviceId)],
);

/**
 * The workspace's FTP/SFTP settings (the `ftp-advanced` tab); no row means the defaults
 * (FTP_DEFAULT_SETTINGS).
 */
export const ftpSettings = pgTable('ftp_settings', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  ftpEnabled: boolean('ftp_enabled').notNull(),
  sftpEnabled: boolean('sftp_enabled').notNull(),
  passivePortMin: integer('passive_port_min').notNull(),
  passivePortMax: integer('passive_port_max').notNull(),
  maxClients: integer('max_clients').notNull(),
  maxClientsPerUser: integer('max_clients_per_user').notNull(),
  idleTimeoutMinutes: integer('idle_timeout_minutes').notNull(),
  tlsRequired: boolean('tls_required').notNull(),
  changedGeneration: integer('changed_generation').notNull(),
  updatedAt: updatedAtColumn(),
});

/**
 * The FTP and SFTP sessions the node last reported, replaced per protocol by each report; a
 * session of a name that is no user of the service is not kept.
 */
export const ftpSessions = pgTable(
  'ftp_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...workspaceColumns(),
    protocol: text('protocol', { enum: ['ftp', 'sftp'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => workspaceUsers.id, { onDelete: 'cascade' }),
    remoteAddress: text('remote_address'),
    connectedSince: timestamp('connected_since', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('ftp_sessions_service_idx').on(table.serviceId),
    index('ftp_sessions_user_idx').on(table.userId),
  ],
);

/** When the node last reported each protocol's sessions of a service. */
export const ftpSessionReports = pgTable(
  'ftp_session_reports',
  {
    ...workspaceColumns(),
    protocol: text('protocol', { enum: ['ftp', 'sftp'] }).notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.protocol] })],
);
