// Reading and writing the selected plan (spec §3), for the plan picker and the pages after it. Kept
// apart from selected-plan.ts so the shell, which only applies the lifetime rule, does not carry it.
import { STORAGE_KEYS } from '@debesis/contract';
import { readStorage, writeStorage } from '../lib/storage.ts';
import type { SelectedPlan } from './selected-plan.ts';

export function storeSelectedPlan(plan: SelectedPlan): void {
  writeStorage(STORAGE_KEYS.selectedPlan, JSON.stringify(plan));
}

/** The stored plan, or null when there is none or it is not readable. */
export function readSelectedPlan(): SelectedPlan | null {
  const raw = readStorage(STORAGE_KEYS.selectedPlan);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const plan = value as Partial<SelectedPlan>;
    return typeof plan.product_id === 'string' &&
      typeof plan.disk_space === 'number' &&
      typeof plan.users_count === 'number' &&
      typeof plan.period_id === 'string'
      ? (plan as SelectedPlan)
      : null;
  } catch {
    return null;
  }
}
