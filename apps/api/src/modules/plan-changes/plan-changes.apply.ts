// Putting a plan change into effect, inside the caller's transaction: the service takes the new
// plan (its paid span stays) and a downgrade's difference becomes account credit. Used when a
// downgrade is confirmed and when an upgrade's order is paid. A downgrade that shrinks the disk
// of a placed workspace gets its credit only when the node reports the smaller size in place
// (settleShrink); a shrink the node refuses because the data does not fit undoes the change.
//
// A command across modules: the service's plan and the credit ledger are changed through the
// services and credits modules' in-transaction ports, never their queries.
import type { PlanConfiguration } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import type { CreditsInTransaction } from '../credits/credits.service.ts';
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

  return {
    putIntoEffect,

    /**
     * The order of an upgrade was paid. Applied once however often the payment event comes. A
     * change cancelled meanwhile (a newer change replaced it) is not applied, but the money is
     * not lost: what was paid before VAT becomes account credit.
     */
    async applyPaid(
      tx: Tx,
      planChangeId: string,
      paidSubtotalMinor: number,
      at: Date,
    ): Promise<'applied' | 'credited' | 'already'> {
      const changes = createPlanChangesQueries(tx);
      const applied = await changes.markApplied(planChangeId, at);
      if (applied) {
        await putIntoEffect(tx, applied, at);
        return 'applied';
      }
      const change = await changes.findById(planChangeId);
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
