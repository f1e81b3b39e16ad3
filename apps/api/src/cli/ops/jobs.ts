// `ops jobs list` and `ops jobs run <name>`: the clock's jobs (jobs/schedules.ts), when each ran
// last, and one run now, through the queue as the schedule would send it.
//
// Why `run` queues rather than calls the handler: a job sent to pg-boss is taken by exactly one
// worker (its fetch skips locked rows), gets the queue's retries and expiry, and shows in `jobs
// list` and the metrics like a scheduled one; a handler called from the CLI would be none of
// that. A running worker picks the job up within its polling second. When none does within
// WORKER_GRACE_MS (the embedded PGlite: `npm start` is stopped for the CLI; a server whose
// workers are down), the CLI becomes that worker for this one queue, with startWorker's own
// handler, and stops once the job is done. pg-boss still hands the job to one of them only.
import pino from 'pino';
import { Cron } from 'croner';
import { serverSecretOf, type Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { loggerOptions } from '../../http/logging.ts';
import type { JobName } from '../../jobs/job-map.ts';
import { JOB_EXPIRE_SECONDS, lastJobs, type JobQueue, type JobState } from '../../jobs/queue.ts';
import { SCHEDULES, scheduledJob } from '../../jobs/schedules.ts';
import { createMailer } from '../../mail/mailer.ts';
import { startWorker } from '../../worker.ts';
import { buildApp, renewalsOf, type App } from '../../app.ts';

/** How long a running worker gets to take the job before the CLI runs it itself. */
export const WORKER_GRACE_MS = 5_000;

export interface JobListing {
  name: string;
  cron: string;
  /** The cron in words, for the patterns the schedules use; null for any other. */
  every: string | null;
  /** Whether pg-boss holds this schedule, i.e. a worker has started since it was added. */
  registered: boolean;
  lastRun: JobState | null;
  nextRun: Date | null;
}

export async function listJobs(database: Database, queue: JobQueue, now: Date): Promise<JobListing[]> {
  const registered = new Set((await queue.registeredSchedules()).map((schedule) => schedule.name));
  const last = await lastJobs(
    database,
    SCHEDULES.map((job) => job.name),
  );
  return SCHEDULES.map((job) => ({
    name: job.name,
    cron: job.cron,
    every: cronInWords(job.cron),
    registered: registered.has(job.name),
    lastRun: last.get(job.name) ?? null,
    nextRun: new Cron(job.cron, { timezone: 'UTC', paused: true }).nextRun(now),
  }));
}

/** The three shapes the schedules use; anything else is shown as its cron only. */
export function cronInWords(cron: string): string | null {
  const [minute, ...rest] = cron.trim().split(/\s+/);
  if (rest.length !== 4 || rest.some((field) => field !== '*')) return null;
  if (minute === '*') return 'every minute';
  const step = /^\*\/(\d+)$/.exec(minute ?? '');
  if (step) return `every ${step[1]} minutes`;
  if (/^\d{1,2}$/.test(minute ?? '')) return `hourly at :${minute!.padStart(2, '0')}`;
  return null;
}

export type RunReport =
  /** One was already waiting or running: nothing was added, that one runs for this ask too. */
  | { kind: 'pending'; name: string; job: JobState }
  /** Queued and taken by a worker or by this process, with how it ended (or where it stands). */
  | { kind: 'ran'; name: string; by: 'worker' | 'here'; job: JobState };

export interface RunDeps {
  queue: JobQueue;
  /** Starts this process's worker for the one queue (workHere below). */
  workHere: (name: JobName) => Promise<void>;
  workerGraceMs: number;
  /** How long to wait for the job's end before answering where it stands. */
  waitMs?: number;
}

const FINISHED = new Set(['completed', 'failed', 'retry', 'cancelled']);

export async function runJob(deps: RunDeps, name: string): Promise<RunReport> {
  const job = scheduledJob(name);
  if (!job) {
    throw new Error(
      `no scheduled job ${name}; the scheduled jobs are: ${SCHEDULES.map((known) => known.name).join(', ')}`,
    );
  }
  const outcome = await deps.queue.sendUnlessPending(job.name, job.payload);
  if (outcome.kind === 'pending') return { kind: 'pending', name: job.name, job: outcome.job };

  const read = async () => {
    const state = await deps.queue.job(job.name, outcome.id);
    if (!state) throw new Error(`job ${outcome.id} of ${job.name} is gone from pg-boss`);
    return state;
  };
  let state = await waitFor(read, (current) => current.state !== 'created', deps.workerGraceMs);
  let by: 'worker' | 'here' = 'worker';
  if (state.state === 'created') {
    by = 'here';
    await deps.workHere(job.name);
  }
  state = await waitFor(
    read,
    (current) => FINISHED.has(current.state),
    deps.waitMs ?? JOB_EXPIRE_SECONDS * 1000,
  );
  return { kind: 'ran', name: job.name, by, job: state };
}

async function waitFor(
  read: () => Promise<JobState>,
  done: (state: JobState) => boolean,
  timeoutMs: number,
): Promise<JobState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await read();
    if (done(state) || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type WorkerDeps = Parameters<typeof startWorker>[0];

/** startWorker's dependencies as `npm start`'s worker role builds them from the configuration. */
export function configuredWorkerDeps(config: Config, database: Database, queue: JobQueue): WorkerDeps {
  // The renewals charge through the API's payment services: an app built for them, not listening.
  let paymentApp: Promise<App> | null = null;
  return {
    renewals: async () => {
      paymentApp ??= buildApp({ config, database, queue, logger: false });
      return renewalsOf(await paymentApp);
    },
    queue,
    database,
    apiUrl: config.API_URL?.replace(/\/+$/, '') ?? `http://127.0.0.1:${config.PORT}`,
    paymentsSandboxSecret: config.paymentsSandboxSecret,
    publicUrl: config.publicUrl,
    serverSecret: serverSecretOf(config),
    embedded: config.embedded,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, mailDir: config.mailDir, from: config.MAIL_FROM }),
    // Its log lines (what a sweep moved, say) go to stderr, the answer to stdout.
    logger: pino(loggerOptions(config.LOG_LEVEL), pino.destination(2)),
  };
}

/**
 * This process as a worker of one queue: startWorker's handler for `name`, nothing else taken,
 * no schedule registered (that stays the real workers' job). Mail the job queues is delivered
 * by a worker later, not here.
 */
export async function workHere(deps: WorkerDeps, name: JobName): Promise<void> {
  const { queue } = deps;
  const only: JobQueue = {
    ...queue,
    async work(jobName, handler) {
      if (jobName === name) await queue.work(jobName, handler, { concurrency: 1 });
    },
    async schedule() {},
  };
  await startWorker({ ...deps, queue: only });
}
