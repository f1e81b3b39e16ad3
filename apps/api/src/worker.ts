// The worker role: takes jobs off the queue and runs them. Each later module adds its handlers
// here, so one place lists everything that runs in the background.
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './jobs/queue.ts';
import type { Mailer } from './mail/mailer.ts';

export async function startWorker(deps: { queue: JobQueue; mailer: Mailer; logger: FastifyBaseLogger }) {
  await deps.queue.work('mail.send', async (message) => {
    await deps.mailer.deliver(message);
    deps.logger.info({ mailId: message.id, to: message.to }, 'mail delivered');
  });
}
