// Putting a plan change into effect, inside the caller's transaction: the service takes the new
// plan (its paid span stays) and a downgrade's difference becomes account credit. Used when a
// downgrade is confirmed and when an upgrade's order is paid. A downgrade that shrinks the disk
// of a placed workspace gets its credit only when the node reports the smaller size in place
// (settleShrink); a shrink the node refuses because the data does not fit undoes the change.
import type { PlanConfiguration } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { storageBytes } from '../services/placement.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import type { StorageReport } from '../workspace/workspace-state.ts';
import { createPlanChangesQueries, type PlanChangeRow } from './plan-changes.queries.ts';

function planOf(configuration: PlanConfiguration) {
  return {
    productId: configuration.product_id,
    diskSpace: configuration.disk_space,
    usersCount: configuration.users_count,
    monthlyPriceMinor: Math.round(configuration.period_price / Math.max(1, configuration.months)),
  };
}

export async function putIntoEffect(tx: Db, change: PlanChangeRow, at: Date): Promise<void> {
  await createServicesQueries(tx).changePlan(change.serviceId, planOf(change.toConfiguration), at);
  if (change.creditMinor > 0 && !change.creditPending) {
    await createCreditsQueries(tx).grant({
      accountId: change.accountId,
      amountMinor: change.creditMinor,
      serviceId: change.serviceId,
      planChangeId: change.id,
      at,
    });
  }
}

/**
 * The order of an upgrade was paid. Applied once however often the payment event comes. A
 * change cancelled meanwhile (a newer change replaced it) is not applied, but the money is not
 * lost: what was paid before VAT becomes account credit.
 */
export async function applyPaidPlanChange(
  tx: Db,
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
    await createCreditsQueries(tx).grant({
      accountId: change.accountId,
      amountMinor: paidSubtotalMinor,
      serviceId: change.serviceId,
      planChangeId: change.id,
      at,
    });
    return 'credited';
  }
  return 'already';
}

/**
 * A downgrade waiting for its node: granted (its credit) once the node reports the storage at the
 * new size or smaller (or no size limit at all), undone (`cancelled`, the old plan back, no
 * credit) when the node reports that shrink refused. Anything else: still waiting. One
 * transaction per change; the outcome, for the caller to tell the owner.
 */
export async function settleShrink(
  db: Db,
  change: PlanChangeRow,
  report: StorageReport,
  at: Date,
): Promise<'granted' | 'reverted' | 'waiting'> {
  const wanted = storageBytes(change.toConfiguration.disk_space);
  const inPlace = report.storageBytes === null || report.storageBytes <= wanted;
  const refused = !inPlace && report.refusedBytes === wanted;
  if (!inPlace && !refused) return 'waiting';
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const settled = await createPlanChangesQueries(tx).settleCreditPending(
      change.id,
      inPlace ? 'applied' : 'cancelled',
      at,
    );
    if (!settled) return 'waiting';
    if (inPlace) {
      if (settled.creditMinor > 0)
        await createCreditsQueries(tx).grant({
          accountId: settled.accountId,
          amountMinor: settled.creditMinor,
          serviceId: settled.serviceId,
          planChangeId: settled.id,
          at,
        });
      return 'granted';
    }
    await createServicesQueries(tx).changePlan(settled.serviceId, planOf(settled.fromConfiguration), at);
    return 'reverted';
  });
}
