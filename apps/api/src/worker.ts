// The worker role: takes jobs off the queue and runs them. A module with background work adds its
// handlers here, so one place lists everything that runs in the background.
import type { ServerSecret } from './crypto/server-keys.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import { SCHEDULES } from './jobs/schedules.ts';
import type { Mailer } from './mail/mailer.ts';
import { createActivityQueries } from './modules/activity/activity.queries.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { createAuthLinks } from './modules/auth/auth.links.ts';
import { createAuthQueries } from './modules/auth/auth.queries.ts';
import { createBackupScheduler } from './modules/backups/backups.scheduler.ts';
import { createAnalyticsQueries } from './modules/analytics/analytics.queries.ts';
import { createContactQueries } from './modules/contact/contact.queries.ts';
import { createMonitoringTick } from './modules/monitoring/monitoring.tick.ts';
import { createWebhooks } from './modules/monitoring/webhooks.ts';
import { createRetention } from './modules/maintenance/retention.ts';
import { createShareLinksQueries } from './modules/share-links/share-links.queries.ts';
import { nodeWakeups } from './modules/nodes/node-waker.ts';
import { createRateLimitQueries } from './modules/rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from './modules/rate-limits/rate-limits.service.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from './modules/payments/sandbox-signature.ts';
import { createCardExpiryMailer } from './modules/payments/card-expiry.ts';
import type { Renewals } from './modules/payments/renewals.ts';
import { createServicesBackground } from './modules/services/services.background.ts';
import { servicesInTransaction } from './modules/services/services.in-transaction.ts';
import { createServicesQueries } from './modules/services/services.queries.ts';
import { createPlanChangeApplication } from './modules/plan-changes/plan-changes.apply.ts';
import { creditsInTransaction } from './modules/credits/credits.service.ts';
import { createUsersQueries } from './modules/users/users.queries.ts';
import { startReplicaLoop } from './modules/replicas/replicas.loop.ts';
import { createReplicas } from './modules/replicas/replicas.service.ts';

export async function startWorker(deps: {
  queue: JobQueue;
  mailer: Mailer;
  database: Database;
  logger: FastifyBaseLogger;
  /** Where the sandbox provider delivers its events: this product's API. */
  apiUrl: string;
  paymentsSandboxSecret: string;
  /** Base of the links in mails (PUBLIC_URL). */
  publicUrl: string;
  /** The server's secrets (JWT_SECRET and JWT_SECRET_PREVIOUS), from which the webhooks' sealing keys are derived. */
  serverSecret: ServerSecret;
  /** The embedded development mode: webhooks may post to local receivers. */
  embedded: boolean;
  /**
   * Run the replica loop (standbys, failover, moves) every this many ms; absent: not here (a
   * CLI working one queue, a test of the queue's handlers).
   */
  replicaLoopMs?: number;
  /** How long a node is silent before the replica loop fails it over (NODE_FAILOVER_AFTER_MS unset). */
  failoverAfterMs?: number;
  /**
   * The automatic renewals (`billing.renewals`): they charge through the API's payment services,
   * which this gives (main.ts builds an app for them; absent, the job fails and is retried).
   */
  renewals?: () => Promise<Pick<Renewals, 'run'>>;
}): Promise<{ stop(): Promise<void> }> {
  const wakeNode = nodeWakeups(deps.database, deps.logger);
  // The provider's events of many payments at once (a busy hour): each is an HTTP round trip to
  // an API process, so four at a time; the API applies each once, in whatever order they come.
  await deps.queue.work(
    'payments.sandbox-event',
    async ({ event }) => {
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
    },
    { concurrency: 4 },
  );
  const limiter = createRateLimiter({ queries: createRateLimitQueries(deps.database.db) });
  const retention = createRetention({
    contact: createContactQueries(deps.database.db),
    analytics: createAnalyticsQueries(deps.database.db),
    shareLinks: createShareLinksQueries(deps.database.db),
    now: () => new Date(),
  });
  await deps.queue.work('maintenance.prune', async () => {
    await limiter.prune();
    const pruned = await retention.prune();
    if (pruned.contactMessages + pruned.analyticsEvents + pruned.shareLinkAccessLogs > 0) {
      deps.logger.info(pruned, 'retention: deleted what outlived its time');
    }
  });

  // The service lifecycle: placement, its 2-minute retry and the time sweep.
  const services = createServicesBackground({
    db: deps.database.db,
    users: createUsersQueries(deps.database.db),
    activity: createActivityService({ queries: createActivityQueries(deps.database.db) }),
    sendMail: async (message) => {
      await deps.queue.send('mail.send', message, { idempotencyKey: message.id });
    },
    publicUrl: deps.publicUrl,
    wakeNode,
    now: () => new Date(),
  });
  await deps.queue.work('services.place', async ({ serviceId }) => {
    await services.placement.place(serviceId);
  });
  const planChanges = createPlanChangeApplication({
    db: deps.database.db,
    services: servicesInTransaction,
    credits: creditsInTransaction,
    activity: createActivityService({ queries: createActivityQueries(deps.database.db) }),
  });
  await deps.queue.work('services.retry-placement', async () => {
    // Paid plan changes waiting for room on their nodes first: room a node freed is theirs.
    const grown = await planChanges.waitedRoom(new Date());
    for (const change of grown) {
      const nodeId = (await createServicesQueries(deps.database.db).findById(change.serviceId))?.nodeId;
      if (nodeId) wakeNode(nodeId);
    }
    if (grown.length > 0) deps.logger.info({ applied: grown.length }, 'plan changes got room');
    const result = await services.placement.retryUnplaced();
    if (result.placed + result.pending > 0) deps.logger.info(result, 'placement retried');
  });
  await deps.queue.work('services.sweep', async () => {
    const result = await services.sweep.run();
    if (result.expired + result.quarantined + result.terminated + result.reminded > 0) {
      deps.logger.info(result, 'lifecycle sweep moved services');
    }
  });

  const backups = createBackupScheduler({
    db: deps.database.db,
    users: createUsersQueries(deps.database.db),
    sendMail: async (message) => {
      await deps.queue.send('mail.send', message, { idempotencyKey: message.id });
    },
    publicUrl: deps.publicUrl,
    wakeNode,
    now: () => new Date(),
  });
  await deps.queue.work('backups.tick', async () => {
    const result = await backups.tick();
    if (result.provided + result.queued + result.mailed > 0) deps.logger.info(result, 'backups scheduled');
  });

  const monitoring = createMonitoringTick({
    db: deps.database.db,
    users: createUsersQueries(deps.database.db),
    sendMail: async (message) => {
      await deps.queue.send('mail.send', message, { idempotencyKey: message.id });
    },
    webhooks: createWebhooks({
      db: deps.database.db,
      serverSecret: deps.serverSecret,
      allowPrivateTargets: deps.embedded,
      now: () => new Date(),
    }).sender,
    publicUrl: deps.publicUrl,
    now: () => new Date(),
  });
  await deps.queue.work('monitoring.tick', async () => {
    const result = await monitoring.tick();
    if (result.owed > 0) deps.logger.info(result, 'monitoring alerts mailed and posted');
  });
  await deps.queue.work('monitoring.prune', async () => {
    const deleted = await monitoring.prune();
    if (deleted > 0) deps.logger.info({ deleted }, 'monitoring: events past their retention deleted');
  });

  // Kept cards in their expiry month: their owners mailed, once per card.
  const cardExpiry = createCardExpiryMailer({
    db: deps.database.db,
    users: createUsersQueries(deps.database.db),
    sendMail: async (message) => {
      await deps.queue.send('mail.send', message, { idempotencyKey: message.id });
    },
    publicUrl: deps.publicUrl,
    now: () => new Date(),
  });
  await deps.queue.work('payments.card-expiry', async () => {
    const result = await cardExpiry.run();
    if (result.mailed > 0) deps.logger.info(result, 'owners of expiring kept cards mailed');
  });

  // Automatic renewals and their dunning retries (modules/payments/renewals.ts).
  await deps.queue.work('billing.renewals', async () => {
    if (!deps.renewals)
      throw new Error('billing.renewals: this worker was started without the payment services');
    const result = await (await deps.renewals()).run();
    if (result.started + result.paid + result.failed > 0) deps.logger.info(result, 'renewals run');
  });

  const authLinks = createAuthLinks({
    users: createUsersQueries(deps.database.db),
    queries: createAuthQueries(deps.database.db),
    sendMail: async (message) => {
      await deps.queue.send('mail.send', message, { idempotencyKey: message.id });
    },
    publicUrl: deps.publicUrl,
  });
  await deps.queue.work('auth.password-reset', async ({ email }) => {
    await authLinks.mailPasswordReset(email);
  });

  await deps.queue.work('mail.send', async (message) => {
    await deps.mailer.deliver(message);
    deps.logger.info({ mailId: message.id, to: message.to }, 'mail delivered');
  });

  // The clock's jobs, once every handler above is in place (jobs/schedules.ts lists them).
  for (const scheduled of SCHEDULES) {
    await deps.queue.schedule(scheduled.name, scheduled.cron, scheduled.payload);
  }

  const replicaLoop =
    deps.replicaLoopMs === undefined
      ? undefined
      : startReplicaLoop(
          createReplicas({
            db: deps.database.db,
            activity: createActivityService({ queries: createActivityQueries(deps.database.db) }),
            wakeNode,
            now: () => new Date(),
            ...(deps.failoverAfterMs === undefined ? {} : { failoverAfterMs: deps.failoverAfterMs }),
          }),
          deps.logger,
          deps.replicaLoopMs,
        );
  return {
    async stop() {
      await replicaLoop?.stop();
    },
  };
}
