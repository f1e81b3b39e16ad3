// The worker role: takes jobs off the queue and runs them. Each later module adds its handlers
// here, so one place lists everything that runs in the background.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Mailer } from './mail/mailer.ts';
import { createRateLimitQueries } from './modules/rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from './modules/rate-limits/rate-limits.service.ts';

export async function startWorker(deps: {
  queue: JobQueue;
  mailer: Mailer;
  database: Database;
  logger: FastifyBaseLogger;
}) {
  const limiter = createRateLimiter({ queries: createRateLimitQueries(deps.database.db) });
  await deps.queue.work('maintenance.prune', async () => {
    await limiter.prune();
  });
  await deps.queue.schedule('maintenance.prune', '17 * * * *', {});

  await deps.queue.work('mail.send', async (message) => {
    await deps.mailer.deliver(message);
    deps.logger.info({ mailId: message.id, to: message.to }, 'mail delivered');
  });
}
