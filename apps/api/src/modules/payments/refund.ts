// Paying a payment back through the provider, and recording it once: the one path for a payment
// its order did not need (payments.service.ts, after a provider event) and for an operator's
// refund (`npm run ops -- payments refund`). The provider's idempotency key is the session's, so
// a repeated or concurrent attempt refunds once; the conditional update records it once.
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { PaymentProvider } from './provider.ts';
import { createPaymentsQueries, type PaymentSessionRow } from './payments.queries.ts';

export interface RefundDeps {
  db: Db;
  provider: Pick<PaymentProvider, 'id' | 'refund'>;
  activity: Pick<ActivityService, 'record'>;
  now: () => Date;
}

/**
 * Refunds a session whose refund is recorded as pending, then marks it refunded with an activity
 * entry (`details` added to it). Throws when the provider refuses, leaving it pending for the
 * next attempt. `recorded`: false when another attempt recorded it first.
 */
export async function refundPendingSession(
  deps: RefundDeps,
  session: PaymentSessionRow,
  details: Record<string, unknown> = {},
): Promise<{ reference: string; recorded: boolean }> {
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
  const recorded = await inTransaction(deps.db, async (tx) => {
    if (!(await createPaymentsQueries(tx).markRefunded(session.id, reference, deps.now()))) return false;
    await deps.activity.record(
      {
        accountId: session.accountId,
        action: 'payment refunded',
        tone: 'warning',
        details: {
          order_id: session.orderId,
          session_id: session.id,
          amount: session.amountMinor,
          provider: session.provider,
          refund: reference,
          ...details,
        },
      },
      tx,
    );
    return true;
  });
  return { reference, recorded };
}

export type OperatorRefund =
  | { kind: 'refunded'; session: PaymentSessionRow; reference: string }
  | { kind: 'already_refunded'; session: PaymentSessionRow };

/**
 * An operator gives a whole payment back (the order and its service are left as they are). Only
 * a payment the configured provider took can be refunded; asking again answers already_refunded.
 * Throws a plain Error, worded for the operator, when the payment cannot be refunded.
 */
export async function refundPayment(
  deps: RefundDeps,
  sessionId: string,
  reason: string | null,
): Promise<OperatorRefund> {
  const payments = createPaymentsQueries(deps.db);
  const session = await payments.findSession(sessionId);
  if (!session) throw new Error(`no payment session ${sessionId}`);
  if (session.refundStatus === 'refunded') return { kind: 'already_refunded', session };
  if (session.status !== 'succeeded')
    throw new Error(`payment ${sessionId} took no money (it is ${session.status})`);
  if (session.provider !== deps.provider.id)
    throw new Error(
      session.provider === 'credit'
        ? `payment ${sessionId} was paid with account credit: no provider holds money to give back`
        : `payment ${sessionId} was taken by ${session.provider}, but the configured provider is ${deps.provider.id}`,
    );
  if (session.refundStatus !== 'pending') await payments.markRefundPending(session.id, deps.now());
  const { reference, recorded } = await refundPendingSession(deps, session, {
    by: 'operator',
    ...(reason ? { reason } : {}),
  });
  const after = (await payments.findSession(session.id)) ?? session;
  return recorded
    ? { kind: 'refunded', session: after, reference }
    : { kind: 'already_refunded', session: after };
}
