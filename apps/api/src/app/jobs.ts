// The jobs the API process hands to the worker (jobs/job-map.ts names their payloads), one sender
// each, so that a job's idempotency key is spelt in one place.
import type { ScheduledJobName } from '../jobs/job-map.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { MailMessage } from '../mail/mailer.ts';

export function jobSenders(queue: JobQueue, sendMail?: (message: MailMessage) => Promise<void>) {
  return {
    /** How mail leaves the app: a `mail.send` job, unless the caller (a test) takes it instead. */
    sendMail:
      sendMail ??
      (async (message: MailMessage) => {
        await queue.send('mail.send', message, { idempotencyKey: message.id });
      }),
    passwordReset: async (email: string) => {
      await queue.send('auth.password-reset', { email });
    },
    placement: async (serviceId: string) => {
      await queue.send('services.place', { serviceId }, { idempotencyKey: `place-${serviceId}` });
    },
    retryPlacement: async () => {
      await queue.send('services.retry-placement', {});
    },
    renewals: async () => {
      await queue.send('billing.renewals', {});
    },
    runSoon: async (name: ScheduledJobName) => {
      await queue.sendUnlessPending(name, {});
    },
  };
}

export type JobSenders = ReturnType<typeof jobSenders>;
