// The payment provider the configuration names: Stripe, or the built-in sandbox. One choice for
// the API and the operator's CLI (a refund goes back through whichever took the money).
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentProvider } from './provider.ts';
import { createSandboxLedger } from './sandbox-ledger.ts';
import { createSandboxProvider } from './sandbox.provider.ts';
import { createStripeProvider } from './stripe.provider.ts';

export function configuredProvider(
  config: Pick<
    Config,
    | 'PAYMENT_PROVIDER'
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'STRIPE_API_BASE'
    | 'paymentsSandboxSecret'
    | 'publicUrl'
  >,
  db: Db,
): PaymentProvider {
  return config.PAYMENT_PROVIDER === 'stripe'
    ? createStripeProvider({
        secretKey: config.STRIPE_SECRET_KEY ?? '',
        webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
        ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
      })
    : createSandboxProvider({
        secret: config.paymentsSandboxSecret,
        publicUrl: config.publicUrl,
        ledger: createSandboxLedger(db),
      });
}
