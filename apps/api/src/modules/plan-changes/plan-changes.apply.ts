// Putting a plan change into effect, inside the caller's transaction: the service takes the new
// plan (its paid span stays) and a downgrade's difference becomes account credit. Used when a
// downgrade is confirmed and when an upgrade's order is paid.
import type { Db } from '../../db/database.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import { createPlanChangesQueries, type PlanChangeRow } from './plan-changes.queries.ts';

export async function putIntoEffect(tx: Db, change: PlanChangeRow, at: Date): Promise<void> {
  const target = change.toConfiguration;
  await createServicesQueries(tx).changePlan(
    change.serviceId,
    {
      productId: target.product_id,
      diskSpace: target.disk_space,
      usersCount: target.users_count,
      monthlyPriceMinor: Math.round(target.period_price / Math.max(1, target.months)),
    },
    at,
  );
  if (change.creditMinor > 0) {
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
