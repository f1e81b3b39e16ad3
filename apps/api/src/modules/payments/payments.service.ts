// Payments: a session at the provider for an order, and the provider's events turned into order
// state exactly once. Three guards make duplicated, concurrent and out-of-order events safe:
// the event id is recorded first (a replay stops there), the order moves only by a conditional
// update (PAID is final; a late failure cannot undo it), and the service is keyed by its order
// (a second creation finds the first). All of it happens in one transaction.
//
// An event counts only when it matches its session: the provider's page we opened, the amount
// and the currency we asked (a mismatch is recorded and pays nothing). Money is never dropped and
// never buys twice: a payment for an order cancelled meanwhile becomes account credit (the
// credit that order had set aside stays free for others), and a second payment of a paid order
// is refunded through the provider.
import { randomBytes } from 'node:crypto';
import type { PaymentFlow, PaymentSessionStatus as SessionStatusResponse } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { InvoiceIssuer } from '../billing/billing.service.ts';
import type { OrderRow } from '../orders/orders.queries.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { ServiceFulfilment } from '../services/services.background.ts';
import type { PaidOutcome, PaymentFulfilment } from './payment-fulfilment.ts';
import type { PaymentMethodsService } from './payment-methods.service.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';
import { createPaymentsQueries, type PaymentSessionRow } from './payments.queries.ts';
import { refundPendingSession } from './refund.ts';

/** Where the provider sends the customer back to (spec §2 completion pages). */
function completionPath(flow: PaymentFlow, order: OrderRow, sessionId: string): string {
  const query = `payment/complete?session_id=${sessionId}`;
  // A retried plan change or extension returns to its own flow's page, which knows what it was.
  if (flow === 'retry' && order.kind === 'new') return `/dashboard/payments/retry/${order.id}/${query}`;
  if (order.kind === 'plan_change' && order.planChangeId) {
    return `/dashboard/payments/plan-change/${order.planChangeId}/${query}`;
  }
  if (order.kind === 'extension' && order.serviceId) {
    return `/dashboard/payments/extend/${order.serviceId}/${query}`;
  }
  return `/dashboard/payments/new/${order.id}/${query}`;
}

/** Provider id of orders paid entirely with account credit: no card, no provider. */
const CREDIT_PROVIDER = 'credit';

export function createPaymentsService(deps: {
  db: Db;
  provider: PaymentProvider;
  /** Kept cards: the account's customer for a card to keep, and the provider's attached cards. */
  methods: Pick<PaymentMethodsService, 'customerFor' | 'applyCardEvent' | 'applyDetachedEvent'>;
  orders: Pick<OrdersService, 'payable' | 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  /** What a succeeded payment buys, in its transaction (payment-fulfilment.ts). */
  fulfilment: PaymentFulfilment;
  /** Mails the invoice a payment issued, after the commit. */
  invoices: Pick<InvoiceIssuer, 'afterIssued'>;
  publicUrl: string;
  /** After the commit of a paid order: what it did to a service (the lifecycle places, wakes, records). */
  onFulfilled?: (fulfilment: ServiceFulfilment) => Promise<void>;
  /** A kept card's pending off-session charge settled (renewals read it); true when one waited. */
  onChargeSettled?: (reference: string) => Promise<boolean>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const payments = createPaymentsQueries(deps.db);

  async function applyEvent(
    event: ProviderEvent,
    providerId: string = deps.provider.id,
  ): Promise<'applied' | 'duplicate' | 'refused'> {
    // The activity entries are written in the transaction; what follows runs after the commit.
    const outcome = await inTransaction(deps.db, (tx) => applyInTransaction(tx, event, providerId));
    if (outcome.fulfilled) await deps.onFulfilled?.(outcome.fulfilled);
    if (outcome.invoice) await deps.invoices.afterIssued(outcome.invoice);
    // The order needs no other payment: its other pages stop taking one.
    if (outcome.paid) await closeSessions(outcome.paid.id, event.sessionId);
    // Also on a repeated event: a refund the provider refused before is tried again.
    await refundIfPending(event.sessionId);
    return outcome.result;
  }

  type Outcome = PaidOutcome & { result: 'applied' | 'duplicate' | 'refused' };

  /** Why an event does not belong to its session; null when it does. */
  function mismatch(session: PaymentSessionRow, event: ProviderEvent, providerId: string): string | null {
    if (session.provider !== providerId) return 'provider_mismatch';
    const charge = event.charge;
    if (!charge) {
      // Only the credit settlement states no charge; from a provider it would pay any amount.
      return providerId === CREDIT_PROVIDER || event.type === 'payment.failed' ? null : 'charge_missing';
    }
    if (charge.providerSessionId === null || charge.providerSessionId !== session.providerSessionId) {
      return 'session_mismatch';
    }
    // A failure (an expired page) charges nothing; a success or a payment under way must be ours.
    if (event.type === 'payment.failed') return null;
    if (charge.amountMinor !== session.amountMinor) return 'amount_mismatch';
    if (charge.currency?.toUpperCase() !== session.currency) return 'currency_mismatch';
    return null;
  }

  async function succeeded(
    tx: Tx,
    session: PaymentSessionRow,
    event: ProviderEvent,
    providerId: string,
    at: Date,
  ): Promise<Outcome> {
    const txPayments = createPaymentsQueries(tx);
    // Another event of a payment already counted changes nothing.
    if (!(await txPayments.markSucceeded(session.id, event.paymentReference ?? null, at))) {
      return { result: 'applied' };
    }
    const outcome = await deps.fulfilment.paymentSucceeded(
      tx,
      {
        orderId: session.orderId,
        accountId: session.accountId,
        providerId,
        movesMoney: session.provider !== CREDIT_PROVIDER,
      },
      at,
    );
    if (outcome !== 'paid_already') return { result: 'applied', ...outcome };
    // The order was paid already, in another session: this payment is given back (after the commit).
    await txPayments.markRefundPending(session.id, at);
    return { result: 'applied' };
  }

  async function applyInTransaction(tx: Tx, event: ProviderEvent, providerId: string): Promise<Outcome> {
    const txPayments = createPaymentsQueries(tx);
    const fresh = await txPayments.recordEvent({
      provider: providerId,
      eventId: event.id,
      type: event.type,
      sessionId: event.sessionId,
      payload: event.payload,
      receivedAt: now(),
    });
    if (!fresh) return { result: 'duplicate' };

    const session = await txPayments.findSession(event.sessionId);
    if (!session) return { result: 'applied' };
    const refusal = mismatch(session, event, providerId);
    if (refusal) {
      await txPayments.refuseEvent(providerId, event.id, refusal);
      await deps.activity.record(
        {
          accountId: session.accountId,
          action: 'payment refused',
          tone: 'error',
          details: {
            order_id: session.orderId,
            session_id: event.sessionId,
            event_id: event.id,
            reason: refusal,
            provider: providerId,
          },
        },
        tx,
      );
      return { result: 'refused' };
    }
    const at = now();

    switch (event.type) {
      case 'payment.succeeded':
        return succeeded(tx, session, event, providerId, at);
      case 'payment.failed': {
        await txPayments.setSessionStatus(session.id, 'failed', at);
        await deps.fulfilment.paymentFailed(
          tx,
          session.orderId,
          {
            message: 'Payment failed',
            details: JSON.stringify({
              code: event.error?.code ?? 'payment_failed',
              message: event.error?.message ?? '',
            }),
          },
          at,
        );
        return { result: 'applied' };
      }
      case 'payment.pending':
        await txPayments.setSessionStatus(session.id, 'pending', at);
        return { result: 'applied' };
    }
  }

  /** Closes the order's pages still open (but `except`), at the provider too. */
  async function closeSessions(orderId: string, except?: string): Promise<void> {
    for (const session of await payments.expireOpenSessions(orderId, now(), except)) {
      if (session.provider !== deps.provider.id || !session.providerSessionId) continue;
      try {
        await deps.provider.expireSession(session.providerSessionId);
      } catch {
        // The page was paid or closed meanwhile: its event still comes, and a payment the
        // order cannot use becomes credit or is refunded like any other.
      }
    }
  }

  /** Gives back a payment recorded as not needed; throws (so the provider delivers again) on failure. */
  async function refundIfPending(sessionId: string): Promise<void> {
    const session = await payments.findSession(sessionId);
    if (session?.refundStatus !== 'pending' || session.provider !== deps.provider.id) return;
    await refundPendingSession(
      { db: deps.db, provider: deps.provider, activity: deps.activity, now },
      session,
    );
  }

  /**
   * An order its account credit pays in full: no provider page. It is paid through the same
   * exactly-once path as a provider's event, and the customer goes straight to the completion page.
   */
  async function settleWithCredit(accountId: string, order: OrderRow, sessionId: string, returnUrl: string) {
    await payments.insertSession({
      id: sessionId,
      orderId: order.id,
      accountId,
      provider: CREDIT_PROVIDER,
      providerSessionId: null,
      status: 'open',
      url: returnUrl,
      returnUrl,
      amountMinor: 0,
      currency: order.currency,
      createdAt: now(),
      updatedAt: now(),
    });
    await applyEvent(
      { id: `credit_${order.id}`, type: 'payment.succeeded', sessionId, payload: { order_id: order.id } },
      CREDIT_PROVIDER,
    );
    return { session_id: sessionId, url: returnUrl };
  }

  return {
    /**
     * `savePaymentMethod`: keep the card for renewals (the provider saves it to the account's
     * customer, and says so with its own event once the payment is made).
     */
    async createSession(
      accountId: string,
      orderId: string,
      flow: PaymentFlow,
      options: { savePaymentMethod?: boolean } = {},
    ): Promise<{ session_id: string; url: string }> {
      const order = await deps.orders.payable(accountId, orderId, { reopenFailed: flow === 'retry' });
      const sessionId = `ps_${randomBytes(18).toString('base64url')}`;
      const returnUrl = `${deps.publicUrl}${completionPath(flow, order, sessionId)}`;
      // Credit pays it all: no card, nothing to keep.
      if (order.amountMinor === 0) return settleWithCredit(accountId, order, sessionId, returnUrl);
      const savePaymentMethod = options.savePaymentMethod === true;
      const created = await deps.provider.createSession({
        sessionId,
        amountMinor: order.amountMinor,
        currency: order.currency,
        description: `${order.productName}, ${order.months} mo.`,
        returnUrl,
        ...(savePaymentMethod ? { saveFor: { customerRef: await deps.methods.customerFor(accountId) } } : {}),
      });
      await payments.insertSession({
        id: sessionId,
        orderId: order.id,
        accountId,
        provider: deps.provider.id,
        providerSessionId: created.providerSessionId,
        status: 'open',
        url: created.url,
        returnUrl,
        amountMinor: order.amountMinor,
        currency: order.currency,
        savePaymentMethod,
        createdAt: now(),
        updatedAt: now(),
      });
      return { session_id: sessionId, url: created.url };
    },

    /**
     * A charge of the account's kept card that succeeded (a renewal): recorded as a session of
     * its own and paid through the same exactly-once path as a provider's event, so the order is
     * fulfilled as any paid order is (invoice, more time, the mail). `key` is the charge's
     * idempotency key: the session and event ids derive from it, so recording it again (a run
     * repairing a crash) changes nothing.
     */
    async recordKeptCardPayment(input: {
      accountId: string;
      orderId: string;
      amountMinor: number;
      reference: string;
      key: string;
    }): Promise<'applied' | 'duplicate' | 'refused'> {
      const sessionId = `ps_kept_${input.key}`;
      const providerSessionId = `kept_${input.key}`;
      if (!(await payments.findSession(sessionId))) {
        await payments.insertSession({
          id: sessionId,
          orderId: input.orderId,
          accountId: input.accountId,
          provider: deps.provider.id,
          providerSessionId,
          status: 'open',
          url: '',
          returnUrl: '',
          amountMinor: input.amountMinor,
          currency: 'EUR',
          createdAt: now(),
          updatedAt: now(),
        });
      }
      return applyEvent({
        id: `kept_${input.key}`,
        type: 'payment.succeeded',
        sessionId,
        paymentReference: input.reference,
        charge: { providerSessionId, amountMinor: input.amountMinor, currency: 'EUR' },
        payload: { order_id: input.orderId, kept_card: true },
      });
    },

    /** The provider's webhook: verify, then apply once. */
    async receiveEvent(rawBody: string, headers: Record<string, string | string[] | undefined>) {
      const event = deps.provider.parseEvent(rawBody, headers);
      if (!event) return { received: true as const, result: 'ignored' as const };
      if (event.type === 'method.attached') {
        return { received: true as const, result: await deps.methods.applyCardEvent(event) };
      }
      if (event.type === 'method.detached') {
        return { received: true as const, result: await deps.methods.applyDetachedEvent(event) };
      }
      if (event.type === 'charge.settled') {
        // Nothing is applied from the event itself: the renewal reads the charge at the provider.
        // Recorded all the same, so a replay is told apart like every provider event.
        const fresh = await payments.recordEvent({
          provider: deps.provider.id,
          eventId: event.id,
          type: event.type,
          sessionId: null,
          payload: event.payload,
          receivedAt: now(),
        });
        if (!fresh) return { received: true as const, result: 'duplicate' as const };
        const waited = (await deps.onChargeSettled?.(event.reference)) ?? false;
        return { received: true as const, result: waited ? ('applied' as const) : ('ignored' as const) };
      }
      return { received: true as const, result: await applyEvent(event) };
    },

    /**
     * The state of a session, for the completion pages. The session id is an unguessable
     * capability, so the pages work without sign-in (spec §2) and show nothing else.
     */
    async status(sessionId: string): Promise<SessionStatusResponse> {
      const session = await payments.findSession(sessionId);
      if (!session) throw notFound();
      const order = await deps.orders.findById(session.orderId);
      if (!order) throw notFound();
      return {
        session_id: session.id,
        order_id: order.id,
        status: session.status,
        order_status: order.status,
        amount: session.amountMinor,
        currency: session.currency,
        service_id: order.serviceId,
        error_message: order.errorMessage,
        error_details: order.errorDetails,
      };
    },

    async sessionForCardPage(sessionId: string) {
      const session = await payments.findSession(sessionId);
      if (!session || session.provider !== 'sandbox') throw notFound();
      return session;
    },

    /** A cancelled order's pages: closed here and at the provider, so they take no money. */
    closeSessions: (orderId: string) => closeSessions(orderId),

    async markPending(sessionId: string): Promise<void> {
      await payments.setSessionStatus(sessionId, 'pending', now());
    },

    async latestSession(accountId: string, orderId: string) {
      const session = await payments.latestSessionForOrder(orderId);
      if (!session || session.accountId !== accountId) throw new AppError('not_found');
      return session;
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
