// Stripe, the production provider, through its official SDK: a Checkout Session per payment
// session (our id travels as client_reference_id and metadata), webhooks verified with Stripe's
// signature before they are read, Checkout Sessions expired when their order may no longer be
// paid, and refunds of a payment an order did not need.
//
// Kept cards: a Customer per account (metadata.account_id); a payment whose card is kept carries
// that customer and `payment_intent_data.setup_future_usage=off_session`; Billing's card form is a
// Checkout Session in setup mode for the customer. Either way Stripe attaches the card to the
// customer and says so with `payment_method.attached`, whose PaymentMethod we map: id → method
// reference, customer → customer reference, card.brand / card.last4 / card.exp_month /
// card.exp_year → what Billing shows, event.created → when it was kept. A renewal charges it with
// an off-session PaymentIntent (confirm=true) under the caller's idempotency key.
import Stripe from 'stripe';
import { AppError } from '../../http/app-error.ts';
import type {
  PaymentProvider,
  ProviderCardDetachedEvent,
  ProviderCardEvent,
  ProviderChargeEvent,
  ProviderEvent,
  SavedCardCharge,
} from './provider.ts';

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

/** A card Stripe attached to one of our customers, as a kept card; null for other kinds of method. */
function toCardEvent(event: Stripe.Event, method: Stripe.PaymentMethod): ProviderCardEvent | null {
  const customer = typeof method.customer === 'string' ? method.customer : (method.customer?.id ?? null);
  const card = method.card;
  if (!customer || !card || typeof method.id !== 'string') return null;
  return {
    id: event.id,
    type: 'method.attached',
    card: {
      customerRef: customer,
      methodRef: method.id,
      brand: card.brand || 'unknown',
      last4: card.last4,
      expMonth: card.exp_month,
      expYear: card.exp_year,
    },
    attachedAt: new Date((typeof event.created === 'number' ? event.created : 0) * 1000),
    payload: event as unknown as Record<string, unknown>,
  };
}

/** An off-session PaymentIntent as our charge result. */
function chargeOf(intent: Stripe.PaymentIntent): SavedCardCharge {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', reference: intent.id };
    case 'processing':
      return { status: 'pending', reference: intent.id };
    case 'requires_action':
    case 'requires_confirmation':
      return {
        status: 'requires_action',
        reason: { code: 'authentication_required', message: 'The bank asks the customer to authenticate.' },
        reference: intent.id,
      };
    default:
      return {
        status: 'declined',
        reason: {
          code: intent.last_payment_error?.decline_code || intent.last_payment_error?.code || 'card_declined',
          message: intent.last_payment_error?.message ?? 'The card was declined.',
        },
        reference: intent.id,
      };
  }
}

/** Stripe's event, as one of ours; null for event types that do not concern a payment session. */
export function toProviderEvent(
  event: Stripe.Event,
): ProviderEvent | ProviderCardEvent | ProviderCardDetachedEvent | ProviderChargeEvent | null {
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
    case 'payment_method.attached':
      return toCardEvent(event, event.data.object);
    case 'payment_method.detached': {
      const method = event.data.object;
      return typeof method.id === 'string'
        ? { id: event.id, type: 'method.detached', methodRef: method.id, payload }
        : null;
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      // Only our off-session charges (they carry their idempotency key); a Checkout Session's
      // PaymentIntent is settled by the session's own events above.
      const intent = event.data.object;
      if (!intent.metadata?.idempotency_key || typeof intent.id !== 'string') return null;
      return { id: event.id, type: 'charge.settled', reference: intent.id, payload };
    }
    default:
      return null;
  }
}

export function createStripeProvider(options: StripeOptions): PaymentProvider {
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
          // Keep the card: Stripe attaches it to the account's customer for off-session charges.
          ...(input.saveFor
            ? {
                customer: input.saveFor.customerRef,
                payment_intent_data: {
                  metadata: { session_id: input.sessionId },
                  setup_future_usage: 'off_session' as const,
                },
              }
            : {}),
        },
        // A retried request must not open a second Checkout Session for the same attempt.
        { idempotencyKey: input.sessionId },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { url: session.url, providerSessionId: session.id };
    },
    async createCustomer(input) {
      const customer = await stripe.customers.create(
        { email: input.email, name: input.name, metadata: { account_id: input.accountId } },
        { idempotencyKey: `customer-${input.accountId}` },
      );
      return { customerRef: customer.id };
    },
    async createSetup(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'setup',
          currency: 'eur',
          allowed_payment_method_types: ['card'],
          customer: input.customerRef,
          client_reference_id: input.setupId,
          metadata: { setup_id: input.setupId },
          setup_intent_data: { metadata: { setup_id: input.setupId } },
          success_url: input.returnUrl,
          cancel_url: input.returnUrl,
        },
        { idempotencyKey: input.setupId },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { url: session.url, providerSetupId: session.id };
    },
    async savedCharge(reference) {
      return chargeOf(await stripe.paymentIntents.retrieve(reference));
    },
    async chargeSaved(input) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountMinor,
            currency: input.currency.toLowerCase(),
            customer: input.customerRef,
            payment_method: input.methodRef,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: { idempotency_key: input.idempotencyKey },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return chargeOf(intent);
      } catch (error) {
        // A refused card is an answer, not a failure: Stripe says it with a card error.
        if (error instanceof Stripe.errors.StripeCardError) {
          const intent = (error.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
          const reason = {
            // The SDK gives '' for a field Stripe left out.
            code: error.decline_code || error.code || 'card_declined',
            message: error.message,
          };
          return error.code === 'authentication_required'
            ? { status: 'requires_action', reason, reference: intent?.id ?? null }
            : { status: 'declined', reason, reference: intent?.id ?? null };
        }
        // The card is gone at Stripe (detached or deleted there): no charge can take it.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          (error.code === 'resource_missing' || error.code?.startsWith('payment_method_'))
        ) {
          return {
            status: 'declined',
            reason: { code: error.code, message: error.message },
            reference: null,
          };
        }
        throw error;
      }
    },
    async detachMethod(methodRef) {
      try {
        await stripe.paymentMethods.detach(methodRef);
      } catch (error) {
        // Already detached or deleted at Stripe: gone is what was asked.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
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
