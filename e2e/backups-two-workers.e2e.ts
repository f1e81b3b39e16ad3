// Issue 18, acceptance 3, literally: two API processes, each with its worker, on one PostgreSQL
// database, run one due backup schedule once. The first process also runs the node; the second is
// API and worker only, as a second machine behind a balancer would be. A schedule made through
// the API is set due in the database, and the workers' ticks (`backups.tick`, every minute, each
// minute's taken by one of them) queue it; a minute after the first run is queued, the history
// still holds exactly one scheduled run, and its schedule's next time has moved on. The in-process race of six schedulers is the API test's
// (modules/backups/backups.test.ts).
//
// Needs the PostgreSQL server on 127.0.0.1:5432 (CI has it); elsewhere it is skipped with the
// reason printed. It makes a database of its own and drops it afterwards.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupSchedule, BackupSession, SambaShare } from '@debesis/contract';
import { createVerifiedAccounts, signInTokens } from '../scripts/lib/accounts.ts';
import { startProduct, type RunningServer } from '../scripts/lib/processes.ts';
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
        // Three minutes of ticks: every minute one of the two workers takes the tick.
        let queuedAt = 0;
        const deadline = Date.now() + 180_000;
        while (Date.now() < deadline) {
          const { rows } = await db.query<{ count: string }>(
            "SELECT count(*) FROM backup_sessions WHERE schedule_id = $1 AND trigger = 'schedule'",
            [schedule.id],
          );
          if (Number(rows[0]?.count) > 0 && queuedAt === 0) queuedAt = Date.now();
          // One more tick after the first run was queued (the other worker's turn, or the same
          // one's again): a second run would be there by then.
          if (queuedAt > 0 && Date.now() - queuedAt > 65_000) break;
          await sleep(2000);
        }
        expect(queuedAt, 'no worker queued the due run').toBeGreaterThan(0);
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
