// Stripe, the production provider, through its official SDK: a Checkout Session per payment
// session (our id travels as client_reference_id and metadata), webhooks verified with Stripe's
// signature before they are read, Checkout Sessions expired when their order may no longer be
// paid, and refunds of a payment an order did not need.
import Stripe from 'stripe';
import { AppError } from '../../http/app-error.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host, for a local stand-in in tests (`http://127.0.0.1:PORT`). */
  apiBase?: string;
}

type CheckoutSession = Stripe.Checkout.Session;

function ourSessionId(session: CheckoutSession): string | null {
  return session.client_reference_id ?? session.metadata?.session_id ?? null;
}

/** Stripe's event, as one of ours; null for event types that do not concern a payment session. */
export function toProviderEvent(event: Stripe.Event): ProviderEvent | null {
  const payload = event as unknown as Record<string, unknown>;
  const fromSession = (
    session: CheckoutSession,
    type: ProviderEvent['type'],
    error?: ProviderEvent['error'],
  ) => {
    const sessionId = ourSessionId(session);
    if (!sessionId) return null;
    const intent = session.payment_intent;
    return {
      id: event.id,
      type,
      sessionId,
      payload,
      ...(error ? { error } : {}),
      // Matched against what we asked before the event counts (payments.service.ts).
      charge: {
        providerSessionId: typeof session.id === 'string' ? session.id : null,
        amountMinor: typeof session.amount_total === 'number' ? session.amount_total : null,
        currency: typeof session.currency === 'string' ? session.currency.toUpperCase() : null,
      },
      paymentReference: typeof intent === 'string' ? intent : (intent?.id ?? null),
    };
  };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      // Card payments are paid at completion; bank debits complete first and settle later.
      const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
      return fromSession(session, paid ? 'payment.succeeded' : 'payment.pending');
    }
    case 'checkout.session.async_payment_succeeded':
      return fromSession(event.data.object, 'payment.succeeded');
    case 'checkout.session.async_payment_failed':
      return fromSession(event.data.object, 'payment.failed', {
        code: 'payment_failed',
        message: 'The payment failed.',
      });
    case 'checkout.session.expired':
      return fromSession(event.data.object, 'payment.failed', {
        code: 'session_expired',
        message: 'The payment page expired before the payment was made.',
      });
    default:
      return null;
  }
}

export function createStripeProvider(options: StripeOptions): PaymentProvider & {
  parseEvent(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderEvent | null;
} {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port,
          protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });
  return {
    id: 'stripe',
    async createSession(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.sessionId,
          metadata: { session_id: input.sessionId },
          payment_intent_data: { metadata: { session_id: input.sessionId } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amountMinor,
                product_data: { name: input.description },
              },
            },
          ],
          success_url: input.returnUrl,
          cancel_url: input.returnUrl,
        },
        // A retried request must not open a second Checkout Session for the same attempt.
        { idempotencyKey: input.sessionId },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { url: session.url, providerSessionId: session.id };
    },
    async expireSession(providerSessionId) {
      await stripe.checkout.sessions.expire(providerSessionId);
    },
    async refund(input) {
      const refund = await stripe.refunds.create(
        { payment_intent: input.paymentReference, amount: input.amountMinor },
        { idempotencyKey: input.idempotencyKey },
      );
      return { reference: refund.id };
    },
    parseEvent(rawBody, headers) {
      const signature = headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          typeof signature === 'string' ? signature : '',
          options.webhookSecret,
        );
      } catch {
        throw new AppError('payment_signature_invalid');
      }
      return toProviderEvent(event);
    },
  };
}
