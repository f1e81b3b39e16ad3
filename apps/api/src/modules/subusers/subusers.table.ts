import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';
import { workspaceColumns } from '../services/service-columns.ts';

/**
 * A subuser of one service (spec §3 "Subuser"): `username` as stored, with the `subuser-` prefix.
 * The password is an argon2id hash like the owner's. The TOTP secret is kept sealed (AES-256-GCM
 * under a key derived from the server's secret): `totp_pending` while the owner sets 2FA up,
 * `totp_secret` once a right code turned it on. `totp_last_step` is the time step of the last
 * code accepted, so that a code is not taken twice.
 */
export const subusers = pgTable(
  'subusers',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    totpSecret: text('totp_secret'),
    totpPending: text('totp_pending'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('subusers_name_unique').on(table.serviceId, table.username),
    index('subusers_account_idx').on(table.accountId),
  ],
);

/** A one-time backup code: an HMAC of it under a server-derived key; `used_at` once taken. */
export const subuserBackupCodes = pgTable(
  'subuser_backup_codes',
  {
    id: uuidPrimaryKey(),
    subuserId: uuid('subuser_id')
      .notNull()
      .references(() => subusers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('subuser_backup_codes_unique').on(table.subuserId, table.codeHash)],
);

/**
 * A subuser's sign-in on one device. The token is found by its SHA-256 (`token_hash`); the
 * session ends at `expires_at`, or when revoked (by the owner, at sign-out, or with its subuser).
 */
export const subuserSessions = pgTable(
  'subuser_sessions',
  {
    id: uuidPrimaryKey(),
    subuserId: uuid('subuser_id')
      .notNull()
      .references(() => subusers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    tokenHint: text('token_hint').notNull(),
    deviceName: text('device_name').notNull(),
    ip: text('ip'),
    rememberMe: boolean('remember_me').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('subuser_sessions_subuser_idx').on(table.subuserId, table.expiresAt)],
);
