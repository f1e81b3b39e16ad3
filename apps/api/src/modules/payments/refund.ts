// Paying a payment back through the provider, and recording it once: a payment its order did
// not need (payments.service.ts, after a provider event: refundPendingSession), and an
// operator's refund, whole or part, with its credit note (`npm run ops -- payments refund`:
// refundPayment). The provider's idempotency key names the refund, so a repeated or concurrent
// attempt refunds once; a conditional update records it once.
import type { Db } from '../../db/database.ts';
import { inTransaction, type Executor } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { randomUUID } from 'node:crypto';
import { creditableInvoiceForOrder, issueCreditNoteInTransaction } from '../billing/credit-note.ts';
import { endServiceAsOperator } from '../services/operator-suspension.ts';
import type { PaymentProvider } from './provider.ts';
import { createPaymentsQueries, type PaymentSessionRow } from './payments.queries.ts';

export interface RefundDeps {
  db: Db;
  provider: Pick<PaymentProvider, 'id' | 'refund'>;
  activity: Pick<ActivityService, 'record'>;
  now: () => Date;
}

/** The account's "payment refunded" entry, written in the transaction that records the refund. */
function recordRefunded(
  activity: Pick<ActivityService, 'record'>,
  tx: Executor,
  session: PaymentSessionRow,
  amountMinor: number,
  reference: string,
  details: Record<string, unknown>,
): Promise<void> {
  return activity.record(
    {
      accountId: session.accountId,
      action: 'payment refunded',
      tone: 'warning',
      details: {
        order_id: session.orderId,
        session_id: session.id,
        amount: amountMinor,
        provider: session.provider,
        refund: reference,
        ...details,
      },
    },
    tx,
  );
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
    await recordRefunded(deps.activity, tx, session, session.amountMinor, reference, details);
    return true;
  });
  return { reference, recorded };
}

/** What an operator asks for (`npm run ops -- payments refund`). */
export interface OperatorRefundRequest {
  sessionId: string;
  /** Minor units to give back; absent: all that is left of the payment. */
  amountMinor?: number | null;
  /** Also end the service (the lifecycle's cancel); otherwise it and its order keep running. */
  endService?: boolean;
  reason?: string | null;
  /**
   * Names the refund: the same key is the same refund, however often it is asked for. Absent:
   * `rest` for all that is left, `amount:<minor>` for an amount, so a repeated command refunds
   * once; a second refund of the same amount needs a key of its own.
   */
  key?: string | null;
}

export interface RefundDocuments {
  invoice: { id: string; number: string; total: number };
  /** The credit note of this refund (null: a refund recorded before credit notes existed). */
  creditNote: { id: string; number: string } | null;
  /** What the invoice's credit notes give back now, all of them. */
  credited: number;
}

export interface ServiceEnding {
  serviceId: string;
  /** False: it had ended already, or its status allows no cancel (`status` says which). */
  ended: boolean;
  status: string | null;
  nodeId: string | null;
}

export type OperatorRefund =
  | ({
      kind: 'refunded';
      session: PaymentSessionRow;
      reference: string;
      amountMinor: number;
      service: ServiceEnding | null;
      /** Whether the credit note's mail was queued (false: no notifier, or it failed: `mailError`). */
      mailed: boolean;
      mailError?: string;
    } & RefundDocuments)
  | ({
      kind: 'already_refunded';
      session: PaymentSessionRow;
      amountMinor: number | null;
      service: ServiceEnding | null;
    } & Partial<RefundDocuments>);

export interface OperatorRefundDeps extends RefundDeps {
  /** First part of the credit notes' numbers (CREDIT_NOTE_NUMBER_PREFIX). */
  creditNotePrefix: string;
  /**
   * Tells the owner of a credit note just issued (its mail), after the commit. A failure is
   * reported in the outcome (`mailed`), never undoes the refund.
   */
  notify?: (creditNote: { accountId: string; id: string }) => Promise<void>;
  activity: Pick<ActivityService, 'record' | 'listForService'>;
}

/** A refund that cannot be made, worded for the operator; nothing was changed. */
export class RefundRefused extends Error {}

/**
 * An operator gives a payment back, whole or in part, and its invoice gets a credit note for
 * it: the amount is reserved under the session's row lock (the refunds of a payment never exceed
 * it nor its invoice), the provider refunds it under an idempotency key of that reservation, and
 * one transaction records it with the credit note (a conditional update: a repeated or
 * concurrent call records it once, a call after a crash finishes it). With `endService` the
 * service is cancelled through the lifecycle; without, the service and order keep running.
 */
export async function refundPayment(
  deps: OperatorRefundDeps,
  request: OperatorRefundRequest,
): Promise<OperatorRefund> {
  const payments = createPaymentsQueries(deps.db);
  const session = await payments.findSession(request.sessionId);
  if (!session) throw new RefundRefused(`no payment session ${request.sessionId}`);
  const amount = request.amountMinor ?? null;
  if (amount !== null && (!Number.isSafeInteger(amount) || amount <= 0))
    throw new RefundRefused(`the amount to refund must be a positive number of cents, not ${amount}`);
  if (session.status !== 'succeeded')
    throw new RefundRefused(`payment ${session.id} took no money (it is ${session.status})`);
  if (session.provider !== deps.provider.id)
    throw new RefundRefused(
      session.provider === 'credit'
        ? `payment ${session.id} was paid with account credit: no provider holds money to give back`
        : `payment ${session.id} was taken by ${session.provider}, but the configured provider is ${deps.provider.id}`,
    );
  const earlier = await payments.listRefunds(session.id);
  // Given back before the operator's refunds had credit notes, or by the payments module's own
  // refund (a payment its order did not need): there is nothing left to refund.
  if (session.refundStatus !== null && earlier.length === 0) {
    if (session.refundStatus === 'refunded')
      return { kind: 'already_refunded', session, amountMinor: session.amountMinor, service: null };
    throw new RefundRefused(
      `payment ${session.id} is being given back already (its order did not need it); nothing else to refund`,
    );
  }
  const invoice = await creditableInvoiceForOrder(deps.db, session.accountId, session.orderId);
  if (!invoice)
    throw new RefundRefused(`payment ${session.id} has no invoice to credit (order ${session.orderId})`);

  const key = request.key ?? (amount === null ? 'rest' : `amount:${amount}`);
  const reservation = await inTransaction(deps.db, async (tx) => {
    const txPayments = createPaymentsQueries(tx);
    await txPayments.lockSession(session.id);
    const same = await txPayments.findRefund(session.id, key);
    if (same) return same;
    const refunds = await txPayments.listRefunds(session.id);
    const pending = refunds.filter((refund) => refund.status === 'pending');
    const taken = refunds.reduce((sum, refund) => sum + refund.amountMinor, 0);
    const credited = await creditableInvoiceForOrder(tx, session.accountId, session.orderId);
    const left = Math.min(
      session.amountMinor - taken,
      invoice.total -
        (credited?.credited.total ?? 0) -
        pending.reduce((sum, refund) => sum + refund.amountMinor, 0),
    );
    if (amount === null && left <= 0) return null;
    const wanted = amount ?? left;
    if (wanted > left)
      throw new RefundRefused(
        `refund of ${cents(wanted)} EUR refused: payment ${session.id} has ${cents(Math.max(left, 0))} EUR left to refund ` +
          `(invoice ${invoice.number}: ${cents(invoice.total)} EUR, ${cents(invoice.total - Math.max(left, 0))} EUR refunded or being refunded); nothing was changed`,
      );
    return txPayments.insertRefund({
      id: randomUUID(),
      sessionId: session.id,
      accountId: session.accountId,
      invoiceId: invoice.id,
      key,
      amountMinor: wanted,
      currency: session.currency,
      endService: request.endService ?? false,
      reason: request.reason ?? null,
      status: 'pending',
      createdAt: deps.now(),
    });
  });

  const service = async (creditNote: string | null): Promise<ServiceEnding | null> => {
    if (!request.endService || !invoice.serviceId) return null;
    const outcome = await endServiceAsOperator(
      { db: deps.db, activity: deps.activity, now: deps.now },
      invoice.serviceId,
      { reason: request.reason ?? null, invoice: invoice.number, creditNote },
    );
    return {
      serviceId: invoice.serviceId,
      ended: outcome.ended,
      status: outcome.service?.status ?? null,
      nodeId: outcome.service?.nodeId ?? null,
    };
  };
  const documents = async (creditNoteId: string | null): Promise<RefundDocuments> => {
    const now = await creditableInvoiceForOrder(deps.db, session.accountId, session.orderId);
    const note = now?.creditNotes.find((reference) => reference.id === creditNoteId);
    return {
      invoice: { id: invoice.id, number: invoice.number, total: invoice.total },
      creditNote: note ? { id: note.id, number: note.number } : null,
      credited: now?.credited.total ?? 0,
    };
  };

  if (reservation === null) {
    const latest = (await payments.findSession(session.id)) ?? session;
    return {
      kind: 'already_refunded',
      session: latest,
      amountMinor: null,
      ...(await documents(null)),
      service: await service(null),
    };
  }
  if (reservation.status === 'refunded') {
    const docs = await documents(reservation.creditNoteId);
    return {
      kind: 'already_refunded',
      session: (await payments.findSession(session.id)) ?? session,
      amountMinor: reservation.amountMinor,
      ...docs,
      service: await service(docs.creditNote?.number ?? null),
    };
  }

  // Pending: new, or left by an attempt that failed or stopped half-way: the same key asks the
  // provider for the same refund. A whole payment keeps the session's key (the one the payments
  // module's own refund uses), so the two can never both give it back.
  let reference: string;
  try {
    if (!session.paymentReference) throw new Error('the provider named no payment to refund');
    ({ reference } = await deps.provider.refund({
      paymentReference: session.paymentReference,
      amountMinor: reservation.amountMinor,
      currency: session.currency,
      idempotencyKey:
        reservation.amountMinor === session.amountMinor ? `refund_${session.id}` : `refund_${reservation.id}`,
    }));
  } catch (error) {
    throw new Error(
      `refund of payment session ${session.id} failed; it stays reserved, run the same command again to retry`,
      { cause: error },
    );
  }
  const at = deps.now();
  const recorded = await inTransaction(deps.db, async (tx) => {
    const txPayments = createPaymentsQueries(tx);
    const done = await txPayments.markRefundDone(reservation.id, reference, at);
    if (!done) return null;
    const note = await issueCreditNoteInTransaction(tx, {
      accountId: session.accountId,
      invoiceId: invoice.id,
      amountMinor: reservation.amountMinor,
      at,
      prefix: deps.creditNotePrefix,
      paymentMethod: session.provider,
    });
    await txPayments.setRefundCreditNote(reservation.id, note.id);
    const refunded = (await txPayments.listRefunds(session.id))
      .filter((refund) => refund.status === 'refunded')
      .reduce((sum, refund) => sum + refund.amountMinor, 0);
    if (refunded >= session.amountMinor) await txPayments.markWhollyRefunded(session.id, reference, at);
    await recordRefunded(deps.activity, tx, session, reservation.amountMinor, reference, {
      invoice: invoice.number,
      credit_note: note.number,
      end_service: reservation.endService,
      by: 'operator',
      ...(reservation.reason ? { reason: reservation.reason } : {}),
    });
    return note;
  });
  const after = (await payments.findSession(session.id)) ?? session;
  const docs = await documents(
    recorded?.id ?? (await payments.findRefund(session.id, key))?.creditNoteId ?? null,
  );
  const ending = await service(docs.creditNote?.number ?? null);
  let mailed = false;
  let mailError: string | undefined;
  if (recorded && deps.notify) {
    try {
      await deps.notify({ accountId: session.accountId, id: recorded.id });
      mailed = true;
    } catch (error) {
      mailError = error instanceof Error ? error.message : String(error);
    }
  }
  return recorded
    ? {
        kind: 'refunded',
        session: after,
        reference,
        amountMinor: reservation.amountMinor,
        ...docs,
        service: ending,
        mailed,
        ...(mailError ? { mailError } : {}),
      }
    : {
        kind: 'already_refunded',
        session: after,
        amountMinor: reservation.amountMinor,
        ...docs,
        service: ending,
      };
}

function cents(minor: number): string {
  return (minor / 100).toFixed(2);
}
