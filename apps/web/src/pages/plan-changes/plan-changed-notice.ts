// What a plan change that applied at once tells the plans list, carried in the router's location
// state: the new plan's name and the credit the change gave.
export const PLAN_CHANGED_STATE = 'planChanged';

export interface PlanChangedNotice {
  plan: string;
  /** Minor units before VAT; 0 when the change gave none. */
  credit: number;
}

export function readPlanChangedNotice(state: unknown): PlanChangedNotice | null {
  if (typeof state !== 'object' || state === null || !(PLAN_CHANGED_STATE in state)) return null;
  const notice: unknown = state[PLAN_CHANGED_STATE];
  if (typeof notice !== 'object' || notice === null) return null;
  const plan = 'plan' in notice ? notice.plan : undefined;
  const credit = 'credit' in notice ? notice.credit : undefined;
  return typeof plan === 'string' && typeof credit === 'number' ? { plan, credit } : null;
}
