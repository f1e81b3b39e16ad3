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
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackupSchedule, BackupSession, SambaShare } from '@debesis/contract';
import { startProduct, type RunningServer } from '../scripts/lib/processes.ts';
import {
  buyWorkspace,
  cheapestPlan,
  json,
  newCustomer,
  type CustomerApi,
} from '../scripts/lib/workspace-api.ts';
import { postgresUnavailable, runOps, useOwnDatabase } from './support/postgres.ts';

const unavailable = await postgresUnavailable('two workers on one PostgreSQL');

describe.skipIf(unavailable !== undefined)(
  'two API processes with their workers on one PostgreSQL',
  { timeout: 300_000 },
  () => {
    const ownDatabase = useOwnDatabase('e2e_two_workers');
    const products: RunningServer[] = [];
    let api: CustomerApi;
    let databaseUrl = '';

    beforeAll(async () => {
      databaseUrl = ownDatabase();
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
      api = (await newCustomer(first.url, first.dataDir)).api;
    }, 240_000);

    afterAll(async () => {
      for (const product of products) await product.stop();
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
          // Either worker may take the tick; a tick of the clock's pending at that moment runs once
          // for both, and the command is asked again a moment later.
          const ran = await runOps(
            ['jobs', 'run', 'backups.tick'],
            { DATABASE_URL: databaseUrl, DATA_DIR: products[0]!.dataDir },
            { timeoutMs: 150_000, retryAfterMs: 2000 },
          );
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
