// The job queue's variables of the API's configuration: how soon a job lost with a killed process
// is handed out again (queue.ts). `config.ts` spreads `queueEnvironmentShape` into its schema. The
// defaults are production's; a test that kills workers on purpose shortens them, so it waits for
// what it checks (the job run again, once) and not for the clock.
import { z } from 'zod';

/** How long a job may run before pg-boss takes it for lost and hands it out again. */
export const JOB_EXPIRE_SECONDS = 120;
/** The same for the steps of a purchase (queue.ts QUICK_EXPIRY_JOBS). */
export const QUICK_EXPIRE_SECONDS = 30;
/** How often lost jobs are looked for: with QUICK_EXPIRE_SECONDS, a lost purchase step waits at most a minute. */
export const MAINTENANCE_INTERVAL_SECONDS = 30;

export const queueEnvironmentShape = {
  JOB_QUICK_EXPIRE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(JOB_EXPIRE_SECONDS)
    .default(QUICK_EXPIRE_SECONDS)
    .describe(
      "How long a purchase's step (the payment event's delivery, the placement) may run before it " +
        'counts as lost with a killed process and is handed out again, in seconds (other jobs: ' +
        `${JOB_EXPIRE_SECONDS} s). Each takes milliseconds; set by a process that sends them (an API).`,
    ),
  JOB_MAINTENANCE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .default(MAINTENANCE_INTERVAL_SECONDS)
    .describe(
      'How often the worker looks for jobs that ran past their expiry (their process was killed) and ' +
        'hands them out again, in seconds.',
    ),
};
