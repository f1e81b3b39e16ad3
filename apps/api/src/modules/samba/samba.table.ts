import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { workspaceGroups, workspaceUsers } from '../directory/directory.table.ts';
import {
  accountIdColumn,
  createdAtColumn,
  timestampColumns,
  updatedAtColumn,
  uuidPrimaryKey,
} from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A Samba share of a workspace (spec §3 "Samba share"): a folder of its storage, relative to it
 * (`shares/<name>` unless the owner chose another). `changed_generation` is the service
 * generation of its last change, its users' and groups' included (see resourceStatus).
 */
export const sambaShares = pgTable(
  'samba_shares',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    name: text('name').notNull(),
    path: text('path').notNull(),
    description: text('description').notNull().default(''),
    guestOk: boolean('guest_ok').notNull().default(false),
    browseable: boolean('browseable').notNull().default(true),
    bindPublicIp: boolean('bind_public_ip').notNull().default(false),
    changedGeneration: integer('changed_generation').notNull(),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('samba_shares_name_unique').on(table.serviceId, table.name),
    index('samba_shares_account_idx').on(table.accountId),
  ],
);

/**
 * A user allowed into a share, with their permissions. The foreign key keeps the database
 * honest; the directory tells the Samba module before it deletes a user, so the share is
 * stamped with the deleting generation too.
 */
export const sambaShareUsers = pgTable(
  'samba_share_users',
  {
    shareId: uuid('share_id')
      .notNull()
      .references(() => sambaShares.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => workspaceUsers.id, { onDelete: 'cascade' }),
    read: boolean('read').notNull(),
    write: boolean('write').notNull(),
    execute: boolean('execute').notNull(),
    admin: boolean('admin').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.shareId, table.userId] }),
    index('samba_share_users_user_idx').on(table.userId),
  ],
);

/** A group allowed into a share: its members read and write. */
export const sambaShareGroups = pgTable(
  'samba_share_groups',
  {
    shareId: uuid('share_id')
      .notNull()
      .references(() => sambaShares.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => workspaceGroups.id, { onDelete: 'cascade' }),
    createdAt: createdAtColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.shareId, table.groupId] }),
    index('samba_share_groups_group_idx').on(table.groupId),
  ],
);

/** The workspace's Samba server settings; no row means the defaults (SAMBA_DEFAULT_SETTINGS). */
export const sambaSettings = pgTable('samba_settings', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  workgroup: text('workgroup').notNull(),
  serverString: text('server_string').notNull(),
  minProtocol: text('min_protocol', { enum: ['SMB2', 'SMB3'] }).notNull(),
  changedGeneration: integer('changed_generation').notNull(),
  updatedAt: updatedAtColumn(),
});
