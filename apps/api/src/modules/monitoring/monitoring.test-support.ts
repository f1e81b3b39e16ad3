// The monitoring tick as the worker composes it, on a test's app: mail goes into `mails`, webhooks
// answer as delivered unless a test gives its own sender, time is the app's clock.
import type { MailMessage } from '../../mail/mailer.ts';
import type { TestContext } from '../../test/test-app.ts';
import { createUsersQueries } from '../users/users.queries.ts';
import { createMonitoringTick } from './monitoring.tick.ts';
import type { WebhookSender } from './webhooks.ts';

export function testMonitoringTick(
  ctx: TestContext,
  {
    mails = [],
    webhooks = { post: async () => true },
  }: { mails?: MailMessage[]; webhooks?: WebhookSender } = {},
) {
  return createMonitoringTick({
    db: ctx.database.db,
    users: createUsersQueries(ctx.database.db),
    sendMail: async (message) => void mails.push(message),
    webhooks,
    publicUrl: 'http://localhost:8080',
    now: () => ctx.now(),
  });
}
