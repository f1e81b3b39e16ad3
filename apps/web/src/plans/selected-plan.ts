// The selected plan of spec §3, kept in browser storage under STORAGE_KEYS.selectedPlan while the
// visitor goes from the plan picker through sign-up or sign-in to paying, and its lifetime rule of
// spec §4: it is kept only on the auth, pricing and new-payment routes and forgotten anywhere else.
// The shell (RootShell) applies the rule on every navigation, so this module stays tiny: only types
// come from @debesis/pricing, and reading and writing the plan live in selected-plan-store.ts.
import { STORAGE_KEYS } from '@debesis/contract';
import type { InitialCalculation, OptionType } from '@debesis/pricing';
import { removeStorage } from '../lib/storage.ts';

/** Exactly the spec's fields (§3 "Selected plan"). */
export interface SelectedPlan {
  product_id: string;
  /** Total disk, GB. */
  disk_space: number;
  /** Twice the disk space (spec §9), GB. */
  bandwidth: number;
  /** Total users. */
  users_count: number;
  period_id: string;
  selected_options: Array<{ type: OptionType; value: number }>;
  product_name: string;
  period_name: string;
  initial_calculation: InitialCalculation;
}

/** Route prefixes on which the selected plan is kept (spec §4 "Selected plan lifetime"). */
export const SELECTED_PLAN_ROUTES = ['/auth', '/pricing', '/dashboard/payments/new'] as const;

export function keepsSelectedPlan(pathname: string): boolean {
  return SELECTED_PLAN_ROUTES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The lifetime rule: forgets the selected plan when `pathname` is not one of the routes that keep it. */
export function applySelectedPlanLifetime(pathname: string): void {
  if (!keepsSelectedPlan(pathname)) removeStorage(STORAGE_KEYS.selectedPlan);
}
