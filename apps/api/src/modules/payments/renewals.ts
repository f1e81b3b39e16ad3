// Automatic renewal and dunning (issue 38), the hourly job `billing.renewals`.
//
// Renewal: an active service with auto_renew, whose account keeps a card, ending within
// RENEWAL_LEAD_DAYS, gets one renewal row for that end date (unique (service_id, period_end)).
// The run that claims the row (a conditional update: one worker or API process at a time) makes
// the extension order the way a customer's "extend" does (orders.extend: today's catalogue price
// and VAT, the service's plan and period), then charges the kept card off-session with the key
// `renewal-<row>-<attempts>`. A success is paid through the payments module's exactly-once path
// (a paid RENEWAL invoice, the end date one period later, the payment mail). A crash anywhere is
// repaired by the next run: the same order, the same key, which the provider never charges twice.
//
// Dunning: a declined charge, or one the bank wants authenticated, issues the order's invoice
// unpaid and mails the owner a link to pay it with any card (POST /payments/session
// `{ invoice_id }`). The kept card is tried at RENEWAL_RETRY_DAYS after the first failure (day 0
// is that failure), each failure mailed, while the service has not ended (it is active, or
// expired within its grace: paying restores it) and the order is not paid; paying by the link
// pays that invoice and stops the retries. The service keeps running until its end date; then the
// expiry lifecycle of the sweep applies, as without renewal.
import { RENEWAL_LEAD_DAYS, RENEWAL_RETRY_DAYS } from '@debesis/contract';
import { addMonths } from '@debesis/pricing';
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { OrderRow } from '../orders/orders.queries.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { ServicesQueries } from '../services/services.queries.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { paymentMethods } from './payment-methods.table.ts';
import type { KeptCardCharge, PaymentMethodsService } from './payment-methods.service.ts';
import type { PaymentsService } from './payments.service.ts';
import { renewalFailedMail } from './renewals.mail.ts';
import { serviceRenewals, type ServiceRenewalRow } from './renewals.table.ts';

/** Hourly, at minute 41 (jobs/schedules.ts). */
export const RENEWALS_CRON = '41 * * * *';
/** How long a run holds a renewal it claimed; one that died holding it is overtaken after. */
export const RENEWAL_CLAIM_MS = 10 * 60_000;
/** Renewals worked per run at most (the next run takes the rest). */
const BATCH = 500;
const DAY_MS = 86_400_000;
/**
 * The states a renewal is still charged in: running, or expired (its data kept, access off, for
 * EXPIRED_GRACE_DAYS; a payment restores it). The last retry (day 6) falls within that grace.
 */
const RETRYABLE = new Set<string>(['active', 'expired']);

/** Where the dunning mail's link leads: the page that pays an unpaid invoice. */
export function invoicePayPath(invoiceId: string): string {
  return `/dashboard/billing/invoices/${invoiceId}/pay`;
}

export interface RenewalRunResult {
  /** Renewal rows made this run (one per service and end date). */
  started: number;
  paid: number;
  failed: number;
}

export function createRenewals(deps: {
  db: Db;
  orders: Pick<OrdersService, 'extend' | 'findById'>;
  methods: Pick<PaymentMethodsService, 'chargeKeptCard' | 'keptCardChargeOutcome'>;
  payments: Pick<PaymentsService, 'recordKeptCardPayment' | 'createSession'>;
  billing: Pick<BillingService, 'issueUnpaidInTransaction'>;
  users: Pick<UsersQueries, 'findById'>;
  /** The services module's reads: the services due a renewal, and one service. */
  services: Pick<ServicesQueries, 'renewalsDue' | 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  sendMail: (message: MailMessage) => Promise<void>;
  providerId: string;
  publicUrl: string;
  now: () => Date;
}) {
  const db = deps.db;
  const servicesQueries = deps.services;

  /** A renewal row for every service due one, once per end date. */
  async function startDue(at: Date): Promise<number> {
    const ending = await servicesQueries.renewalsDue(at, new Date(at.getTime() + RENEWAL_LEAD_DAYS * DAY_MS));
    if (ending.length === 0) return 0;
    // Only accounts that keep a card; each end date once (the unique index decides races).
    const keeping = new Set(
      (
        await db
          .select({ accountId: paymentMethods.accountId })
          .from(paymentMethods)
          .where(inArray(paymentMethods.accountId, [...new Set(ending.map((service) => service.accountId))]))
      ).map((row) => row.accountId),
    );
    const due = ending
      .filter((service) => keeping.has(service.accountId))
      .map((service) => ({
        accountId: service.accountId,
        serviceId: service.id,
        validUntil: service.validUntil,
      }));
    if (due.length === 0) return 0;
    const made = await db
      .insert(serviceRenewals)
      .values(
        due.map((service) => ({
          accountId: service.accountId,
          serviceId: service.serviceId,
          periodEnd: service.validUntil,
          nextAttemptAt: at,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: serviceRenewals.id });
    return made.length;
  }

  /** The renewals whose next charge is due and nobody works on now. */
  async function dueIds(at: Date): Promise<string[]> {
    const rows = await db
      .select({ id: serviceRenewals.id })
      .from(serviceRenewals)
      .where(
        and(
          eq(serviceRenewals.status, 'open'),
          lte(serviceRenewals.nextAttemptAt, at),
          or(isNull(serviceRenewals.claimedUntil), lt(serviceRenewals.claimedUntil, at)),
        ),
      )
      .orderBy(serviceRenewals.nextAttemptAt)
      .limit(BATCH);
    return rows.map((row) => row.id);
  }

  /** Takes the renewal for this run, or undefined when another run holds it or it is not due. */
  async function claim(id: string, at: Date): Promise<ServiceRenewalRow | undefined> {
    const [row] = await db
      .update(serviceRenewals)
      .set({ claimedUntil: new Date(at.getTime() + RENEWAL_CLAIM_MS), updatedAt: at })
      .where(
        and(
          eq(serviceRenewals.id, id),
          eq(serviceRenewals.status, 'open'),
          lte(serviceRenewals.nextAttemptAt, at),
          or(isNull(serviceRenewals.claimedUntil), lt(serviceRenewals.claimedUntil, at)),
        ),
      )
      .returning();
    return row;
  }

  async function settle(
    id: string,
    values: Partial<
      Pick<
        ServiceRenewalRow,
        'status' | 'attempts' | 'nextAttemptAt' | 'firstFailedAt' | 'lastError' | 'chargeReference'
      >
    >,
    at: Date,
  ): Promise<void> {
    await db
      .update(serviceRenewals)
      .set({ ...values, claimedUntil: null, updatedAt: at })
      .where(eq(serviceRenewals.id, id));
  }

  /** The renewal's order: the one it made, or a new extension order (kept on the row at once). */
  async function orderOf(row: ServiceRenewalRow): Promise<OrderRow | undefined> {
    if (row.orderId) return deps.orders.findById(row.orderId);
    const order = await deps.orders.extend(row.accountId, row.serviceId, undefined, { ip: null });
    await db
      .update(serviceRenewals)
      .set({ orderId: order.id })
      .where(and(eq(serviceRenewals.id, row.id), isNull(serviceRenewals.orderId)));
    return deps.orders.findById(order.id);
  }

  async function failed(
    row: ServiceRenewalRow,
    order: OrderRow,
    charge: Exclude<KeptCardCharge, { status: 'succeeded' | 'pending' }>,
    at: Date,
  ): Promise<void> {
    const service = await servicesQueries.findById(row.serviceId);
    const validUntil = service?.validUntil ?? row.periodEnd;
    const invoice = await inTransaction(db, (tx) =>
      deps.billing.issueUnpaidInTransaction(tx, order.id, {
        at,
        method: deps.providerId,
        period: { start: validUntil, end: addMonths(validUntil, order.months) },
      }),
    );
    const attempts = row.attempts + 1;
    const firstFailedAt = row.firstFailedAt ?? at;
    const nextDay = RENEWAL_RETRY_DAYS[attempts];
    const nextAttemptAt = nextDay === undefined ? null : new Date(firstFailedAt.getTime() + nextDay * DAY_MS);
    const reason = charge.status === 'no_card' ? { code: 'no_card', message: '' } : charge.reason;
    const owner = await deps.users.findById(row.accountId);
    // Sent before it is noted: the mail's id (renewal and attempt) makes a repeat a no-op.
    if (owner && invoice) {
      await deps.sendMail(
        renewalFailedMail({
          renewalId: row.id,
          attempt: attempts,
          to: owner.email,
          firstName: owner.firstName,
          language: owner.settings.language,
          serviceName: service?.name ?? order.productName,
          invoiceNumber: invoice.number,
          amountMinor: order.amountMinor,
          validUntil,
          card: charge.status === 'no_card' ? null : charge.card,
          authentication: charge.status === 'requires_action',
          nextAttemptAt,
          link: `${deps.publicUrl}${invoicePayPath(invoice.id)}`,
        }),
      );
    }
    await settle(
      row.id,
      {
        attempts,
        firstFailedAt,
        lastError: reason.code,
        chargeReference: null,
        ...(nextAttemptAt ? { nextAttemptAt } : { status: 'failed' as const }),
      },
      at,
    );
    await deps.activity.record({
      accountId: row.accountId,
      action: 'renewal failed',
      tone: 'error',
      serviceId: row.serviceId,
      details: {
        order_id: order.id,
        invoice_id: invoice?.id ?? null,
        attempt: attempts,
        reason: reason.code,
        next_attempt_at: nextAttemptAt?.toISOString() ?? null,
      },
    });
  }

  /** One claimed renewal: its order, its charge, what came of it. */
  async function work(row: ServiceRenewalRow, at: Date): Promise<'paid' | 'failed' | 'waiting' | 'closed'> {
    const service = await servicesQueries.findById(row.serviceId);
    const order = await orderOf(row);
    if (!order) {
      await settle(row.id, { status: 'cancelled' }, at);
      return 'closed';
    }
    const key = `renewal-${row.id}-${row.attempts}`;
    // A charge still settling is read, never made again, whatever became of the order or the
    // service meanwhile: money it took is recorded (the payment path credits what buys nothing).
    if (row.chargeReference) {
      const outcome = await deps.methods.keptCardChargeOutcome(row.accountId, row.chargeReference);
      return concluded(row, order, key, outcome, at);
    }
    if (order.status === 'PAID') {
      await settle(row.id, { status: 'paid' }, at);
      return 'paid';
    }
    if (order.status === 'CANCELLED') {
      await settle(row.id, { status: 'cancelled' }, at);
      return 'closed';
    }
    // Retries stop once the service has ended (cancelled, quarantined, terminated…: anything but
    // running or expired within its grace, which paying restores) or its renewal was switched off.
    if (!service || !RETRYABLE.has(service.status) || !service.autoRenew) {
      await settle(row.id, { status: 'lapsed' }, at);
      return 'closed';
    }
    if (order.amountMinor === 0) {
      // Account credit pays it all: the same path as the customer's page, no card.
      await deps.payments.createSession(row.accountId, order.id, order.status === 'FAILED' ? 'retry' : 'new');
      await settle(row.id, { status: 'paid' }, at);
      return 'paid';
    }
    const charge = await deps.methods.chargeKeptCard({
      accountId: row.accountId,
      amountMinor: order.amountMinor,
      currency: 'EUR',
      idempotencyKey: key,
      description: `${order.productName}, ${order.months} mo. (renewal)`,
    });
    return concluded(row, order, key, charge, at);
  }

  /** What a charge's answer (`key`'s) makes of the renewal. */
  async function concluded(
    row: ServiceRenewalRow,
    order: OrderRow,
    key: string,
    charge: KeptCardCharge,
    at: Date,
  ): Promise<'paid' | 'failed' | 'waiting'> {
    switch (charge.status) {
      case 'succeeded':
        await deps.payments.recordKeptCardPayment({
          accountId: row.accountId,
          orderId: order.id,
          amountMinor: order.amountMinor,
          reference: charge.reference,
          key,
        });
        await settle(row.id, { status: 'paid' }, at);
        return 'paid';
      case 'pending':
        // Not settled yet: the next run reads this charge by its reference. Not asked again by
        // its key, which Stripe forgets after a day (a new charge would be made).
        await settle(row.id, { chargeReference: charge.reference }, at);
        return 'waiting';
      default:
        await failed(row, order, charge, at);
        return 'failed';
    }
  }

  return {
    /** One run: new renewals started, the due ones charged. Running it again charges nothing. */
    async run(): Promise<RenewalRunResult> {
      const at = deps.now();
      const started = await startDue(at);
      const result: RenewalRunResult = { started, paid: 0, failed: 0 };
      for (const id of await dueIds(at)) {
        const row = await claim(id, at);
        if (!row) continue;
        const outcome = await work(row, at);
        if (outcome === 'paid') result.paid += 1;
        if (outcome === 'failed') result.failed += 1;
      }
      return result;
    },
  };
}

export type Renewals = ReturnType<typeof createRenewals>;

/**
 * The provider says a pending charge settled (`charge.settled`): its renewal is due at once.
 * True when one was waiting for it (the caller then asks for a run). A repeated event finds it
 * due already, or paid, and changes nothing that matters.
 */
export async function renewalChargeSettled(db: Db, reference: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(serviceRenewals)
    .set({ nextAttemptAt: at, updatedAt: at })
    .where(and(eq(serviceRenewals.chargeReference, reference), eq(serviceRenewals.status, 'open')))
    .returning({ id: serviceRenewals.id });
  return rows.length > 0;
}
