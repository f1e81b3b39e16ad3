// Every background job by name, with the payload it carries. A job must be idempotent:
// running it twice changes nothing the second time.
import type { MailMessage } from '../mail/mailer.ts';
import type { SandboxCardEvent, SandboxEvent } from '../modules/payments/sandbox.provider.ts';

export interface JobMap {
  /**
   * Mail a password-reset link to the active account of this address, if there is one. Asking
   * for a reset only queues this, so the answer takes the same work with or without an account.
   */
  'auth.password-reset': { email: string };
  /** Deliver one message. The job id is derived from the message id, so a retry never sends twice. */
  'mail.send': MailMessage;
  /**
   * Hourly: drop rate-limit events older than the longest window, and contact messages and
   * analytics events older than their retention (RETENTION_MONTHS).
   */
  'maintenance.prune': Record<string, never>;
  /** The sandbox provider delivers a signed event to the webhook, retried until it lands. */
  'payments.sandbox-event': { event: SandboxEvent | SandboxCardEvent };
  /**
   * Daily: the owners of kept cards in their expiry month mailed, once per card
   * (modules/payments/payment-methods.service.ts).
   */
  'payments.card-expiry': Record<string, never>;
  /**
   * Hourly: automatic renewals with kept cards and their dunning retries
   * (modules/payments/renewals.ts). Runs the API's payment services: a worker process builds them.
   */
  'billing.renewals': Record<string, never>;
  /** A paid service gets a node (or waits in resourcePending); nothing happens once it has one. */
  'services.place': { serviceId: string };
  /** Every 2 minutes: services still without a node are offered to the nodes again. */
  'services.retry-placement': Record<string, never>;
  /**
   * Every minute: the provider's daily backup for new active services, the due backup runs
   * queued, the owners of failed runs mailed (modules/backups/backups.scheduler.ts).
   */
  'backups.tick': Record<string, never>;
  /**
   * Every minute: the alerts of silent nodes, ending services and failing backups; the alerts'
   * mails and webhook posts owed (modules/monitoring/monitoring.tick.ts).
   */
  'monitoring.tick': Record<string, never>;
  /** Hourly: monitoring's events and rollups past their retention deleted. */
  'monitoring.prune': Record<string, never>;
  /** The time sweep: expiry, quarantine, termination and expiry reminders. */
  'services.sweep': Record<string, never>;
}

export type JobName = keyof JobMap;

/** The jobs that take no payload: the scheduled ones, which anyone may ask to run now. */
export type ScheduledJobName = {
  [Name in JobName]: JobMap[Name] extends Record<string, never> ? Name : never;
}[JobName];
export const JOB_NAMES = [
  'auth.password-reset',
  'backups.tick',
  'billing.renewals',
  'mail.send',
  'maintenance.prune',
  'monitoring.prune',
  'monitoring.tick',
  'payments.card-expiry',
  'payments.sandbox-event',
  'services.place',
  'services.retry-placement',
  'services.sweep',
] as const satisfies readonly JobName[];
