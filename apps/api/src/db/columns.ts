// Columns most tables declare alike, each a function so that every table gets builders of its
// own. The SQL they make is the same as the columns written out, so no migration follows.
import { sql } from 'drizzle-orm';
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** `id`: a random UUID the database draws. */
export const uuidPrimaryKey = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);

/** `account_id`: the customer a row belongs to (every query on it filters by it). */
export const accountIdColumn = () => uuid('account_id').notNull();

/** `created_at`: when the row was written. */
export const createdAtColumn = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** `updated_at`: when the row last changed (each update sets it). */
export const updatedAtColumn = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** `created_at` and `updated_at`, in that order. */
export const timestampColumns = () => ({ createdAt: createdAtColumn(), updatedAt: updatedAtColumn() });
