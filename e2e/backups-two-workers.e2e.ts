// Issue 18, acceptance 3, literally: two API processes, each with its worker, on one PostgreSQL
// database, run one due backup schedule once. The first process also runs the node; the second is
// API and worker only, as a second machine behind a balancer would be. A schedule made through
// the API is set due in the database, and the workers' ticks (`backups.tick`, run at once with the
// operator's `ops jobs run`, either worker taking each) queue it; after a second tick the history
// still holds exactly one scheduled run, and its schedule's next time has moved on. The in-process race of six schedulers is the API test's
// (modules/backups/backups.test.ts).
//
// Needs the PostgreSQL server on 127.0.0.1:5432 (CI has it); elsewhere it is skipped with the
// reason printed. It makes a database of its own and drops it afterwards.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupSchedule, BackupSession, SambaShare } from '@debesis/contract';
import { createVerifiedAccounts, signInTokens } from '../scripts/lib/accounts.ts';
import { ROOT, startProduct, type RunningServer } from '../scripts/lib/processes.ts';
import {
  buyWorkspace,
  cheapestPlan,
  customerApi,
  json,
  type CustomerApi,
} from '../scripts/lib/workspace-api.ts';

const SERVER = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `e2e_two_workers_${randomBytes(4).toString('hex')}`;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const unavailable = await admin(async () => undefined).then(
  () => undefined,
  (error: unknown) => `no PostgreSQL server at ${SERVER} (${(error as Error).message})`,
);
if (unavailable) console.warn(`[e2e] two workers on one PostgreSQL skipped: ${unavailable}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm run ops -- jobs run backups.tick` on the shared database: it queues one tick for the
 * workers and waits for it to end. A tick of the clock's that is pending at that moment answers
 * "not started again" (it runs once for both): asked again a moment later.
 */
async function runTick(databaseUrl: string, dataDir: string): Promise<{ ok: boolean; output: string }> {
  let output = '';
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const run = spawnSync('npm', ['run', '--silent', 'ops', '--', 'jobs', 'run', 'backups.tick'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 150_000,
    });
    output = `${run.stdout}${run.stderr}`;
    if (run.status === 0) return { ok: true, output };
    if (!output.includes('not started again')) break;
    await sleep(2000);
  }
  return { ok: false, output };
}

describe.skipIf(unavailable !== undefined)(
  'two API processes with their workers on one PostgreSQL',
  { timeout: 300_000 },
  () => {
    const products: RunningServer[] = [];
    let api: CustomerApi;
    let databaseUrl = '';

    beforeAll(async () => {
      await admin((client) => client.query(`CREATE DATABASE "${DATABASE}"`));
      const url = new URL(SERVER);
      url.pathname = `/${DATABASE}`;
      databaseUrl = url.toString();
      // One after the other: the first migrates, the second finds it done. Either worker may send
      // a mail (the verification link), so both write them to the first one's mail folder.
      const first = await startProduct({ DATABASE_URL: databaseUrl });
      products.push(first);
      products.push(
        await startProduct({
          DATABASE_URL: databaseUrl,
          ROLES: 'api,worker',
          MAIL_DIR: path.join(first.dataDir, 'mail'),
        }),
      );
      const [email = ''] = await createVerifiedAccounts(first.url, first.dataDir, 1);
      api = await customerApi(first.url, (await signInTokens(first.url, email)).access_token);
    }, 240_000);

    afterAll(async () => {
      for (const product of products) await product.stop();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
    }, 60_000);

    it('queue a due schedule’s run once between them', async () => {
      const workspace = await buyWorkspace(api, (await cheapestPlan(products[0]!.url)).order, 'two-workers', {
        withinMs: 120_000,
      });
      const base = `/backups/${workspace.id}`;
      await json<SambaShare>(
        await api.send('POST', `/samba/${workspace.id}/shares`, { name: 'projects' }),
        'share',
      );
      const schedule = await json<BackupSchedule>(
        await api.send('POST', `${base}/schedules`, {
          name: 'Projects',
          frequency: 'daily',
          hour: 2,
          minute: 0,
          paths: [{ kind: 'share', name: 'projects' }],
        }),
        'schedule',
      );
      const due = new Date(Date.now() - 60_000);
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        await db.query('UPDATE backup_schedules SET next_run_at = $1 WHERE id = $2', [due, schedule.id]);
        // The workers' tick, run now by the operator's command (`ops jobs run backups.tick`) rather
        // than waited for on the clock: either worker takes each one. The first queues the due
        // run; the second, a tick later (the other worker's, or the same one's again), must not
        // queue it again. The clock's own ticks may come between: they must not either.
        for (const tick of ['first', 'second']) {
          const ran = await runTick(databaseUrl, products[0]!.dataDir);
          expect(ran.ok, `${tick} tick: ${ran.output}`).toBe(true);
        }
        const { rows: queued } = await db.query<{ count: string }>(
          "SELECT count(*) FROM backup_sessions WHERE schedule_id = $1 AND trigger = 'schedule'",
          [schedule.id],
        );
        expect(Number(queued[0]?.count), 'scheduled runs queued').toBe(1);
        const { sessions } = await json<{ sessions: BackupSession[] }>(
          await api.get(`${base}/sessions?schedule_id=${schedule.id}`),
          'history',
        );
        expect(sessions.filter((session) => session.trigger === 'schedule')).toHaveLength(1);
        const { rows } = await db.query<{ next_run_at: Date }>(
          'SELECT next_run_at FROM backup_schedules WHERE id = $1',
          [schedule.id],
        );
        expect(rows[0]!.next_run_at.getTime()).toBeGreaterThan(Date.now());
      } finally {
        await db.end();
      }
    });
  },
);
