// Putting a plan change into effect, inside the caller's transaction: the service takes the new
// plan (its paid span stays) and a downgrade's difference becomes account credit. Used when a
// downgrade is confirmed and when an upgrade's order is paid. A downgrade that shrinks the disk
// of a placed workspace gets its credit only when the node reports the smaller size in place
// (settleShrink); a shrink the node refuses because the data does not fit undoes the change.
//
// A larger disk is put in place only under placement's lock and only when the workspace's node
// has room for it (services/node-room.ts): a paid change that finds none waits (awaiting_room,
// its disk counted as the node's pending growth) and waitedRoom applies it, oldest first, once
// the node has room; until then the workspace keeps its plan. The price is not changed by the
// wait (the spec is silent; decision: the change is worth what was quoted when it was paid).
//
// A command across modules: the service's plan and the credit ledger are changed through the
// services and credits modules' in-transaction ports, never their queries.
import type { PlanConfiguration } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { CreditsInTransaction } from '../credits/credits.service.ts';
import { lockedGrowthRoom, setPendingDisk } from '../services/node-room.ts';
import { storageBytes } from '../services/placement.ts';
import type { ServicesQueries } from '../services/services.queries.ts';
import type { StorageReport } from '../workspace/workspace-state.ts';
import { createPlanChangesQueries, type PlanChangeRow } from './plan-changes.queries.ts';

/** The services module, as a plan change needs it: a new plan in place, in the change's transaction. */
export interface ServicePlans {
  changePlan: (tx: Tx, ...args: Parameters<ServicesQueries['changePlan']>) => Promise<void>;
}

function planOf(configuration: PlanConfiguration) {
  return {
    productId: configuration.product_id,
    diskSpace: configuration.disk_space,
    usersCount: configuration.users_count,
    monthlyPriceMinor: Math.round(configuration.period_price / Math.max(1, configuration.months)),
  };
}

export function createPlanChangeApplication(deps: {
  db: Db;
  services: ServicePlans;
  credits: Pick<CreditsInTransaction, 'grant'>;
  activity: Pick<ActivityService, 'record'>;
}) {
  async function putIntoEffect(tx: Tx, change: PlanChangeRow, at: Date): Promise<void> {
    await deps.services.changePlan(tx, change.serviceId, planOf(change.toConfiguration), at);
    if (change.creditMinor > 0 && !change.creditPending) {
      await deps.credits.grant(tx, {
        accountId: change.accountId,
        amountMinor: change.creditMinor,
        serviceId: change.serviceId,
        planChangeId: change.id,
        at,
      });
    }
  }

  /**
   * Whether the change's disk fits on its workspace's node now, asked under placement's lock in
   * `tx`: true when the disk does not grow or the workspace has no node yet (placement decides).
   */
  async function roomFor(
    tx: Tx,
    change: PlanChangeRow,
    waitsAhead?: (serviceId: string) => boolean,
  ): Promise<boolean> {
    if (change.toConfiguration.disk_space <= change.fromConfiguration.disk_space) return true;
    const room = await lockedGrowthRoom(tx, change.serviceId, waitsAhead);
    return room === null || room.fits(change.toConfiguration.disk_space);
  }

  /** The owner's activity entry of a change that waits for room, or that got it after waiting. */
  function recordWait(tx: Tx, change: PlanChangeRow, waiting: boolean) {
    return deps.activity.record(
      {
        accountId: change.accountId,
        action: waiting ? 'plan change waiting for room' : 'plan changed',
        tone: waiting ? 'warning' : 'success',
        serviceId: change.serviceId,
        details: {
          plan_change_id: change.id,
          direction: change.direction,
          from: change.fromConfiguration.product_id,
          to: change.toConfiguration.product_id,
          disk_space: change.toConfiguration.disk_space,
          users_count: change.toConfiguration.users_count,
          ...(change.orderId ? { order_id: change.orderId } : {}),
        },
      },
      tx,
    );
  }

  /**
   * A change that is to apply now (paid, or needing no payment): in effect when its node has
   * room for its disk, else waiting for room (`awaiting_room`). `mark` moves the change to
   * `applied` or `awaiting_room` and returns it when this call did (once, however many race).
   */
  async function applyOrWait(
    tx: Tx,
    change: PlanChangeRow,
    at: Date,
  ): Promise<{ outcome: 'applied' | 'waiting'; change: PlanChangeRow } | undefined> {
    const changes = createPlanChangesQueries(tx);
    if (await roomFor(tx, change)) {
      const applied = await changes.markApplied(change.id, at);
      if (!applied) return undefined;
      await putIntoEffect(tx, applied, at);
      return { outcome: 'applied', change: applied };
    }
    const waiting = await changes.markAwaitingRoom(change.id, at);
    if (!waiting) return undefined;
    await setPendingDisk(tx, waiting.serviceId, waiting.toConfiguration.disk_space, at);
    await recordWait(tx, waiting, true);
    return { outcome: 'waiting', change: waiting };
  }

  return {
    putIntoEffect,
    applyOrWait,

    /**
     * The retry (with placement's, every 2 minutes): each change waiting for room, longest
     * waiting first, applied when its node has room for it counting only the waits before it.
     * The changes it applied, for the nodes to be woken.
     */
    async waitedRoom(at: Date): Promise<PlanChangeRow[]> {
      const waiting = await createPlanChangesQueries(deps.db).listAwaitingRoom();
      const ahead = new Set<string>();
      const applied: PlanChangeRow[] = [];
      for (const change of waiting) {
        const done = await inTransaction(deps.db, async (tx) => {
          if (!(await roomFor(tx, change, (serviceId) => ahead.has(serviceId)))) return undefined;
          const row = await createPlanChangesQueries(tx).markRoomFound(change.id, at);
          if (!row) return undefined;
          await setPendingDisk(tx, row.serviceId, null, at);
          await putIntoEffect(tx, row, at);
          await recordWait(tx, row, false);
          return row;
        });
        if (done) applied.push(done);
        else ahead.add(change.serviceId);
      }
      return applied;
    },

    /**
     * The order of an upgrade was paid. Applied once however often the payment event comes (or
     * waiting for room on its node, see applyOrWait). A
     * change cancelled meanwhile (a newer change replaced it) is not applied, but the money is
     * not lost: what was paid before VAT becomes account credit.
     */
    async applyPaid(
      tx: Tx,
      planChangeId: string,
      paidSubtotalMinor: number,
      at: Date,
    ): Promise<'applied' | 'waiting' | 'credited' | 'already'> {
      const changes = createPlanChangesQueries(tx);
      const change = await changes.findById(planChangeId);
      if (change?.status === 'awaiting_payment') {
        const done = await applyOrWait(tx, change, at);
        if (done) return done.outcome;
      }
      if (change?.status === 'cancelled' && paidSubtotalMinor > 0) {
        await deps.credits.grant(tx, {
          accountId: change.accountId,
          amountMinor: paidSubtotalMinor,
          serviceId: change.serviceId,
          planChangeId: change.id,
          at,
        });
        return 'credited';
      }
      return 'already';
    },

    /** A change whose order was cancelled or whose credit went elsewhere: it never applies. */
    async cancel(tx: Tx, planChangeId: string, at: Date): Promise<void> {
      await createPlanChangesQueries(tx).cancel(planChangeId, at);
    },

    /**
     * A downgrade waiting for its node: granted (its credit) once the node reports the storage at
     * the new size or smaller (or no size limit at all), undone (`cancelled`, the old plan back,
     * no credit) when the node reports that shrink refused. Anything else: still waiting. One
     * transaction per change; `settled` runs in it with the outcome (the owner's activity entry).
     */
    async settleShrink(
      change: PlanChangeRow,
      report: StorageReport,
      at: Date,
      settled: (tx: Tx, outcome: 'granted' | 'reverted') => Promise<void>,
    ): Promise<'granted' | 'reverted' | 'waiting'> {
      const wanted = storageBytes(change.toConfiguration.disk_space);
      const inPlace = report.storageBytes === null || report.storageBytes <= wanted;
      const refused = !inPlace && report.refusedBytes === wanted;
      if (!inPlace && !refused) return 'waiting';
      return inTransaction(deps.db, async (tx) => {
        const row = await createPlanChangesQueries(tx).settleCreditPending(
          change.id,
          inPlace ? 'applied' : 'cancelled',
          at,
        );
        if (!row) return 'waiting';
        if (inPlace) {
          if (row.creditMinor > 0)
            await deps.credits.grant(tx, {
              accountId: row.accountId,
              amountMinor: row.creditMinor,
              serviceId: row.serviceId,
              planChangeId: row.id,
              at,
            });
          await settled(tx, 'granted');
          return 'granted';
        }
        await deps.services.changePlan(tx, row.serviceId, planOf(row.fromConfiguration), at);
        await settled(tx, 'reverted');
        return 'reverted';
      });
    },
  };
}

export type PlanChangeApplication = ReturnType<typeof createPlanChangeApplication>;
