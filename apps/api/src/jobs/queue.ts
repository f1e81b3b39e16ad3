// The durable job queue: pg-boss on the same PostgreSQL (or PGlite) as everything else, so any
// number of API and worker processes share one queue and a job survives a crash.
import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database.ts';
import { JOB_NAMES, type JobMap, type JobName } from './job-map.ts';

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
  stop(): Promise<void>;
}

export interface QueueOptions {
  /** Run maintenance and cron scheduling (the worker role does; a pure API process need not). */
  supervise: boolean;
  pollingIntervalSeconds?: number;
  /** The queue's own failures (maintenance, polling); pg-boss retries them, but someone must hear. */
  onError?: (error: Error) => void;
}

/** How long a job may run before pg-boss takes it for lost and hands it out again. */
export const JOB_EXPIRE_SECONDS = 120;
/**
 * Sooner for the steps of a purchase, which take milliseconds: a paid order whose event or
 * placement was in a worker killed mid-job goes on within a minute, not two and a half.
 */
const QUICK_EXPIRY: Partial<Record<JobName, number>> = {
  'payments.sandbox-event': 30,
  'services.place': 30,
};

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
    maintenanceIntervalSeconds: 30,
  });
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
        ...(QUICK_EXPIRY[name] ? { expireInSeconds: QUICK_EXPIRY[name] } : {}),
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

/** A UUID-shaped id that depends only on the job name and key. */
export function jobIdFromKey(name: string, key: string): string {
  const hex = createHash('sha256').update(`${name}\u0000${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
