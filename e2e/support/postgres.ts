// What the journeys on the PostgreSQL server share: whether the server is there (skipped with the
// reason printed when it is not), a database of the journey's own for the describe block (made
// before, dropped after), and the operator's `npm run ops` against it, as an operator runs it on a
// machine of the product rather than waiting for the clock.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { ROOT } from '../../scripts/lib/processes.ts';

const SERVER = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Why the PostgreSQL server cannot be used here, or undefined; `journey` names the skip. */
export async function postgresUnavailable(journey: string): Promise<string | undefined> {
  const unavailable = await admin(async () => undefined).then(
    () => undefined,
    (error: unknown) => `no PostgreSQL server at ${SERVER} (${(error as Error).message})`,
  );
  if (unavailable) console.warn(`[e2e] ${journey} skipped: ${unavailable}`);
  return unavailable;
}

/**
 * A database of its own, named from `prefix`, made before the describe block's other beforeAll
 * hooks and dropped (whoever is still connected) after its afterAll hooks. Answers its URL once made.
 */
export function useOwnDatabase(prefix: string): () => string {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  let url = '';
  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE "${name}"`));
    const own = new URL(SERVER);
    own.pathname = `/${name}`;
    url = own.toString();
  });
  afterAll(async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });
  return () => url;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm run ops -- <args>` with `env` (DATABASE_URL, DATA_DIR…); its output, and whether it
 * succeeded. `jobs run` asked while the clock's own run is pending answers "not started again"
 * (that run is the one, for every worker): asked again a moment later, up to five times.
 */
export async function runOps(
  args: readonly string[],
  env: Record<string, string>,
  options: { timeoutMs: number; retryAfterMs: number },
): Promise<{ ok: boolean; output: string }> {
  let output = '';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const run = spawnSync('npm', ['run', '--silent', 'ops', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: options.timeoutMs,
    });
    output = `${run.stdout}${run.stderr}`;
    if (run.status === 0) return { ok: true, output };
    if (!output.includes('not started again')) break;
    await sleep(options.retryAfterMs);
  }
  return { ok: false, output };
}
