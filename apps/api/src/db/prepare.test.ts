// Several processes started at once on one PostgreSQL server (two APIs and a worker, say) all
// prepare the database: they must take turns, not race to create the same tables.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres } from './database.ts';
import { prepareDatabase } from './prepare.ts';

const server = process.env.DATABASE_URL;

describe.skipIf(!server)('preparing one PostgreSQL database from several processes', () => {
  it('three preparations at once migrate once, seed once, and all succeed', async () => {
    const name = `prepare_${Date.now()}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(server ?? '');
    url.pathname = `/${name}`;
    const databases = await Promise.all([1, 2, 3].map(() => openPostgres(url.toString(), 3)));
    try {
      const outcomes = await Promise.all(databases.map((database) => prepareDatabase(database)));
      expect(outcomes.filter((outcome) => outcome.seeded)).toHaveLength(1);
      const [first] = databases;
      const { rows } = await first!.executeSql('select count(*)::int as products from products');
      expect(rows[0]?.products).toBe(4);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
