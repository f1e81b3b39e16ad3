// One typed way into a transaction. Queries take an `Executor`: the database or a transaction
// opened on it, so the same query factory serves both. Work that spans modules opens the
// transaction once with `inTransaction` and hands the `Tx` to every module it calls.
//
// On PGlite the database is one connection: while a transaction is open, anything that uses `db`
// instead of the `Tx` waits for a connection the transaction holds, and never returns. Whatever a
// change records (its activity entry, an invoice) therefore takes the `Tx` it runs in.
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './database.ts';

/** No schema object (database.ts): queries name their tables. */
type NoSchema = Record<string, never>;

/** A transaction open on the database. */
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;

/** What queries run on: the database itself, or a transaction opened on it. */
export type Executor = Db | Tx;

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export function inTransaction<T>(db: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(work);
}
