import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaceUsers } from '../directory/directory.table.ts';
import { accountIdColumn, timestampColumns, updatedAtColumn } from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A workspace's LDAP directory (issue 17): the row exists from the owner's first LDAP change,
 * and with it the `ldap` section of the desired state. Only the SHA-512 crypt of the read-only
 * bind account's password is kept. The report columns are what the node last said of its slapd.
 * `alias` (issue 36): the directory's readable second base, `dc=<alias>,dc=debesis`; taken from
 * the service's name when the row is made, then the owner's; null: none (rows made before it).
 */
export const ldapDirectories = pgTable('ldap_directories', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  bindPasswordCrypt: text('bind_password_crypt'),
  anonymousRead: boolean('anonymous_read').notNull().default(false),
  alias: text('alias'),
  reportedUsers: integer('reported_users'),
  reportedGroups: integer('reported_groups'),
  lockedUsers: jsonb('locked_users').$type<string[]>().notNull().default([]),
  syncedAt: timestamp('synced_at', { withTimezone: true }),
  reportedAt: timestamp('reported_at', { withTimezone: true }),
  changedGeneration: integer('changed_generation').notNull(),
  ...timestampColumns(),
});

/**
 * A service user's LDAP flags: suspended, an expiry date (`YYYY-MM-DD`, the last day it may
 * bind). Only users with a flag have a row; it goes with the user.
 */
export const ldapUserFlags = pgTable(
  'ldap_user_flags',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => workspaceUsers.id, { onDelete: 'cascade' }),
    ...workspaceColumns(),
    suspended: boolean('suspended').notNull().default(false),
    expiresOn: text('expires_on'),
    changedGeneration: integer('changed_generation').notNull(),
    updatedAt: updatedAtColumn(),
  },
  (table) => [index('ldap_user_flags_service_idx').on(table.serviceId)],
);
