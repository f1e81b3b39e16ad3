// The worker role: takes jobs off the queue and runs them. Each later module adds its handlers
// here, so one place lists everything that runs in the background.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Mailer } from './mail/mailer.ts';
import { createRateLimitQueries } from './modules/rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from './modules/rate-limits/rate-limits.service.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from './modules/payments/sandbox-signature.ts';

export async function startWorker(deps: {
  queue: JobQueue;
  mailer: Mailer;
  database: Database;
  logger: FastifyBaseLogger;
  /** Where the sandbox provider delivers its events: this product's API. */
  apiUrl: string;
  paymentsSandboxSecret: string;
}) {
  await deps.queue.work('payments.sandbox-event', async ({ event }) => {
    const body = JSON.stringify(event);
    const response = await fetch(`${deps.apiUrl}/api/v1/payments/events/sandbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxEvent(
          deps.paymentsSandboxSecret,
          body,
          Math.floor(Date.now() / 1000),
        ),
      },
      body,
    });
    // Anything but success makes the queue try again later, as a provider retries webhooks.
    if (!response.ok) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
  });
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
