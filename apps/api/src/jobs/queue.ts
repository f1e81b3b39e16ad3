// The durable job queue: pg-boss on the same PostgreSQL (or PGlite) as everything else, so any
// number of API and worker processes share one queue and a job survives a crash.
import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';
import { JOB_NAMES, type JobMap, type JobName } from './job-map.ts';
import { JOB_EXPIRE_SECONDS, MAINTENANCE_INTERVAL_SECONDS, QUICK_EXPIRE_SECONDS } from './queue.config.ts';

export interface SendOptions {
  /**
   * Makes sending idempotent: the job id is derived from the job name and this key, so a second
   * send with the same key (a retried request, a replayed payment event) adds nothing.
   */
  idempotencyKey?: string;
  startAfter?: Date | number;
  retryLimit?: number;
}

export type JobHandler<N extends JobName> = (
  payload: JobMap[N],
  job: { id: string; name: N },
) => Promise<void>;

export interface JobQueue {
  send<N extends JobName>(name: N, payload: JobMap[N], options?: SendOptions): Promise<string | null>;
  /** Runs `handler` for each job of the queue, `concurrency` at a time in this process (default 1). */
  work<N extends JobName>(name: N, handler: JobHandler<N>, options?: { concurrency?: number }): Promise<void>;
  /** Runs the job on a cron schedule (UTC); one schedule per name, shared by all workers. */
  schedule<N extends JobName>(name: N, cron: string, payload: JobMap[N]): Promise<void>;
  /** Jobs waiting or running, for the health report. */
  pending(): Promise<number>;
  /** The schedules pg-boss holds (a worker registered them at its start), by job name. */
  registeredSchedules(): Promise<Array<{ name: string; cron: string; timezone: string }>>;
  /**
   * Queues one job now unless one of that name is already waiting, retrying or running, or
   * was queued after this ask was made, in which case that one is answered and nothing is added
   * (the operator's "run it now": see sendUnlessPending).
   */
  sendUnlessPending<N extends JobName>(name: N, payload: JobMap[N]): Promise<RunNowOutcome>;
  /** One job's state and times, or null once pg-boss has archived or deleted it. */
  job(name: JobName, id: string): Promise<JobState | null>;
  stop(): Promise<void>;
}

export interface JobState {
  id: string;
  state: string;
  createdOn: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  /** What the handler threw (pg-boss keeps it as the job's output), for failed and retried jobs. */
  output: unknown;
}

export type RunNowOutcome = { kind: 'queued'; id: string } | { kind: 'pending'; job: JobState };

export interface QueueOptions {
  /** Run maintenance and cron scheduling (the worker role does; a pure API process need not). */
  supervise: boolean;
  pollingIntervalSeconds?: number;
  /** How long a purchase's step may run before it counts as lost (QUICK_EXPIRY_JOBS); 30 s unset. */
  quickExpireSeconds?: number;
  /** How often the supervising process hands out again the jobs that ran past their expiry; 30 s unset. */
  maintenanceIntervalSeconds?: number;
  /** The queue's own failures (maintenance, polling); pg-boss retries them, but someone must hear. */
  onError?: (error: Error) => void;
}

export { JOB_EXPIRE_SECONDS };
/**
 * Sooner for the steps of a purchase, which take milliseconds: a paid order whose event or
 * placement was in a worker killed mid-job goes on within a minute, not two and a half.
 */
const QUICK_EXPIRY_JOBS: ReadonlySet<JobName> = new Set(['payments.sandbox-event', 'services.place']);

export async function startQueue(database: Database, options: QueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, values as unknown[]) },
    supervise: options.supervise,
    schedule: options.supervise,
    migrate: true,
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    // A worker killed mid-job (kill -9, a lost host) leaves its job `active`: pg-boss hands it
    // out again once it expires, found by the maintenance pass. pg-boss's defaults (15 minutes,
    // looked for every 2) would hold a paid order's delivery that long; no job here runs longer
    // than a few seconds, and each is idempotent, so a slow one run twice changes nothing.
    expireInSeconds: JOB_EXPIRE_SECONDS,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? MAINTENANCE_INTERVAL_SECONDS,
  });
  const quickExpireSeconds = options.quickExpireSeconds ?? QUICK_EXPIRE_SECONDS;
  boss.on('error', (error: Error) => options.onError?.(error));
  // Processes starting at once on one server take turns: pg-boss's schema install and
  // create_queue deadlocked each other when two APIs and a worker started together.
  await database.exclusively(async () => {
    await boss.start();
    for (const name of JOB_NAMES) await boss.createQueue(name);
  });
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 1;

  return {
    async send(name, payload, sendOptions = {}) {
      return boss.send(name, payload as object, {
        ...(QUICK_EXPIRY_JOBS.has(name) ? { expireInSeconds: quickExpireSeconds } : {}),
        ...(sendOptions.idempotencyKey ? { id: jobIdFromKey(name, sendOptions.idempotencyKey) } : {}),
        ...(sendOptions.startAfter !== undefined ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.retryLimit !== undefined ? { retryLimit: sendOptions.retryLimit } : {}),
      });
    },
    async work(name, handler, workOptions = {}) {
      // Each pg-boss worker fetches one job at a time; several are several at once.
      for (let index = 0; index < (workOptions.concurrency ?? 1); index += 1) {
        let workerId = '';
        workerId = await boss.work<JobMap[typeof name]>(
          name,
          { pollingIntervalSeconds, batchSize: 1 },
          async (jobs) => {
            for (const job of jobs) await handler(job.data, { id: job.id, name });
            // pg-boss waits its polling interval after every fetch, even one that found work: a
            // busy queue then ran one job a second (40 purchases took 43 s to pay, mostly
            // waiting). Asking at once after a job drains it at the handlers' pace; an empty
            // fetch still waits.
            if (jobs.length > 0) boss.notifyWorker(workerId);
          },
        );
      }
    },
    async schedule(name, cron, payload) {
      await boss.schedule(name, cron, payload, { tz: 'UTC' });
    },
    async pending() {
      let total = 0;
      for (const name of JOB_NAMES) total += await boss.getQueueSize(name);
      return total;
    },
    async registeredSchedules() {
      const rows = (await boss.getSchedules()) as Array<{ name: string; cron: string; timezone: string }>;
      return rows.map(({ name, cron, timezone }) => ({ name, cron, timezone }));
    },
    async sendUnlessPending(name, payload) {
      // "Exactly once": the look and the send are one step for every process on the database
      // (exactly() holds the database's advisory lock on a server) and for every caller in
      // this process (the chain: PGlite's exclusively() is no lock at all). A job the cron sent,
      // or another operator's, counts as pending too: the handler runs once for both asks.
      // pg-boss's own singleton policies were not used: they are per queue (changing the
      // workers' queues) and a singletonKey on a standard queue only throttles by time slot.
      // Two asks at once join one run even when it ends before the second gets the lock (a
      // sweep of an empty database takes 40 ms): a job queued after an ask answers it too,
      // by the database's clock, which every process shares.
      const askedAt = database
        .executeSql('select now()::text as now')
        .then(({ rows }) => String(rows[0]!.now));
      const run = runNowChain.then(() =>
        database.exclusively(async () => {
          const pending = await pendingJob(database, name, await askedAt);
          if (pending) return { kind: 'pending' as const, job: pending };
          const id = await boss.send(name, payload as object, {});
          if (!id) throw new Error(`pg-boss did not queue ${name}`);
          return { kind: 'queued' as const, id };
        }),
      );
      runNowChain = run.catch(() => undefined);
      return run;
    },
    async job(name, id) {
      const job = await boss.getJobById(name, id);
      if (!job) return null;
      return {
        id: job.id,
        state: job.state,
        createdOn: job.createdOn,
        startedOn: job.startedOn ?? null,
        completedOn: job.completedOn ?? null,
        output: job.output ?? null,
      };
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}

/** The pg-boss schema: startQueue keeps pg-boss's default. */
const PG_BOSS_SCHEMA = 'pgboss';

/** Jobs per queue and state, from pg-boss's own table (operators' metrics). */
export async function jobCounts(
  database: Database,
): Promise<Array<{ queue: string; state: string; count: number }>> {
  const { rows } = await database.executeSql(
    `select name, state::text as state, count(*)::int as count from ${PG_BOSS_SCHEMA}.job group by name, state`,
    [],
  );
  return rows.map((row) => ({ queue: String(row.name), state: String(row.state), count: Number(row.count) }));
}

/** sendUnlessPending's callers in this process, one after the other. */
let runNowChain: Promise<unknown> = Promise.resolve();

const PENDING_STATES = ['created', 'retry', 'active'];

function jobState(row: Record<string, unknown>): JobState {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    id: String(row.id),
    state: String(row.state),
    createdOn: date(row.created_on)!,
    startedOn: date(row.started_on),
    completedOn: date(row.completed_on),
    output: row.output ?? null,
  };
}

/**
 * The oldest job of the queue still waiting, retrying or running, or queued since `since` in
 * whatever state. Raw SQL because pg-boss's API only counts them (getQueueSize), and the
 * operator is told which job and since when.
 */
async function pendingJob(database: Database, name: string, since: string): Promise<JobState | null> {
  const { rows } = await database.executeSql(
    `select id, state::text as state, created_on, started_on, completed_on, output
       from ${PG_BOSS_SCHEMA}.job
      where name = $1 and (state::text = any($2::text[]) or created_on >= $3::timestamptz)
      order by created_on limit 1`,
    [name, PENDING_STATES, since],
  );
  return rows[0] ? jobState(rows[0]) : null;
}

/**
 * The latest job of each queue named, in pg-boss's table or its archive (completed jobs move
 * there after 12 hours). Raw SQL: pg-boss's API finds a job only by its id.
 */
export async function lastJobs(database: Database, names: readonly string[]): Promise<Map<string, JobState>> {
  const { rows } = await database.executeSql(
    `select distinct on (name) name, id, state::text as state, created_on, started_on, completed_on, output
       from (select name, id, state, created_on, started_on, completed_on, output
               from ${PG_BOSS_SCHEMA}.job where name = any($1::text[])
             union all
             select name, id, state, created_on, started_on, completed_on, output
               from ${PG_BOSS_SCHEMA}.archive where name = any($1::text[])) as jobs
      order by name, created_on desc`,
    [names],
  );
  return new Map(rows.map((row) => [String(row.name), jobState(row)]));
}

/** A UUID-shaped id that depends only on the job name and key. */
export function jobIdFromKey(name: string, key: string): string {
  const hex = createHash('sha256').update(`${name}\u0000${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
