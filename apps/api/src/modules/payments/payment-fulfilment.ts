// What a successful payment does to the rest of the product, inside the payment's transaction:
// the order is paid, the credit it set aside is taken from the ledger, and what it bought is
// delivered (a new service, more time, a new plan), with its invoice and its activity entry. When
// the credit it counted on went elsewhere, or the order was cancelled before the money came, the
// money becomes account credit instead. A command across modules: it changes orders, credits,
// plan changes and services through their in-transaction ports, never their queries.
import { addMonths } from '@debesis/pricing';
import type { Tx } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { InvoiceIssuer, IssuedInvoice } from '../billing/billing.service.ts';
import type { CreditsInTransaction } from '../credits/credits.service.ts';
import type { OrderRow } from '../orders/orders.queries.ts';
import type { OrdersInTransaction } from '../orders/orders.service.ts';
import type { PlanChangeApplication } from '../plan-changes/plan-changes.apply.ts';
import type { ServicesQueries } from '../services/services.queries.ts';
import type { ServiceFulfilment } from '../services/services.background.ts';

/** The services module, as a payment needs it: in the payment's transaction. */
export interface ServicesForPayments {
  createForOrder: (
    tx: Tx,
    ...args: Parameters<ServicesQueries['createForOrder']>
  ) => ReturnType<ServicesQueries['createForOrder']>;
  extend: (tx: Tx, ...args: Parameters<ServicesQueries['extend']>) => ReturnType<ServicesQueries['extend']>;
}

/** What a succeeded payment did, for the work after the commit (placement, mail, closing pages). */
export interface PaidOutcome {
  paid?: OrderRow;
  fulfilled?: ServiceFulfilment | null;
  invoice?: IssuedInvoice | null;
  /** Money that bought nothing and became account credit (before VAT). */
  credited?: { orderId: string; accountId: string; serviceId: string | null; creditMinor: number };
}

export function createPaymentFulfilment(deps: {
  credits: Pick<CreditsInTransaction, 'lockAccount' | 'balance' | 'use' | 'creditPayment'>;
  orders: Pick<
    OrdersInTransaction,
    'reservedCredit' | 'markPaid' | 'markCancelledPaid' | 'markFailed' | 'setService'
  >;
  planChanges: Pick<PlanChangeApplication, 'applyPaid' | 'cancel'>;
  services: ServicesForPayments;
  invoices: Pick<InvoiceIssuer, 'issueInTransaction' | 'hasUnpaidInvoice'>;
  activity: Pick<ActivityService, 'record'>;
}) {
  /**
   * The credit a paid order set aside, taken from the ledger under the account lock and only
   * while the account has it free; false when it does not.
   */
  async function takeCredit(tx: Tx, paid: OrderRow, at: Date): Promise<boolean> {
    if (paid.creditAppliedMinor <= 0) return true;
    // The paid order no longer counts as reserved: what others set aside must stay theirs.
    const free =
      (await deps.credits.balance(tx, paid.accountId)) -
      (await deps.orders.reservedCredit(tx, paid.accountId));
    if (free < paid.creditAppliedMinor) return false;
    await deps.credits.use(tx, {
      accountId: paid.accountId,
      amountMinor: paid.creditAppliedMinor,
      orderId: paid.id,
      serviceId: paid.serviceId,
      at,
    });
    return true;
  }

  /** What a paid order buys: a service, more time or a new plan. */
  async function fulfil(tx: Tx, paid: OrderRow, at: Date): Promise<ServiceFulfilment | null> {
    switch (paid.kind) {
      case 'new': {
        const service = await deps.services.createForOrder(tx, {
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
        await deps.orders.setService(tx, paid.id, service.id);
        return {
          kind: 'new',
          serviceId: service.id,
          restoredFrom: null,
          period: { start: at, end: service.validUntil },
        };
      }
      case 'extension': {
        // A renewal's unpaid invoice printed the span after the paid time: paid late, that span
        // is what it buys, so the invoice stays true (the anchor WHMCS and Hetzner keep too).
        const continuePaidTime = await deps.invoices.hasUnpaidInvoice(tx, paid.accountId, paid.id);
        const extended = paid.serviceId
          ? await deps.services.extend(tx, paid.serviceId, paid.months, at, { continuePaidTime })
          : undefined;
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
          await deps.planChanges.applyPaid(tx, paid.planChangeId, paid.breakdown.subtotal, at);
        return paid.serviceId ? { kind: 'plan_change', serviceId: paid.serviceId, restoredFrom: null } : null;
    }
  }

  /** Money taken for an order that buys nothing: account credit, what was paid before VAT. */
  async function creditInstead(tx: Tx, paid: OrderRow, providerId: string, at: Date): Promise<PaidOutcome> {
    const creditMinor = Math.max(0, paid.breakdown.subtotal - paid.creditAppliedMinor);
    if (creditMinor > 0) {
      await deps.credits.creditPayment(tx, {
        accountId: paid.accountId,
        amountMinor: creditMinor,
        orderId: paid.id,
        serviceId: paid.serviceId,
        at,
      });
    }
    const invoice = await deps.invoices.issueInTransaction(tx, paid.id, { at, method: providerId });
    await deps.activity.record(
      {
        accountId: paid.accountId,
        action: 'payment credited',
        tone: 'info',
        serviceId: paid.serviceId,
        details: { order_id: paid.id, amount: paid.amountMinor, credit: creditMinor, provider: providerId },
      },
      tx,
    );
    return {
      credited: { orderId: paid.id, accountId: paid.accountId, serviceId: paid.serviceId, creditMinor },
      invoice,
    };
  }

  return {
    /** The payment failed (an expired page, a declined card): the order says why. */
    paymentFailed: deps.orders.markFailed,

    /**
     * The payment of `orderId` succeeded (counted once: the caller marked its session).
     * `paid_already` when the order had been paid by another payment: the caller gives it back.
     */
    async paymentSucceeded(
      tx: Tx,
      payment: {
        orderId: string;
        accountId: string;
        providerId: string;
        /** False when account credit paid: no money to keep or give back. */
        movesMoney: boolean;
      },
      at: Date,
    ): Promise<PaidOutcome | 'paid_already'> {
      const { providerId } = payment;
      // Credit decisions of the account wait for each other: placing an order, paying one.
      await deps.credits.lockAccount(tx, payment.accountId);
      const paid = await deps.orders.markPaid(tx, payment.orderId, at);
      if (paid) {
        if (!(await takeCredit(tx, paid, at))) {
          // The credit it counted on went elsewhere: the money becomes credit, nothing is bought.
          if (paid.planChangeId) await deps.planChanges.cancel(tx, paid.planChangeId, at);
          return creditInstead(tx, paid, providerId, at);
        }
        const fulfilled = await fulfil(tx, paid, at);
        // In the same transaction: no paid order without its invoice, no gap in the numbers. The
        // invoice prints the span the payment bought, as stored, never one worked out again.
        const invoice = await deps.invoices.issueInTransaction(tx, paid.id, {
          at,
          method: providerId,
          ...(fulfilled?.period ? { period: fulfilled.period } : {}),
        });
        await deps.activity.record(
          {
            accountId: paid.accountId,
            action: 'payment completed',
            tone: 'success',
            serviceId: fulfilled?.serviceId ?? null,
            details: { order_id: paid.id, amount: paid.amountMinor, provider: providerId },
          },
          tx,
        );
        return { paid, fulfilled, invoice };
      }
      if (!payment.movesMoney) return {};
      // Paid at a page opened before its order was cancelled: kept as credit, the order's own
      // credit reservation is not taken (another order may be using it).
      const late = await deps.orders.markCancelledPaid(tx, payment.orderId, at);
      if (late) return creditInstead(tx, late, providerId, at);
      return 'paid_already';
    },
  };
}

export type PaymentFulfilment = ReturnType<typeof createPaymentFulfilment>;
