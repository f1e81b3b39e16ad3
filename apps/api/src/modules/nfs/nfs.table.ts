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
import type { NfsAccess } from '@debesis/contract';
import { workspaceUsers } from '../directory/directory.table.ts';
import { accountIdColumn, timestampColumns, updatedAtColumn, uuidPrimaryKey } from '../../db/columns.ts';
import { serviceKeyColumn, workspaceColumns } from '../services/service-columns.ts';

/**
 * An NFS export of a workspace (spec §3 "NFS export"): a folder of its storage, relative to it,
 * served to one client rule, with the node's last reported counters of it. `owner_user_id` is the service user files are written as (none: the
 * workspace itself); the directory tells this module before it deletes a user, so the export is
 * stamped with the deleting generation too (the foreign key only keeps the database honest).
 * `changed_generation` is the service generation of its last change (see resourceStatus).
 */
export const nfsExports = pgTable(
  'nfs_exports',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    path: text('path').notNull(),
    client: text('client').notNull(),
    access: text('access').$type<NfsAccess>().notNull(),
    description: text('description').notNull().default(''),
    ownerUserId: uuid('owner_user_id').references(() => workspaceUsers.id, { onDelete: 'set null' }),
    changedGeneration: integer('changed_generation').notNull(),
    // The node's last word on ganesha's counters for it (since the server started); null: never
    // reported (an agent without the statistics interface, or not read yet).
    reads: bigint('reads', { mode: 'number' }),
    readBytes: bigint('read_bytes', { mode: 'number' }),
    writes: bigint('writes', { mode: 'number' }),
    writeBytes: bigint('write_bytes', { mode: 'number' }),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('nfs_exports_path_unique').on(table.serviceId, table.path),
    index('nfs_exports_account_idx').on(table.accountId),
    index('nfs_exports_owner_idx').on(table.ownerUserId),
  ],
);

/** The workspace's NFS server: when the node last reported its clients. No row: never. */
export const nfsServers = pgTable('nfs_servers', {
  serviceId: serviceKeyColumn(),
  accountId: accountIdColumn(),
  clientsReportedAt: timestamp('clients_reported_at', { withTimezone: true }),
  updatedAt: updatedAtColumn(),
});

/** The clients the node last reported (ganesha's NFSv4 client records), replaced by each report. */
export const nfsClients = pgTable(
  'nfs_clients',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ...workspaceColumns(),
    address: text('address').notNull(),
    version: text('version').notNull(),
    connected: boolean('connected').notNull(),
    clientName: text('client_name').notNull(),
    mountPoint: text('mount_point'),
  },
  (table) => [index('nfs_clients_service_idx').on(table.serviceId)],
);
