import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  accountIdColumn,
  createdAtColumn,
  timestampColumns,
  updatedAtColumn,
  uuidPrimaryKey,
} from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A VPN user of a workspace (spec §3 "VPN user"): an account of its own, not a service user, whose
 * username is its certificate's CN and never changes. Only the SHA-512 crypt of its password is
 * kept (the node's connect check reads it). `cert_generation` names the certificate it holds: the
 * service generation of its creation or last revoke, so a user deleted and created again under the
 * same name never asks the node for a certificate generation that name had before.
 * `changed_generation` is the service generation of its last change (see resourceStatus).
 */
export const vpnUsers = pgTable(
  'vpn_users',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    username: text('username').notNull(),
    passwordCrypt: text('password_crypt').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    /** Bytes per calendar month (UTC), sent + received; 0: unlimited. */
    trafficLimitBytes: bigint('traffic_limit_bytes', { mode: 'number' }).notNull().default(0),
    /**
     * `person`: a VPN user the owner manages in the VPN tab. `backup_client`: the VPN login of a
     * backup client (backups module), made, revoked and deleted with it, and not one of the
     * plan's VPN users.
     */
    purpose: text('purpose', { enum: ['person', 'backup_client'] })
      .notNull()
      .default('person'),
    certGeneration: integer('cert_generation').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    changedGeneration: integer('changed_generation').notNull(),
    ...timestampColumns(),
  },
  (table) => [
    // The node matches names without regard to case (a CN, a login): so does uniqueness.
    uniqueIndex('vpn_users_username_unique').on(table.serviceId, sql`lower(${table.username})`),
    index('vpn_users_account_idx').on(table.accountId),
  ],
);

/**
 * The workspace's VPN server: what is not a user's. `restart_generation` is the generation of the
 * owner's last restart of the server alone (the section's restart_token); `sessions_reported_at`
 * when the node last reported its sessions. No row: never restarted, never reported.
 */
export const vpnServers = pgTable('vpn_servers', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  restartGeneration: integer('restart_generation'),
  sessionsReportedAt: timestamp('sessions_reported_at', { withTimezone: true }),
  updatedAt: updatedAtColumn(),
});

/**
 * The sessions the node last reported (its management interface's `status 3`), replaced by each
 * report; a session of a name that is no VPN user here is not kept.
 */
export const vpnSessions = pgTable(
  'vpn_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...workspaceColumns(),
    userId: uuid('user_id')
      .notNull()
      .references(() => vpnUsers.id, { onDelete: 'cascade' }),
    realAddress: text('real_address').notNull(),
    virtualAddress: text('virtual_address').notNull(),
    /** Bytes the server sent to the client / received from it in this session. */
    bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull(),
    bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull(),
    connectedSince: timestamp('connected_since', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('vpn_sessions_service_idx').on(table.serviceId),
    index('vpn_sessions_user_idx').on(table.userId),
  ],
);

/**
 * A user's month as the node last counted it: the totals the next report's totals are compared
 * with (their difference is the traffic since), and what the users list shows as used this month
 * and over the limit. One row per user: a new month replaces the old one.
 */
export const vpnUsage = pgTable('vpn_usage', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => vpnUsers.id, { onDelete: 'cascade' }),
  ...workspaceColumns(),
  /** `YYYY-MM`, UTC. */
  month: text('month').notNull(),
  bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull(),
  bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull(),
  overLimit: boolean('over_limit').notNull(),
  reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
});

/**
 * Traffic history for the chart: bytes a user moved, per hour (UTC) in which the API heard of
 * them. A deleted user's hours stay, without the user, so the workspace's past totals hold.
 */
export const vpnTraffic = pgTable(
  'vpn_traffic',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...workspaceColumns(),
    userId: uuid('user_id').references(() => vpnUsers.id, { onDelete: 'set null' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull().default(0),
    bytesReceived: bigint('bytes_received', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    uniqueIndex('vpn_traffic_user_hour_unique').on(table.userId, table.hour),
    index('vpn_traffic_service_hour_idx').on(table.serviceId, table.hour),
  ],
);

/**
 * A one-time link to a user's config file (for a phone, by QR code): only the SHA-256 of its
 * random token is kept; it works once (`used_at`), until `expires_at`.
 */
export const vpnConfigLinks = pgTable(
  'vpn_config_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    ...workspaceColumns(),
    userId: uuid('user_id')
      .notNull()
      .references(() => vpnUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (table) => [
    index('vpn_config_links_user_idx').on(table.userId),
    index('vpn_config_links_expires_idx').on(table.expiresAt),
  ],
);
