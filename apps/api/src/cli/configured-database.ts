// The database an operator command works on: the one the configuration names (DATABASE_URL, or
// the embedded PGlite in DATA_DIR), migrated and seeded like at start. Paths such as DATA_DIR are
// taken from where npm was started (INIT_CWD), not from apps/api where npm runs the script.
// The embedded database takes one process at a time: stop `npm start` first.
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { prepareDatabase } from '../db/prepare.ts';

export async function openConfiguredDatabase(): Promise<{ config: Config; database: Database }> {
  const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  const database = await openDatabase({
    dataDir: config.dataDir,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
  });
  try {
    await prepareDatabase(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database };
}
