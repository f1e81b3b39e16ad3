// Payments: a session at the provider for an order, and the provider's events turned into order
// state exactly once. Three guards make duplicated, concurrent and out-of-order events safe:
// the event id is recorded first (a replay stops there), the order moves only by a conditional
// update (PAID is final; a late failure cannot undo it), and the service is keyed by its order
// (a second creation finds the first). All of it happens in one transaction.
import { randomBytes } from 'node:crypto';
import type { PaymentSessionStatus as SessionStatusResponse } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { createOrdersQueries } from '../orders/orders.queries.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';
import { createPaymentsQueries } from './payments.queries.ts';

/** Where the provider sends the customer back to, per payment flow (spec §2 completion pages). */
export const PAYMENT_FLOWS = ['new', 'retry'] as const;
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number];

function completionPath(flow: PaymentFlow, orderId: string, sessionId: string): string {
  return `/dashboard/payments/${flow}/${orderId}/payment/complete?session_id=${sessionId}`;
}

function addMonths(from: Date, months: number): Date {
  const result = new Date(from);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

export function createPaymentsService(deps: {
  db: Db;
  provider: PaymentProvider;
  orders: Pick<OrdersService, 'payable'>;
  activity: Pick<ActivityService, 'record'>;
  publicUrl: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const payments = createPaymentsQueries(deps.db);

  async function applyEvent(event: ProviderEvent): Promise<'applied' | 'duplicate'> {
    const outcome = await applyInTransaction(event);
    // After the commit: on PGlite the transaction holds the only connection.
    if (outcome.paid) {
      await deps.activity.record({
        accountId: outcome.paid.accountId,
        action: 'payment completed',
        tone: 'success',
        details: { order_id: outcome.paid.id, amount: outcome.paid.amountMinor, provider: deps.provider.id },
      });
    }
    return outcome.result;
  }

  type Outcome = {
    result: 'applied' | 'duplicate';
    paid?: { id: string; accountId: string; amountMinor: number };
  };

  async function applyInTransaction(event: ProviderEvent): Promise<Outcome> {
    return deps.db.transaction(async (tx): Promise<Outcome> => {
      const txDb = tx as unknown as Db;
      const txPayments = createPaymentsQueries(txDb);
      const fresh = await txPayments.recordEvent({
        provider: deps.provider.id,
        eventId: event.id,
        type: event.type,
        sessionId: event.sessionId,
        payload: event.payload,
        receivedAt: now(),
      });
      if (!fresh) return { result: 'duplicate' };

      const session = await txPayments.findSession(event.sessionId);
      if (!session) return { result: 'applied' };
      const txOrders = createOrdersQueries(txDb);
      const at = now();

      switch (event.type) {
        case 'payment.succeeded': {
          await txPayments.setSessionStatus(session.id, 'succeeded', at);
          const paid = await txOrders.markPaid(session.orderId, at);
          if (!paid) return { result: 'applied' };
          if (paid.kind === 'new') {
            const service = await createServicesQueries(txDb).createForOrder({
              accountId: paid.accountId,
              orderId: paid.id,
              productId: paid.productId,
              name: `${paid.productName} ${paid.id.slice(0, 8)}`,
              status: 'processing',
              diskSpace: paid.diskSpace,
              usersCount: paid.usersCount,
              periodId: paid.periodId,
              monthlyPriceMinor: Math.round(paid.breakdown.subtotal / Math.max(1, paid.months)),
              validUntil: addMonths(at, paid.months),
              createdAt: at,
              updatedAt: at,
            });
            await txOrders.setService(paid.id, service.id);
          } else if (paid.kind === 'extension' && paid.serviceId) {
            await createServicesQueries(txDb).extend(paid.serviceId, paid.months, at);
          }
          return { result: 'applied', paid };
        }
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

  return {
    async createSession(
      accountId: string,
      orderId: string,
      flow: PaymentFlow,
    ): Promise<{ session_id: string; url: string }> {
      const order = await deps.orders.payable(accountId, orderId, { reopenFailed: flow === 'retry' });
      const sessionId = `ps_${randomBytes(18).toString('base64url')}`;
      const returnUrl = `${deps.publicUrl}${completionPath(flow, order.id, sessionId)}`;
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
