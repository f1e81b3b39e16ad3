// The pending-plan check of spec §4 ("After login"): when a visitor chose a plan before signing
// in, POST /api/v1/auth/check-pending-plan turns it into an order awaiting payment (or finds the
// one already waiting) and says where to go next.
import { CLIENT_TIMING, pendingPlanResponseSchema, STORAGE_KEYS } from '@debesis/contract';
import { api, isApiError } from '../api/client.ts';
import { readStorage, removeStorage } from '../lib/storage.ts';
import { readSelectedPlan } from '../plans/selected-plan-store.ts';
import { DEFAULT_AFTER_LOGIN_PATH, type AfterLoginContext } from './after-login.ts';
import { safeReturnPath } from './session.ts';

export const CHECK_PENDING_PLAN_PATH = '/api/v1/auth/check-pending-plan';
/** Where a plan goes when the check could not turn it into an order: paid from the stored plan. */
export const NEW_PAYMENT_PATH = '/dashboard/payments/new/payment';

export function hasSelectedPlan(): boolean {
  return readStorage(STORAGE_KEYS.selectedPlan) !== null;
}

/** The last check started and when, so sign-in paths racing each other run it once (spec §9: 30 s). */
let lastCheck: { startedAt: number; result: Promise<boolean> } | null = null;

/** For tests: forgets the duplicate guard. */
export function resetPendingPlanGuard(): void {
  lastCheck = null;
}

function meansAlreadyExists(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.status === 404) return true;
  return /already[ _-]?exists?|_exists$/i.test(error.detail);
}

async function check(context: AfterLoginContext): Promise<boolean> {
  const plan = readSelectedPlan();
  if (!plan) {
    // Stored but unreadable: nothing can be ordered from it.
    removeStorage(STORAGE_KEYS.selectedPlan);
    return false;
  }
  try {
    const answer = await api.post(
      CHECK_PENDING_PLAN_PATH,
      {
        product_id: plan.product_id,
        disk_space: plan.disk_space,
        users_count: plan.users_count,
        period_id: plan.period_id,
        selected_options: plan.selected_options,
        currency: 'EUR',
      },
      pendingPlanResponseSchema,
    );
    await context.navigate(safeReturnPath(answer.redirect_url) ?? NEW_PAYMENT_PATH, { replace: true });
  } catch (error) {
    if (meansAlreadyExists(error)) {
      removeStorage(STORAGE_KEYS.selectedPlan);
      await context.navigate(DEFAULT_AFTER_LOGIN_PATH, { replace: true });
    } else {
      await context.navigate(NEW_PAYMENT_PATH, { replace: true });
    }
  }
  return true;
}

/**
 * Runs the check and navigates where it says; resolves true when it took care of navigation,
 * false when sign-in should carry on with the usual destination. A second call within
 * CLIENT_TIMING.pendingPlanGuardMs shares the first one's outcome instead of asking again.
 */
export function runPendingPlanCheck(context: AfterLoginContext): Promise<boolean> {
  const now = Date.now();
  if (lastCheck && now - lastCheck.startedAt < CLIENT_TIMING.pendingPlanGuardMs) return lastCheck.result;
  const result = check(context);
  lastCheck = { startedAt: now, result };
  return result;
}
