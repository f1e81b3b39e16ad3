// Orders: a customer's request to buy, priced once with the shared pricing function and the
// customer's VAT situation at that moment (vat-situation.ts: evidence, not the profile country),
// then paid through a payment session.
import type { CreateOrderRequest, OpenOrder, Order, OrderCapacity, VatEvidence } from '@debesis/contract';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { ProductsService } from '../products/products.service.ts';
import type { ServicesQueries } from '../services/services.queries.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Executor, type Tx } from '../../db/transaction.ts';
import type { CreditsInTransaction } from '../credits/credits.service.ts';
import { placeableNowGb } from '../services/placement.ts';
import type { PlacePricedOrder } from './orders.placement.ts';
import { presentOrder } from './orders.presenter.ts';
import { createOrdersQueries, type OrderRow, type OrdersQueries } from './orders.queries.ts';
import type { QuotesService, VatCustomer } from './quotes.service.ts';
import type { VatCustomerOf } from './vat-situation.ts';

interface Meta {
  ip: string | null;
}

export function createOrdersService(deps: {
  db: Db;
  queries: OrdersQueries;
  quotes: Pick<QuotesService, 'price'>;
  products: Pick<ProductsService, 'get'>;
  vatCustomerOf: VatCustomerOf;
  services: Pick<ServicesQueries, 'findForAccount'>;
  activity: Pick<ActivityService, 'record'>;
  /** Inserts an order with the account's free credit applied (orders.placement.ts). */
  placePricedOrder: PlacePricedOrder;
  credits: Pick<CreditsInTransaction, 'lockAccount'>;
  /** Cancels the plan change an order paid for, in the order's transaction (plan-changes module). */
  cancelPlanChange: (tx: Tx, planChangeId: string, at: Date) => Promise<unknown>;
  /** Closes the payment pages of a cancelled order (payments module). */
  closePaymentSessions?: (orderId: string) => Promise<void>;
  /**
   * A cancelled order's unpaid invoice becomes `void` (billing module), in the cancellation's
   * transaction. No path issues an unpaid invoice yet (dunning will); nothing to do until then.
   */
  voidUnpaidInvoice?: (db: Executor, accountId: string, orderId: string) => Promise<unknown>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function load(accountId: string, id: string): Promise<OrderRow> {
    const row = await deps.queries.findForAccount(accountId, id);
    if (!row) throw notFound();
    return row;
  }

  async function place(
    accountId: string,
    kind: 'new' | 'extension',
    request: CreateOrderRequest,
    serviceId: string | null,
    meta: Meta,
  ): Promise<OrderRow> {
    const customer = await deps.vatCustomerOf(accountId, meta.ip);
    const breakdown = await deps.quotes.price(request, customer);
    const product = await deps.products.get(breakdown.product_id);
    return inTransaction(deps.db, async (tx) => {
      const row = await deps.placePricedOrder(tx, {
        accountId,
        kind,
        serviceId,
        productId: breakdown.product_id,
        productName: product.name,
        serviceName: request.name ?? null,
        diskSpace: breakdown.disk_space,
        usersCount: breakdown.users_count,
        periodId: breakdown.period_id,
        months: breakdown.months,
        breakdown,
        customer: customerRecord(customer, breakdown.vat_evidence),
        createdAt: now(),
        updatedAt: now(),
      });
      await deps.activity.record(
        {
          accountId,
          action: 'order created',
          tone: 'success',
          ip: meta.ip,
          serviceId,
          details: { order_id: row.id, kind, product_id: row.productId, amount: row.amountMinor },
        },
        tx,
      );
      return row;
    });
  }

  return {
    /** The account's VAT situation now, from `ip` and what it holds (vat-situation.ts). */
    customerOf: deps.vatCustomerOf,

    async create(accountId: string, request: CreateOrderRequest, meta: Meta): Promise<Order> {
      return presentOrder(await place(accountId, 'new', request, null, meta));
    },

    /**
     * Names the workspace a new order creates, at checkout, just before its payment opens. Only a
     * new order not paid yet takes a name; for any other the payment's own checks answer.
     */
    async nameService(accountId: string, orderId: string, name: string): Promise<void> {
      await deps.queries.setServiceName(accountId, orderId, name);
    },

    /** After sign-in: the plan chosen as a guest becomes an order, once (a repeat finds it). */
    async fromPendingPlan(accountId: string, request: CreateOrderRequest, meta: Meta) {
      const existing = await deps.queries.findAwaiting(accountId, {
        productId: request.product_id,
        diskSpace: request.disk_space,
        usersCount: request.users_count,
        periodId: request.period_id,
      });
      const row = existing ?? (await place(accountId, 'new', request, null, meta));
      return {
        status: existing ? ('order_exists' as const) : ('order_created' as const),
        order_id: row.id,
        redirect_url: `/dashboard/payments/new/${row.id}/payment`,
      };
    },

    /** An order that adds a billing period to an existing service, at today's prices. */
    async extend(
      accountId: string,
      serviceId: string,
      periodId: string | undefined,
      meta: Meta,
    ): Promise<Order> {
      const service = await deps.services.findForAccount(accountId, serviceId);
      if (!service) throw notFound();
      const request = {
        product_id: service.productId,
        disk_space: service.diskSpace,
        users_count: service.usersCount,
        period_id: periodId ?? service.periodId,
      };
      // One unpaid extension per service: asking again for the same period pays the waiting
      // order; another period replaces it, so abandoned orders do not keep credit set aside.
      const waiting = await deps.queries.findAwaitingExtension(accountId, service.id);
      if (waiting?.periodId === request.period_id) return presentOrder(waiting);
      if (waiting && (await deps.queries.cancel(waiting.id, now()))) {
        await deps.voidUnpaidInvoice?.(deps.db, accountId, waiting.id);
        // Its card pages take no money any more; one paid meanwhile becomes credit, never buys.
        await deps.closePaymentSessions?.(waiting.id);
      }
      return presentOrder(await place(accountId, 'extension', request, service.id, meta));
    },

    async list(accountId: string): Promise<Order[]> {
      return (await deps.queries.listForAccount(accountId)).map(presentOrder);
    },

    async get(accountId: string, id: string): Promise<Order> {
      return presentOrder(await load(accountId, id));
    },

    /** Orders still to be paid or cancelled (AWAITING_PAYMENT, FAILED), with their service's name. */
    async listOpen(accountId: string): Promise<OpenOrder[]> {
      const rows = await deps.queries.listOpenForAccount(accountId);
      const names = new Map<string, string | null>();
      for (const serviceId of new Set(rows.flatMap((row) => (row.serviceId ? [row.serviceId] : [])))) {
        names.set(serviceId, (await deps.services.findForAccount(accountId, serviceId))?.name ?? null);
      }
      return rows.map((row) => ({
        ...presentOrder(row),
        service_name: row.serviceId ? (names.get(row.serviceId) ?? null) : null,
      }));
    },

    /**
     * The customer gives up an unpaid order: CANCELLED, the credit it set aside is free again, a
     * plan change it paid for is cancelled with it and its card pages close. A paid order is
     * refused; one already cancelled answers as it is. Under the account lock, as paying takes it.
     */
    async cancel(accountId: string, id: string, meta: Meta): Promise<Order> {
      const row = await load(accountId, id);
      if (row.status === 'PAID') throw new AppError('order_not_cancellable');
      if (row.status === 'CANCELLED') return presentOrder(row);
      const at = now();
      const cancelled = await inTransaction(deps.db, async (tx) => {
        await deps.credits.lockAccount(tx, accountId);
        if (!(await createOrdersQueries(tx).cancel(row.id, at))) return false;
        if (row.planChangeId) await deps.cancelPlanChange(tx, row.planChangeId, at);
        await deps.voidUnpaidInvoice?.(tx, accountId, row.id);
        await deps.activity.record(
          {
            accountId,
            action: 'order cancelled',
            tone: 'warning',
            ip: meta.ip,
            serviceId: row.serviceId,
            details: { order_id: row.id, kind: row.kind, product_id: row.productId, amount: row.amountMinor },
          },
          tx,
        );
        return true;
      });
      const current = await load(accountId, id);
      // Paid meanwhile (its payment event came first): it stays paid.
      if (!cancelled) {
        if (current.status === 'PAID') throw new AppError('order_not_cancellable');
        return presentOrder(current);
      }
      // Its card pages take no money any more; one paid meanwhile becomes credit, never buys.
      await deps.closePaymentSessions?.(row.id);
      return presentOrder(current);
    },

    /**
     * Whether the nodes could place a workspace of `diskSpace` GB now, asked before paying so an
     * order that would wait for resources is never taken silently (a read, not a reservation).
     */
    async capacity(diskSpace: number): Promise<OrderCapacity> {
      const largest = await placeableNowGb(deps.db, now());
      return { disk_space: diskSpace, fits_now: diskSpace <= largest, largest_disk_space: largest };
    },

    /** Any account's order, by its id (a payment session names it). */
    findById: (id: string): Promise<OrderRow | undefined> => deps.queries.findById(id),

    /** The order a payment may be taken for: awaiting payment, or failed and reopened for a retry. */
    async payable(accountId: string, id: string, options: { reopenFailed: boolean }): Promise<OrderRow> {
      const row = await load(accountId, id);
      if (row.status === 'FAILED' && options.reopenFailed) {
        await deps.queries.reopen(row.id, now());
        return load(accountId, id);
      }
      if (row.status !== 'AWAITING_PAYMENT') throw new AppError('order_not_payable');
      return row;
    },
  };
}

/** Who bought, as priced: the country taxed, business status and the VAT number priced with. */
export function customerRecord(
  customer: VatCustomer,
  evidence: VatEvidence | undefined,
): OrderRow['customer'] {
  return {
    country: evidence?.country ?? customer.country,
    is_business: customer.isBusiness,
    vat_number: customer.vatNumber ?? null,
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;

/**
 * Orders as other modules' commands change them (a payment, a plan change), in the caller's
 * transaction. Each move is conditional, so a repeated or late call changes nothing.
 */
export const ordersInTransaction = {
  findById: (tx: Tx, id: string) => createOrdersQueries(tx).findById(id),
  /** Credit set aside by the account's orders awaiting payment. */
  reservedCredit: (tx: Tx, accountId: string) => createOrdersQueries(tx).reservedCredit(accountId),
  markPaid: (tx: Tx, id: string, at: Date) => createOrdersQueries(tx).markPaid(id, at),
  /** A cancelled order paid anyway (a page opened before it was cancelled). */
  markCancelledPaid: (tx: Tx, id: string, at: Date) => createOrdersQueries(tx).markCancelledPaid(id, at),
  markFailed: (tx: Tx, id: string, error: { message: string; details: string }, at: Date) =>
    createOrdersQueries(tx).markFailed(id, error, at),
  cancel: (tx: Tx, id: string, at: Date) => createOrdersQueries(tx).cancel(id, at),
  setService: (tx: Tx, id: string, serviceId: string) => createOrdersQueries(tx).setService(id, serviceId),
};

export type OrdersInTransaction = typeof ordersInTransaction;
