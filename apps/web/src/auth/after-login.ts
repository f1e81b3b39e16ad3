// Where a visitor goes once signed in (spec §4 "After login"), whichever way they signed in:
// password, OAuth or a password reset.
import { hasSelectedPlan, runPendingPlanCheck } from './pending-plan.ts';

export const DEFAULT_AFTER_LOGIN_PATH = '/dashboard/services';

export interface AfterLoginContext {
  /** Where the visitor was going before sign-in was asked of them (already checked safe). */
  from: string | null;
  /** The page they are on now. */
  pathname: string;
  navigate: (to: string, options: { replace: boolean }) => void | Promise<void>;
}

const PAYMENT_COMPLETE = /^\/dashboard\/payments\/.+\/complete\/?$/;

/** The payment-completion pages of spec §2, reachable without signing in. */
export function isPaymentCompletePath(pathname: string): boolean {
  return PAYMENT_COMPLETE.test(pathname);
}

export async function afterLogin(context: AfterLoginContext): Promise<void> {
  if (hasSelectedPlan() && (await runPendingPlanCheck(context))) return;
  // A payment-complete page finishes its own work; it is not left for the services list.
  if (isPaymentCompletePath(context.pathname)) return;
  await context.navigate(context.from ?? DEFAULT_AFTER_LOGIN_PATH, { replace: true });
}
