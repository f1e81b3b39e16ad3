import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAtColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * A service user (spec §3 "Service user"): a Unix and Samba account inside the workspace. Its
 * uid is `id_base + id_offset` of the service's id block, so the offset is what is stored: the
 * service gets its `id_base` when placed on a node. Only hashes of the password are kept: the
 * SHA-512 crypt for Unix sign-ins and the NT hash Samba needs; never the password itself.
 * `changed_generation` is the service generation of the row's last change (see resourceStatus).
 */
export const workspaceUsers = pgTable(
  'workspace_users',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    name: text('name').notNull(),
    idOffset: integer('id_offset').notNull(),
    active: boolean('active').notNull().default(true),
    passwordCrypt: text('password_crypt').notNull(),
    passwordNt: text('password_nt').notNull(),
    changedGeneration: integer('changed_generation').notNull(),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('workspace_users_name_unique').on(table.serviceId, table.name),
    uniqueIndex('workspace_users_offset_unique').on(table.serviceId, table.idOffset),
    index('workspace_users_account_idx').on(table.accountId),
    check('workspace_users_offset_in_block', sql`${table.idOffset} between 1 and 9999`),
  ],
);

/** A group of service users (spec §3 "Group"); its gid is `id_base + id_offset`. */
export const workspaceGroups = pgTable(
  'workspace_groups',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    idOffset: integer('id_offset').notNull(),
    changedGeneration: integer('changed_generation').notNull(),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('workspace_groups_name_unique').on(table.serviceId, table.name),
    uniqueIndex('workspace_groups_offset_unique').on(table.serviceId, table.idOffset),
    index('workspace_groups_account_idx').on(table.accountId),
    check('workspace_groups_offset_in_block', sql`${table.idOffset} between 1 and 9999`),
  ],
);

/** Membership: primary (the user's primary group, at most one per user) or supplementary. */
export const workspaceGroupMembers = pgTable(
  'workspace_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => workspaceGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => workspaceUsers.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id').notNull(),
    primary: boolean('primary').notNull().default(false),
    createdAt: createdAtColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index('workspace_group_members_user_idx').on(table.userId),
    uniqueIndex('workspace_group_members_one_primary')
      .on(table.userId)
      .where(sql`"primary"`),
  ],
);

/**
 * The next id offset of a service's users and of its groups. Offsets only grow, so a new user
 * never inherits the uid, and with it the files, of a deleted one; only when the block is used
 * up are freed offsets taken again.
 */
export const workspaceIdCounters = pgTable('workspace_id_counters', {
  serviceId: serviceKeyColumn(),
  nextUserOffset: integer('next_user_offset').notNull().default(1),
  nextGroupOffset: integer('next_group_offset').notNull().default(1),
});
