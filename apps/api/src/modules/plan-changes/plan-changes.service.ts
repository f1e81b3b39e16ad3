// Plan changes (spec §2 plans/change, §3 plan-change breakdown, §5 plan-change rules).
//
// A change applies to the service's paid span (paid_from → valid_until). Each configuration's
// price for the span is its catalogue price for the service's billing period, after the period
// discount and before VAT, scaled to the span's months; the pricing package prorates both to the
// remaining days (whole UTC days, one rounding) and the difference is:
//   upgrade   → charged now (with the account's credit and VAT applied) through an order;
//   downgrade → account credit used by the next payment, never cash; needs the customer's
//               confirmation that upgrading back later gives no credit back. When it shrinks
//               the disk of a placed workspace, the credit waits until the node reports the
//               smaller disk in place; a shrink the node refuses (the data does not fit) undoes
//               the change (old plan back, no credit, an activity entry says why). Until the
//               node has answered, no other change of that service is taken;
//   same      → an equal-price change of resources, applied at once.
// The target must differ from the current configuration and hold what the service uses now: its
// active users (spec §5; an inactive user cannot sign in, and activating one is refused while the
// active users fill the plan) and its stored data.
//
// A larger disk (a bigger plan, extra disk) must fit on the workspace's node, by placement's rule
// (services/node-room.ts), as a new order is checked before payment: the quote says how much
// more the node has room for and the largest size of the target plan that fits; making a change
// that does not fit is refused (`node_room_exceeded`, the room in its field error) unless the
// customer chose to pay and wait (`wait_for_room`). The room is taken when the change applies
// (paid, or at once when nothing is to pay), under placement's lock; a change that finds none
// then waits (`awaiting_room`) and is applied when the node has room. A smaller or equal disk is
// never held back.
import type {
  PlanChange,
  PlanChangeQuote,
  PlanChangeQuoteRequest,
  PlanChangeRoom,
  PlanConfiguration,
} from '@debesis/contract';
import {
  applyCredit,
  bandwidthFor,
  calculatePrice,
  divideRounded,
  findOption,
  InvalidSelectionError,
  maxDiskFor,
  planChangeQuote,
  type PricingProduct,
} from '@debesis/pricing';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, notFound, type AppFieldError } from '../../http/app-error.ts';
import type { PlanUsersInUse } from '../workspace/workspace-feature.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { CreditsInTransaction, CreditsService } from '../credits/credits.service.ts';
import type { PlacePricedOrder } from '../orders/orders.placement.ts';
import { customerRecord, type OrdersInTransaction, type OrdersService } from '../orders/orders.service.ts';
import type { QuotesService, VatCustomer } from '../orders/quotes.service.ts';
import type { ProductsService } from '../products/products.service.ts';
import { growthRoom, type GrowthRoom } from '../services/node-room.ts';
import type { ServiceRow, ServicesQueries } from '../services/services.queries.ts';
import type { StorageReport } from '../workspace/workspace-state.ts';
import type { PlanChangeApplication } from './plan-changes.apply.ts';
import { createPlanChangesQueries, type PlanChangeRow } from './plan-changes.queries.ts';

const GB = 1024 ** 3;
/** Statuses whose plan may change: paid and not stopped by an overdue or ended subscription. */
const CHANGEABLE = new Set<ServiceRow['status']>(['processing', 'resourcePending', 'active']);

interface Meta {
  ip: string | null;
}

export function presentPlanChange(row: PlanChangeRow): PlanChange {
  return {
    ...row.quote,
    // Changes quoted before the room was part of a quote have none.
    room: 'room' in row.quote ? row.quote.room : null,
    id: row.id,
    status: row.status,
    order_id: row.orderId,
    redirect_url:
      row.status === 'awaiting_payment'
        ? `/dashboard/payments/plan-change/${row.id}/payment`
        : '/dashboard/plans',
    created_at: row.createdAt.toISOString(),
    applied_at: row.appliedAt?.toISOString() ?? null,
  };
}

export function createPlanChangesService(deps: {
  db: Db;
  products: Pick<ProductsService, 'get'>;
  quotes: Pick<QuotesService, 'price' | 'vat'>;
  orders: Pick<OrdersService, 'customerOf'> & Pick<OrdersInTransaction, 'cancel'>;
  /** An upgrade's order, placed in the change's transaction (orders module). */
  placePricedOrder: PlacePricedOrder;
  services: Pick<ServicesQueries, 'findForAccount'>;
  credits: Pick<CreditsService, 'free'> & Pick<CreditsInTransaction, 'lockAccount'>;
  application: Pick<PlanChangeApplication, 'applyOrWait' | 'settleShrink'>;
  /**
   * What of the plan's users the service's features hold now, each with the field error a smaller
   * target gets (active users, VPN users: workspace-feature.ts `planUsers`).
   */
  usersInUse: (serviceId: string) => Promise<PlanUsersInUse[]>;
  activity: Pick<ActivityService, 'record'>;
  /** Closes the payment pages of an order a newer change cancelled (payments module). */
  closePaymentSessions?: (orderId: string) => Promise<void>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const changes = createPlanChangesQueries(deps.db);

  async function changeableService(accountId: string, serviceId: string, at: Date): Promise<ServiceRow> {
    const service = await deps.services.findForAccount(accountId, serviceId);
    if (!service) throw notFound();
    if (service.status === 'expired' || service.status === 'quarantined' || service.validUntil <= at) {
      throw new AppError('service_expired');
    }
    if (!CHANGEABLE.has(service.status)) throw new AppError('service_not_changeable');
    return service;
  }

  /** The service as it is, priced at today's catalogue (also when its plan is no longer sold). */
  async function currentConfiguration(service: ServiceRow): Promise<PlanConfiguration> {
    const product = await deps.products.get(service.productId);
    const selection = {
      disk_space: service.diskSpace,
      users_count: service.usersCount,
      period_id: service.periodId,
    };
    try {
      return configuration(product.name, calculatePrice(product, selection, null));
    } catch (error) {
      if (!(error instanceof InvalidSelectionError)) throw error;
      // The catalogue no longer offers this exact configuration: value it at what the service costs.
      const months = service.paidMonths > 0 ? Math.min(service.paidMonths, 24) : 1;
      return configuration(product.name, {
        product_id: service.productId,
        ...selection,
        months,
        subtotal: service.monthlyPriceMinor * months,
      });
    }
  }

  function configuration(
    productName: string,
    breakdown: {
      product_id: string;
      disk_space: number;
      users_count: number;
      period_id: string;
      months: number;
      subtotal: number;
    },
  ): PlanConfiguration {
    return {
      product_id: breakdown.product_id,
      product_name: productName,
      disk_space: breakdown.disk_space,
      bandwidth: bandwidthFor(breakdown.disk_space),
      users_count: breakdown.users_count,
      period_id: breakdown.period_id,
      months: breakdown.months,
      period_price: breakdown.subtotal,
    };
  }

  /** The target on the service's billing period; an unknown plan or bad resources are field errors. */
  async function targetConfiguration(service: ServiceRow, request: PlanChangeQuoteRequest) {
    const breakdown = await deps.quotes.price(
      {
        product_id: request.product_id,
        disk_space: request.disk_space,
        users_count: request.users_count,
        period_id: service.periodId,
      },
      null,
    );
    const product = await deps.products.get(request.product_id);
    return configuration(product.name, breakdown);
  }

  async function refuseWhatDoesNotFit(service: ServiceRow, target: PlanConfiguration): Promise<void> {
    const problems: AppFieldError[] = [];
    for (const held of await deps.usersInUse(service.id)) {
      if (target.users_count < held.count) {
        problems.push({ field: 'users_count', code: held.code, values: { limit: held.count } });
      }
    }
    const usedGb = Math.ceil((service.diskUsedBytes ?? 0) / GB);
    if (target.disk_space < usedGb) {
      problems.push({ field: 'disk_space', code: 'below_disk_in_use', values: { limit: usedGb } });
    }
    if (problems.length > 0) throw new AppError('plan_does_not_fit', { fieldErrors: problems });
  }

  /** The largest disk of `product` (on its own steps) that fits in `room`; null when none does. */
  function largestFitting(product: PricingProduct, room: GrowthRoom, wanted: number): number | null {
    const step = findOption(product, 'disk_space')?.value ?? 0;
    const upper = Math.min(wanted, maxDiskFor(product), room.diskSpace + room.roomGb);
    if (upper < product.disk_space) return null;
    let disk =
      step > 0
        ? product.disk_space + Math.floor((upper - product.disk_space) / step) * step
        : product.disk_space;
    while (disk >= product.disk_space && !room.fits(disk)) {
      if (step === 0) return null;
      disk -= step;
    }
    return disk >= product.disk_space ? disk : null;
  }

  /** Whether the workspace's node has room for the target's disk; null when it does not grow. */
  async function nodeRoom(service: ServiceRow, target: PlanConfiguration): Promise<PlanChangeRoom | null> {
    if (target.disk_space <= service.diskSpace) return null;
    const room = await growthRoom(deps.db, service.id);
    if (!room) return null;
    return {
      fits_now: room.fits(target.disk_space),
      room_gb: room.roomGb,
      largest_disk_space: largestFitting(await deps.products.get(target.product_id), room, target.disk_space),
    };
  }

  const roomExceeded = (room: PlanChangeRoom) =>
    new AppError('node_room_exceeded', {
      fieldErrors: [{ field: 'disk_space', code: 'above_node_room', values: { limit: room.room_gb } }],
      extra: { room },
    });

  async function quote(
    accountId: string,
    request: PlanChangeQuoteRequest,
    meta: Meta,
  ): Promise<{
    service: ServiceRow;
    quote: PlanChangeQuote;
    vat: Awaited<ReturnType<QuotesService['vat']>>;
    customer: VatCustomer;
  }> {
    const at = now();
    const service = await changeableService(accountId, request.service_id, at);
    // A shrink still waiting for its node decides that change's credit: nothing new until then.
    if ((await changes.listCreditPending([service.id])).length > 0)
      throw new AppError('plan_change_applying');
    // A paid larger disk waits for room on the node: nothing new until it has it.
    if (service.pendingDiskSpace !== null) throw new AppError('plan_change_awaiting_room');
    if (
      request.product_id === service.productId &&
      request.disk_space === service.diskSpace &&
      request.users_count === service.usersCount
    ) {
      throw new AppError('same_configuration');
    }
    const [current, target] = [
      await currentConfiguration(service),
      await targetConfiguration(service, request),
    ];
    await refuseWhatDoesNotFit(service, target);
    const room = await nodeRoom(service, target);

    // Both prices cover the whole paid span, which may be several periods after early extensions.
    const spanPrice = (config: PlanConfiguration) =>
      divideRounded(config.period_price * service.paidMonths, Math.max(1, config.months));
    const prorated = planChangeQuote({
      currentPeriodPriceMinor: spanPrice(current),
      newPeriodPriceMinor: spanPrice(target),
      periodStart: service.paidFrom,
      periodEnd: service.validUntil,
      at,
    });
    // The same VAT situation as any order of the account's (evidence, not the profile country).
    const customer = await deps.orders.customerOf(accountId, meta.ip);
    const vat = await deps.quotes.vat(prorated.charge_minor, customer);
    const balance = await deps.credits.free(accountId);
    const charge = applyCredit(
      {
        subtotal: prorated.charge_minor,
        vat_rate: vat.vat_rate,
        vat_amount: vat.vat_amount,
        total: vat.total,
      },
      balance,
    );
    return {
      service,
      vat,
      customer,
      quote: {
        service_id: service.id,
        current,
        target,
        direction: prorated.direction,
        valid_until: service.validUntil.toISOString(),
        remaining_days: prorated.remaining_days,
        total_days: prorated.total_days,
        current_plan_value: prorated.current_plan_value,
        new_plan_value: prorated.new_plan_value,
        prorated_difference: prorated.prorated_difference,
        charge: {
          subtotal: charge.subtotal,
          credit_applied: charge.credit_applied,
          vat_rate: charge.vat_rate,
          vat_amount: charge.vat_amount,
          total: charge.total,
          currency: 'EUR',
          reverse_charge: vat.reverse_charge,
          outside_scope: vat.outside_scope,
          legal_note_key: vat.legal_note_key,
        },
        credit: prorated.credit_minor,
        credit_balance: balance,
        currency: 'EUR',
        requires_confirmation: prorated.direction === 'downgrade',
        room,
      },
    };
  }

  return {
    async quote(accountId: string, request: PlanChangeQuoteRequest, meta: Meta): Promise<PlanChangeQuote> {
      return (await quote(accountId, request, meta)).quote;
    },

    async create(
      accountId: string,
      request: PlanChangeQuoteRequest & { confirm_downgrade: boolean; wait_for_room: boolean },
      meta: Meta,
    ): Promise<PlanChange> {
      const priced = await quote(accountId, request, meta);
      const { service, quote: q } = priced;
      if (q.direction === 'downgrade' && !request.confirm_downgrade) {
        throw new AppError('downgrade_confirmation_required');
      }
      // Before any money: a disk the node has no room for only when the customer chose to wait.
      if (q.room && !q.room.fits_now && !request.wait_for_room) throw roomExceeded(q.room);
      const at = now();
      const paying = q.prorated_difference > 0;
      let replacedOrder: string | null | undefined;
      // Only a node that limits the storage (it reported a size) has a disk to shrink.
      const creditPending =
        !paying &&
        q.credit > 0 &&
        q.target.disk_space < q.current.disk_space &&
        service.nodeId !== null &&
        service.storageBytes !== null;
      const row = await inTransaction(deps.db, async (tx) => {
        const txChanges = createPlanChangesQueries(tx);
        // First, as a payment does: the account's credit and orders wait for each other.
        await deps.credits.lockAccount(tx, accountId);
        // One change per service waits for payment: a newer choice replaces an unpaid one.
        replacedOrder = await txChanges.cancelOpen(service.id, at);
        if (replacedOrder) await deps.orders.cancel(tx, replacedOrder, at);
        // One that needs no payment applies below, or waits for room like a paid one.
        const change = await txChanges.insert({
          accountId,
          serviceId: service.id,
          direction: q.direction,
          status: 'awaiting_payment',
          fromConfiguration: q.current,
          toConfiguration: q.target,
          quote: q,
          creditMinor: q.credit,
          creditPending,
          createdAt: at,
          updatedAt: at,
          appliedAt: null,
        });
        const recorded = async (row: PlanChangeRow) => {
          // A change waiting for room has its own entry (the application's).
          if (row.status === 'awaiting_room') return row;
          await deps.activity.record(
            {
              accountId,
              action: paying ? 'plan change ordered' : 'plan changed',
              tone: paying ? 'info' : 'success',
              ip: meta.ip,
              serviceId: service.id,
              details: {
                plan_change_id: row.id,
                direction: q.direction,
                from: q.current.product_id,
                to: q.target.product_id,
                disk_space: q.target.disk_space,
                users_count: q.target.users_count,
                ...(row.orderId ? { order_id: row.orderId } : {}),
                ...(q.credit > 0 && !paying
                  ? { [creditPending ? 'credit_pending' : 'credit']: q.credit }
                  : {}),
              },
            },
            tx,
          );
          return row;
        };
        if (!paying) {
          const done = await deps.application.applyOrWait(tx, change, at);
          if (!done) throw new Error('a new plan change was neither applied nor set waiting');
          // The room went between the quote and now: refused as the quote would have been.
          if (done.outcome === 'waiting' && !request.wait_for_room) {
            const room = await nodeRoom(service, q.target);
            throw roomExceeded(room ?? { fits_now: false, room_gb: 0, largest_disk_space: null });
          }
          return recorded(done.change);
        }
        const order = await deps.placePricedOrder(tx, {
          accountId,
          kind: 'plan_change',
          serviceId: service.id,
          planChangeId: change.id,
          productId: q.target.product_id,
          productName: q.target.product_name,
          diskSpace: q.target.disk_space,
          usersCount: q.target.users_count,
          periodId: q.target.period_id,
          // A plan change adds no time: it pays for the rest of the span.
          months: 0,
          breakdown: {
            product_id: q.target.product_id,
            period_id: q.target.period_id,
            months: 0,
            disk_space: q.target.disk_space,
            bandwidth: q.target.bandwidth,
            users_count: q.target.users_count,
            base_price: q.prorated_difference,
            option_costs: 0,
            period_subtotal: q.prorated_difference,
            discount_rate: 0,
            period_discount: 0,
            subtotal: q.prorated_difference,
            // Before credit: placing the order takes the account's free credit off, then VAT.
            vat_rate: priced.vat.vat_rate,
            vat_amount: priced.vat.vat_amount,
            total: priced.vat.total,
            currency: 'EUR',
            includes_vat: true,
            reverse_charge: priced.vat.reverse_charge,
            outside_scope: priced.vat.outside_scope,
            vat_reason: priced.vat.reason,
            legal_note_key: priced.vat.legal_note_key,
            vat_number_valid: priced.vat.vat_number_valid,
            ...(priced.vat.vat_evidence ? { vat_evidence: priced.vat.vat_evidence } : {}),
            lines: [],
          },
          customer: customerRecord(priced.customer, priced.vat.vat_evidence),
          createdAt: at,
          updatedAt: at,
        });
        await txChanges.setOrder(change.id, order.id);
        return recorded({ ...change, orderId: order.id });
      });
      // The replaced order's card pages take no money any more.
      if (replacedOrder) await deps.closePaymentSessions?.(replacedOrder);
      return presentPlanChange(row);
    },

    /**
     * What nodes report of their workspaces' storage: each downgrade waiting for it gets its
     * credit or is undone, and the owner's activity log says which.
     */
    async storageReported(reports: readonly StorageReport[], at: Date): Promise<void> {
      const pending = await changes.listCreditPending(reports.map((report) => report.serviceId));
      const byService = new Map(reports.map((report) => [report.serviceId, report]));
      for (const change of pending) {
        const report = byService.get(change.serviceId);
        if (!report) continue;
        await deps.application.settleShrink(change, report, at, (tx, outcome) =>
          deps.activity.record(
            {
              accountId: change.accountId,
              action: outcome === 'granted' ? 'plan change credit granted' : 'plan change reverted',
              tone: outcome === 'granted' ? 'success' : 'warning',
              serviceId: change.serviceId,
              details: {
                plan_change_id: change.id,
                disk_space: change.toConfiguration.disk_space,
                ...(outcome === 'granted'
                  ? { credit: change.creditMinor }
                  : {
                      restored_disk_space: change.fromConfiguration.disk_space,
                      restored_plan: change.fromConfiguration.product_id,
                      ...(report.reason ? { reason: report.reason.slice(0, 500) } : {}),
                    }),
              },
            },
            tx,
          ),
        );
      }
    },

    async get(accountId: string, id: string): Promise<PlanChange> {
      const row = await changes.findForAccount(accountId, id);
      if (!row) throw notFound();
      return presentPlanChange(row);
    },
  };
}

export type PlanChangesService = ReturnType<typeof createPlanChangesService>;
