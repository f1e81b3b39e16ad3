// `ops jobs list` and `ops jobs run`: the schedules with their last run, one run at once and
// only once, an unknown name refused. Tests run in any order: each runs a job of its own. The jobs run startWorker's own handlers on this database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueue, type JobQueue } from '../../jobs/queue.ts';
import { SCHEDULES } from '../../jobs/schedules.ts';
import { openTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { cronInWords, listJobs, runJob, workHere, type RunDeps, type WorkerDeps } from './jobs.ts';
import { renderJobRun, renderJobs } from './render.ts';
import { testWorkerDeps } from '../../test/worker.ts';

describe('ops jobs', () => {
  let database: TestDatabase;
  let queue: JobQueue;
  let mailDir: string;
  let workerDeps: WorkerDeps;
  const worked: string[] = [];

  beforeAll(async () => {
    mailDir = mkdtempSync(path.join(tmpdir(), 'debesis-ops-jobs-'));
    database = await openTestDatabase();
    queue = await startQueue(database, { supervise: false, pollingIntervalSeconds: 0.5 });
    workerDeps = testWorkerDeps(queue, database, mailDir, 'ops-jobs-test-secret-0123456789abcdef');
  });
  afterAll(async () => {
    await queue.stop();
    await database.destroy();
    rmSync(mailDir, { recursive: true, force: true });
  });

  /** As the CLI on the embedded database: no worker to wait for, this process runs the job. */
  const here: () => RunDeps = () => ({
    queue,
    workHere: async (name) => {
      worked.push(name);
      await workHere(workerDeps, name);
    },
    workerGraceMs: 0,
  });

  async function jobsOf(name: string): Promise<number> {
    const { rows } = await database.executeSql('select count(*)::int as n from pgboss.job where name = $1', [
      name,
    ]);
    return Number(rows[0]?.n);
  }

  it('lists every schedule, with its last run once one has run', async () => {
    const now = new Date('2026-12-06T10:05:30Z');
    const before = await listJobs(database, queue, now);
    expect(before.map((job) => job.name)).toEqual(SCHEDULES.map((job) => job.name));
    // Not run by any test here (they run in any order).
    expect(before.find((job) => job.name === 'services.retry-placement')).toMatchObject({
      cron: '*/2 * * * *',
      every: 'every 2 minutes',
      registered: false,
      lastRun: null,
      nextRun: new Date('2026-12-06T10:06:00Z'),
    });

    const report = await runJob(here(), 'maintenance.prune');
    expect(report).toMatchObject({ kind: 'ran', by: 'here', job: { state: 'completed' } });
    expect(renderJobRun(report)).toMatch(/^maintenance\.prune: ran in this process .* completed/);

    await queue.schedule('maintenance.prune', '17 * * * *', {});
    const after = await listJobs(database, queue, new Date());
    const prune = after.find((job) => job.name === 'maintenance.prune')!;
    expect(prune).toMatchObject({ registered: true, lastRun: { id: report.job.id, state: 'completed' } });
    expect(prune.lastRun!.startedOn!.getTime()).toBeLessThanOrEqual(prune.lastRun!.completedOn!.getTime());
    expect(renderJobs(after)).toMatch(
      /maintenance\.prune\s+17 \* \* \* \*\s+hourly at :17\s+yes\s+completed/,
    );
    expect(renderJobs(after)).toMatch(/monitoring\.tick\s+\* \* \* \* \*\s+every minute\s+no\s+never/);
  });

  it('refuses an unknown name, naming the jobs there are', async () => {
    await expect(runJob(here(), 'mail.send')).rejects.toThrow(
      /no scheduled job mail\.send; the scheduled jobs are: maintenance\.prune, .*services\.sweep/,
    );
    expect(await jobsOf('mail.send')).toBe(0);
  });

  it('starts one job when run twice at once; the other is told it is pending', async () => {
    worked.length = 0;
    const reports = await Promise.all([runJob(here(), 'services.sweep'), runJob(here(), 'services.sweep')]);

    expect(reports.map((report) => report.kind).sort()).toEqual(['pending', 'ran']);
    const ran = reports.find((report) => report.kind === 'ran')!;
    const pending = reports.find((report) => report.kind === 'pending')!;
    expect(pending.job.id).toBe(ran.job.id);
    expect(ran.job.state).toBe('completed');
    expect(renderJobRun(pending)).toContain('not started again');
    expect(await jobsOf('services.sweep')).toBe(1);
    expect(worked).toEqual(['services.sweep']);
  });

  it('leaves the job to a running worker when one takes it', async () => {
    await workHere(workerDeps, 'monitoring.prune');
    const report = await runJob(
      {
        queue,
        workHere: () => Promise.reject(new Error('a worker was running: not to be run here')),
        workerGraceMs: 10_000,
      },
      'monitoring.prune',
    );
    expect(report).toMatchObject({ kind: 'ran', by: 'worker', job: { state: 'completed' } });
  });

  it('says the schedules in words where they are simple', () => {
    expect(cronInWords('* * * * *')).toBe('every minute');
    expect(cronInWords('*/2 * * * *')).toBe('every 2 minutes');
    expect(cronInWords('7 * * * *')).toBe('hourly at :07');
    expect(cronInWords('0 3 * * *')).toBeNull();
  });
});
