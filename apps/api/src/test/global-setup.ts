// Runs once before the API test files: builds a migrated PGlite database (with the job queue's
// schema) and keeps its files as a snapshot. Each test file then starts from a copy in about a
// second instead of running initdb for four or five.
import { rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/database.ts';
import { startQueue } from '../jobs/queue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite snapshot, or '' when the tests use a PostgreSQL server. */
    pgliteSnapshot: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteSnapshot', '');
    return;
  }
  const database = await openPglite();
  await database.migrate();
  const queue = await startQueue(database, { supervise: false });
  await queue.stop();
  const snapshot = await database.dumpDataDir();
  await database.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'debesis-pglite-snapshot-'));
  const file = path.join(dir, 'snapshot.tar');
  writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
