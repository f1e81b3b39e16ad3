// The columns of a row that belongs to one workspace: its service, gone with it, and the account
// that owns it. Tables of every workspace feature declare them alike.
import { uuid } from 'drizzle-orm/pg-core';
import { accountIdColumn } from '../../db/columns.ts';
import { services } from './services.table.ts';

/** `service_id`: the workspace the row belongs to; deleting the service deletes the row. */
export const serviceIdColumn = () =>
  uuid('service_id')
    .notNull()
    .references(() => services.id, { onDelete: 'cascade' });

/** `service_id` as the key of a table with one row per workspace. */
export const serviceKeyColumn = () =>
  uuid('service_id')
    .primaryKey()
    .references(() => services.id, { onDelete: 'cascade' });

/** `service_id` then `account_id`: whose workspace a row is part of. */
export const workspaceColumns = () => ({ serviceId: serviceIdColumn(), accountId: accountIdColumn() });
