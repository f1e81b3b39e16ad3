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
import type { PaymentSessionStatus as SessionStatusResponse } from '@debesis/contract';
import { addMonths } from '@debesis/pricing';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { InvoiceIssuer, IssuedInvoice } from '../billing/billing.service.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { createOrdersQueries, type OrderRow } from '../orders/orders.queries.ts';
import { applyPaidPlanChange } from '../plan-changes/plan-changes.apply.ts';
import { createPlanChangesQueries } from '../plan-changes/plan-changes.queries.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import type { ServiceFulfilment } from '../services/services.background.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';
import { createPaymentsQueries, type PaymentSessionRow } from './payments.queries.ts';

/** A first attempt or a retry of a failed order: they return to different pages. */
export const PAYMENT_FLOWS = ['new', 'retry'] as const;
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number];

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
  orders: Pick<OrdersService, 'payable'>;
  activity: Pick<ActivityService, 'record'>;
  /** Issues the invoice of a paid order in the payment's transaction; mails it after the commit. */
  invoices: InvoiceIssuer;
  publicUrl: string;
  /** After the commit of a paid order: what it did to a service (the lifecycle places, wakes, records). */
  onFulfilled?: (fulfilment: ServiceFulfilment) => Promise<void>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const payments = createPaymentsQueries(deps.db);

  async function applyEvent(
    event: ProviderEvent,
    providerId: string = deps.provider.id,
  ): Promise<'applied' | 'duplicate' | 'refused'> {
    const outcome = await applyInTransaction(event, providerId);
    // After the commit: on PGlite the transaction holds the only connection.
    if (outcome.paid) {
      await deps.activity.record({
        accountId: outcome.paid.accountId,
        action: 'payment completed',
        tone: 'success',
        serviceId: outcome.fulfilled?.serviceId ?? null,
        details: { order_id: outcome.paid.id, amount: outcome.paid.amountMinor, provider: providerId },
      });
    }
    if (outcome.credited) {
      await deps.activity.record({
        accountId: outcome.credited.accountId,
        action: 'payment credited',
        tone: 'info',
        serviceId: outcome.credited.serviceId,
        details: {
          order_id: outcome.credited.orderId,
          amount: outcome.credited.amountMinor,
          credit: outcome.credited.creditMinor,
          provider: providerId,
        },
      });
    }
    if (outcome.refused) {
      await deps.activity.record({
        accountId: outcome.refused.accountId,
        action: 'payment refused',
        tone: 'error',
        details: {
          order_id: outcome.refused.orderId,
          session_id: event.sessionId,
          event_id: event.id,
          reason: outcome.refused.reason,
          provider: providerId,
        },
      });
    }
    if (outcome.fulfilled) await deps.onFulfilled?.(outcome.fulfilled);
    if (outcome.invoice) await deps.invoices.afterIssued(outcome.invoice);
    // The order needs no other payment: its other pages stop taking one.
    if (outcome.paid) await closeSessions(outcome.paid.id, event.sessionId);
    // Also on a repeated event: a refund the provider refused before is tried again.
    await refundIfPending(event.sessionId);
    return outcome.result;
  }

  type Outcome = {
    result: 'applied' | 'duplicate' | 'refused';
    paid?: { id: string; accountId: string; amountMinor: number };
    fulfilled?: ServiceFulfilment | null;
    invoice?: IssuedInvoice | null;
    /** Money that bought nothing and became account credit (before VAT). */
    credited?: {
      orderId: string;
      accountId: string;
      serviceId: string | null;
      amountMinor: number;
      creditMinor: number;
    };
    refused?: { orderId: string; accountId: string; reason: string };
  };

  /** Why an event does not belong to its session; null when it does. */
  function mismatch(session: PaymentSessionRow, event: ProviderEvent, providerId: string): string | null {
    if (session.provider !== providerId) return 'provider_mismatch';
    const charge = event.charge;
    if (!charge) return null;
    if (charge.providerSessionId === null || charge.providerSessionId !== session.providerSessionId) {
      return 'session_mismatch';
    }
    // A failure (an expired page) charges nothing; a success or a payment under way must be ours.
    if (event.type === 'payment.failed') return null;
    if (charge.amountMinor !== session.amountMinor) return 'amount_mismatch';
    if (charge.currency?.toUpperCase() !== session.currency) return 'currency_mismatch';
    return null;
  }

  /**
   * The credit a paid order set aside, taken from the ledger under the account lock (held by the
   * caller) and only while the account has it free; false when it does not.
   */
  async function takeCredit(txDb: Db, paid: OrderRow, at: Date): Promise<boolean> {
    if (paid.creditAppliedMinor <= 0) return true;
    const credits = createCreditsQueries(txDb);
    // The paid order no longer counts as reserved: what others set aside must stay theirs.
    const free =
      (await credits.balance(paid.accountId)) -
      (await createOrdersQueries(txDb).reservedCredit(paid.accountId));
    if (free < paid.creditAppliedMinor) return false;
    await credits.use({
      accountId: paid.accountId,
      amountMinor: paid.creditAppliedMinor,
      orderId: paid.id,
      serviceId: paid.serviceId,
      at,
    });
    return true;
  }

  /** What a paid order buys, in the payment's transaction: a service, more time or a new plan. */
  async function fulfil(txDb: Db, paid: OrderRow, at: Date): Promise<ServiceFulfilment | null> {
    const services = createServicesQueries(txDb);
    switch (paid.kind) {
      case 'new': {
        const service = await services.createForOrder({
          accountId: paid.accountId,
          orderId: paid.id,
          productId: paid.productId,
          name: paid.serviceName ?? `${paid.productName} ${paid.id.slice(0, 8)}`,
          status: 'processing',
          diskSpace: paid.diskSpace,
          usersCount: paid.usersCount,
          periodId: paid.periodId,
          monthlyPriceMinor: Math.round(paid.breakdown.subtotal / Math.max(1, paid.months)),
          validUntil: addMonths(at, paid.months),
          paidFrom: at,
          paidMonths: paid.months,
          createdAt: at,
          updatedAt: at,
        });
        await createOrdersQueries(txDb).setService(paid.id, service.id);
        return {
          kind: 'new',
          serviceId: service.id,
          restoredFrom: null,
          period: { start: at, end: service.validUntil },
        };
      }
      case 'extension': {
        const extended = paid.serviceId ? await services.extend(paid.serviceId, paid.months, at) : undefined;
        return extended
          ? {
              kind: 'extension',
              serviceId: extended.service.id,
              restoredFrom: extended.restoredFrom,
              period: { start: extended.periodStart, end: extended.service.validUntil },
            }
          : null;
      }
      case 'plan_change':
        if (paid.planChangeId)
          await applyPaidPlanChange(txDb, paid.planChangeId, paid.breakdown.subtotal, at);
        return paid.serviceId ? { kind: 'plan_change', serviceId: paid.serviceId, restoredFrom: null } : null;
    }
  }

  /** Money taken for an order that buys nothing: account credit, what was paid before VAT. */
  async function creditInstead(txDb: Db, paid: OrderRow, at: Date): Promise<Outcome['credited']> {
    const creditMinor = Math.max(0, paid.breakdown.subtotal - paid.creditAppliedMinor);
    if (creditMinor > 0) {
      await createCreditsQueries(txDb).creditPayment({
        accountId: paid.accountId,
        amountMinor: creditMinor,
        orderId: paid.id,
        serviceId: paid.serviceId,
        at,
      });
    }
    return {
      orderId: paid.id,
      accountId: paid.accountId,
      serviceId: paid.serviceId,
      amountMinor: paid.amountMinor,
      creditMinor,
    };
  }

  async function succeeded(
    txDb: Db,
    session: PaymentSessionRow,
    event: ProviderEvent,
    providerId: string,
    at: Date,
  ): Promise<Outcome> {
    const txOrders = createOrdersQueries(txDb);
    // Another event of a payment already counted changes nothing.
    if (!(await createPaymentsQueries(txDb).markSucceeded(session.id, event.paymentReference ?? null, at))) {
      return { result: 'applied' };
    }
    // Credit decisions of the account wait for each other: placing an order, paying one.
    await createCreditsQueries(txDb).lockAccount(session.accountId);
    const paid = await txOrders.markPaid(session.orderId, at);
    if (paid) {
      if (!(await takeCredit(txDb, paid, at))) {
        // The credit it counted on went elsewhere: the money becomes credit, nothing is bought.
        if (paid.planChangeId) await createPlanChangesQueries(txDb).cancel(paid.planChangeId, at);
        const credited = await creditInstead(txDb, paid, at);
        const invoice = await deps.invoices.issueInTransaction(txDb, paid.id, { at, method: providerId });
        return { result: 'applied', credited, invoice };
      }
      const fulfilled = await fulfil(txDb, paid, at);
      // In the same transaction: no paid order without its invoice, no gap in the numbers. The
      // invoice prints the span the payment bought, as stored, never one worked out again.
      const invoice = await deps.invoices.issueInTransaction(txDb, paid.id, {
        at,
        method: providerId,
        ...(fulfilled?.period ? { period: fulfilled.period } : {}),
      });
      return { result: 'applied', paid, fulfilled, invoice };
    }
    // Account credit moves no money: nothing to keep or give back.
    if (session.provider === CREDIT_PROVIDER) return { result: 'applied' };
    // Paid at a page opened before its order was cancelled: kept as credit, the order's own
    // credit reservation is not taken (another order may be using it).
    const late = await txOrders.markCancelledPaid(session.orderId, at);
    if (late) {
      const credited = await creditInstead(txDb, late, at);
      const invoice = await deps.invoices.issueInTransaction(txDb, late.id, { at, method: providerId });
      return { result: 'applied', credited, invoice };
    }
    // The order was paid already, in another session: this payment is given back (after the commit).
    await createPaymentsQueries(txDb).markRefundPending(session.id, at);
    return { result: 'applied' };
  }

  async function applyInTransaction(event: ProviderEvent, providerId: string): Promise<Outcome> {
    return deps.db.transaction(async (tx): Promise<Outcome> => {
      const txDb = tx as unknown as Db;
      const txPayments = createPaymentsQueries(txDb);
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
        return {
          result: 'refused',
          refused: { orderId: session.orderId, accountId: session.accountId, reason: refusal },
        };
      }
      const txOrders = createOrdersQueries(txDb);
      const at = now();

      switch (event.type) {
        case 'payment.succeeded':
          return succeeded(txDb, session, event, providerId, at);
        case 'payment.failed': {
          await txPayments.setSessionStatus(session.id, 'failed', at);
          await txOrders.markFailed(
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
    });
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
    let reference: string;
    try {
      if (!session.paymentReference) throw new Error('the provider named no payment to refund');
      ({ reference } = await deps.provider.refund({
        paymentReference: session.paymentReference,
        amountMinor: session.amountMinor,
        currency: session.currency,
        idempotencyKey: `refund_${session.id}`,
      }));
    } catch (error) {
      throw new Error(`refund of payment session ${session.id} failed`, { cause: error });
    }
    if (await payments.markRefunded(session.id, reference, now())) {
      await deps.activity.record({
        accountId: session.accountId,
        action: 'payment refunded',
        tone: 'warning',
        details: {
          order_id: session.orderId,
          session_id: session.id,
          amount: session.amountMinor,
          provider: session.provider,
          refund: reference,
        },
      });
    }
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
    async createSession(
      accountId: string,
      orderId: string,
      flow: PaymentFlow,
    ): Promise<{ session_id: string; url: string }> {
      const order = await deps.orders.payable(accountId, orderId, { reopenFailed: flow === 'retry' });
      const sessionId = `ps_${randomBytes(18).toString('base64url')}`;
      const returnUrl = `${deps.publicUrl}${completionPath(flow, order, sessionId)}`;
      if (order.amountMinor === 0) return settleWithCredit(accountId, order, sessionId, returnUrl);
      const created = await deps.provider.createSession({
        sessionId,
        amountMinor: order.amountMinor,
        currency: order.currency,
        description: `${order.productName}, ${order.months} mo.`,
        returnUrl,
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
        createdAt: now(),
        updatedAt: now(),
      });
      return { session_id: sessionId, url: created.url };
    },

    /** The provider's webhook: verify, then apply once. */
    async receiveEvent(rawBody: string, headers: Record<string, string | string[] | undefined>) {
      const event = deps.provider.parseEvent(rawBody, headers);
      return { received: true as const, result: event ? await applyEvent(event) : ('ignored' as const) };
    },

    /**
     * The state of a session, for the completion pages. The session id is an unguessable
     * capability, so the pages work without sign-in (spec §2) and show nothing else.
     */
    async status(sessionId: string): Promise<SessionStatusResponse> {
      const session = await payments.findSession(sessionId);
      if (!session) throw notFound();
      const order = await createOrdersQueries(deps.db).findById(session.orderId);
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
