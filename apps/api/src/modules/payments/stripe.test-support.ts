// What the app-level Stripe tests share: the whole app with Stripe as its payment provider,
// pointed at the fake Stripe API the test file serves (each file answers the paths it needs),
// with the catalogue on sale.
import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.ts';
import { seedCatalogue } from '../../test/payments.ts';

/** A fake Stripe API listening on a local port. */
export interface FakeStripeApi {
  url: string;
  server: Server;
}

/**
 * Starts `fakeApi` and the app on it before the describe block's tests and closes both after;
 * `ctx` and `api` are there once its tests run.
 */
export function useStripeApp<Api extends FakeStripeApi>(
  fakeApi: () => Promise<Api>,
  webhookSecret: string,
): { ctx: TestContext; api: Api } {
  const stripe = {} as { ctx: TestContext; api: Api };
  beforeAll(async () => {
    stripe.api = await fakeApi();
    stripe.ctx = await createTestContext({
      env: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x0123456789',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: stripe.api.url,
      },
    });
    await seedCatalogue(stripe.ctx);
  });
  afterAll(async () => {
    await stripe.ctx.close();
    stripe.api.server.close();
  });
  return stripe;
}
