// The one handle every module's queries receive. PGlite (real PostgreSQL compiled to
// WebAssembly, in process) is the embedded default; a DATABASE_URL selects a real server
// through node-postgres. Both speak the same SQL, so the same migrations and queries run on both.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { ensurePrivateDirSync } from '../private-dir.ts';

// No schema object: every query names its table (each module's `<module>.table.ts`), and
// drizzle-kit finds the tables by their files' names (drizzle.config.ts).
export type Db = PgDatabase<PgQueryResultHKT>;

export interface SqlResult {
  rows: Record<string, unknown>[];
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * Raw SQL for libraries that bring their own (pg-boss). Without values the text may hold
   * several statements; PGlite runs those through `exec`, since its prepared `query` refuses them.
   */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  migrate(): Promise<void>;
  /**
   * Runs `work` holding the lock that prepares the database: processes started at once on one
   * server (several APIs, a worker) migrate and seed it one after another, never side by side.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A server only (PGlite is one process: nobody else to hear from): calls `onMessage` with the
   * payload of each NOTIFY on `channel`, on a connection of its own that is opened again when
   * lost (what was sent meanwhile is missed: listeners must not depend on every message).
   * Resolves once listening; the function it resolves with stops.
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The session-level advisory lock of exclusively(); apart from the other modules' keys. */
const PREPARE_LOCK_KEY = 727_411_000;

export interface PgliteDatabase extends Database {
  kind: 'pglite';
  /** The whole database as a tarball, to start other instances from (test snapshots). */
  dumpDataDir(): Promise<Blob>;
}

/** Told the SQL of every query the handle runs (tests count a request's round trips with it). */
export type QueryObserver = (sql: string) => void;

const observing = (onQuery?: QueryObserver) => (onQuery ? { logger: { logQuery: onQuery } } : {});

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Opens PGlite in `dataDir`, or in memory when `dataDir` is undefined, optionally from a dump. */
export async function openPglite(
  dataDir?: string,
  loadDataDir?: Blob,
  onQuery?: QueryObserver,
): Promise<PgliteDatabase> {
  // The database's files are the operator's alone (private-dir.ts), its parent the data folder.
  if (dataDir) {
    ensurePrivateDirSync(path.dirname(dataDir));
    ensurePrivateDirSync(dataDir);
  }
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  const db: Db = drizzlePglite({ client, ...observing(onQuery) });
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder });
    },
    // One process owns an embedded database: there is nobody to wait for.
    exclusively: (work) => work(),
    async close() {
      await client.close();
    },
    async dumpDataDir() {
      return client.dumpDataDir('none');
    },
  };
}

export async function openPostgres(
  connectionString: string,
  maxConnections = 10,
  onError?: (error: Error) => void,
  onQuery?: QueryObserver,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client's network error must not crash the process (the next query reconnects), but
  // it is reported: a database that keeps dropping connections is worth a warning.
  pool.on('error', (error) => onError?.(error));
  const db: Db = drizzlePostgres({ client: pool, ...observing(onQuery) });
  return {
    kind: 'postgres',
    db,
    async executeSql(text, values) {
      const result = await pool.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    },
    async migrate() {
      await migratePostgres(drizzlePostgres({ client: pool }), { migrationsFolder });
    },
    async listen(channel, onMessage) {
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const again = () => {
        if (stopped || retry) return;
        retry = setTimeout(() => {
          retry = undefined;
          connect().catch((error: unknown) => {
            onError?.(error as Error);
            again();
          });
        }, 1000);
      };
      const connect = async () => {
        const next = new pg.Client({ connectionString });
        next.on('notification', (message) => {
          if (message.channel === channel) onMessage(message.payload ?? '');
        });
        const lost = (error?: Error) => {
          if (client !== next) return;
          client = undefined;
          if (error) onError?.(error);
          void next.end().catch(() => undefined);
          again();
        };
        next.on('error', lost);
        next.on('end', () => lost());
        try {
          await next.connect();
          await next.query(`listen "${channel.replace(/"/g, '""')}"`);
        } catch (error) {
          void next.end().catch(() => undefined);
          throw error;
        }
        if (stopped) await next.end().catch(() => undefined);
        else client = next;
      };
      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const current = client;
        client = undefined;
        await current?.end().catch(() => undefined);
      };
    },
    async exclusively(work) {
      // A session lock, on a connection of its own held for the whole of `work`.
      const holder = await pool.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [PREPARE_LOCK_KEY]);
        try {
          return await work();
        } finally {
          await holder.query('select pg_advisory_unlock($1)', [PREPARE_LOCK_KEY]);
        }
      } finally {
        holder.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  onError?: (error: Error) => void;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, undefined, options.onError)
    : openPglite(path.join(options.dataDir, 'db'));
}
