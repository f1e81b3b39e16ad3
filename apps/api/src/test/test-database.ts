// A private, migrated database for one test file: in-memory PGlite by default, or, when
// DATABASE_URL is set, a fresh database created on that server and dropped afterwards. Test
// files therefore never share state and can run in any order, on either engine.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database, type QueryObserver } from '../db/database.ts';

export interface TestDatabase extends Database {
  /** Drops what this test file created. */
  destroy(): Promise<void>;
}

export async function openTestDatabase(onQuery?: QueryObserver): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const snapshot = inject('pgliteSnapshot');
    const database = snapshot
      ? await openPglite(undefined, new Blob([readFileSync(snapshot)]), onQuery)
      : await openPglite(undefined, undefined, onQuery);
    // Applies only what the snapshot lacks (nothing, normally), so a stale snapshot cannot lie.
    await database.migrate();
    return { ...database, destroy: () => database.close() };
  }

  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // From the migrated template global-setup made (a file run alone with a server URL has none).
  const template = inject('postgresTemplate');
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), 5, undefined, onQuery);
  // Applies only what the template lacks (nothing, normally), so a stale template cannot lie.
  await database.migrate();
  return {
    ...database,
    async destroy() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
