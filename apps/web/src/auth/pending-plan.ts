// The pending-plan check of spec §4 ("After login"): when a visitor chose a plan before signing
// in, POST /api/v1/auth/check-pending-plan decides where they go next. The ordering issue fills
// this in; until then no plan is ever pending from the app's point of view and sign-in goes on
// as usual.
import { STORAGE_KEYS } from '@debesis/contract';
import { readStorage } from '../lib/storage.ts';
import type { AfterLoginContext } from './after-login.ts';

export function hasSelectedPlan(): boolean {
  return readStorage(STORAGE_KEYS.selectedPlan) !== null;
}

/**
 * Runs the check and navigates where it says; resolves true when it took care of navigation,
 * false when sign-in should carry on with the usual destination.
 *
 * TODO(ordering issue): spec §4 — guard duplicates for CLIENT_TIMING.pendingPlanGuardMs; success
 * with redirect_url → go there; already-exists or 404 → clear the plan, go to services; other
 * errors → the new-payment page.
 */
export async function runPendingPlanCheck(_context: AfterLoginContext): Promise<boolean> {
  return false;
}
