// The worker as the tests start it: on the test's queue and database, mailing into a folder of the
// test's own, calling no API (the sandbox provider's events have nowhere to go) and logging nothing.
import pino from 'pino';
import type { JobQueue } from '../jobs/queue.ts';
import { createMailer } from '../mail/mailer.ts';
import type { Database } from '../db/database.ts';
import type { startWorker } from '../worker.ts';

export function testWorkerDeps(
  queue: JobQueue,
  database: Database,
  mailDir: string,
  serverSecret = 'worker-test-secret-0123456789abcdef',
): Parameters<typeof startWorker>[0] {
  return {
    queue,
    database,
    apiUrl: 'http://127.0.0.1:9',
    paymentsSandboxSecret: 'unused-in-this-test-0123456789',
    publicUrl: 'http://localhost:8080',
    serverSecret,
    embedded: true,
    mailer: createMailer({ mailDir, from: 'test@debesis.localhost' }),
    logger: pino({ level: 'silent' }),
  };
}
