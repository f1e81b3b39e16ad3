// What a plan change that applied at once tells the plans list, carried in the router's location
// state: the plan before and after, the new resources and the credit the change gave. A change
// of resources only keeps the plan, so the notice names the plan with its new resources rather
// than saying the plan changed.
export const PLAN_CHANGED_STATE = 'planChanged';

export interface PlanChangedNotice {
  /** The plan's name before the change. */
  from: string;
  plan: string;
  disk_space: number;
  users_count: number;
  /** Minor units before VAT; 0 when the change gave none. */
  credit: number;
}

export function readPlanChangedNotice(state: unknown): PlanChangedNotice | null {
  if (typeof state !== 'object' || state === null || !(PLAN_CHANGED_STATE in state)) return null;
  const notice: unknown = state[PLAN_CHANGED_STATE];
  if (typeof notice !== 'object' || notice === null) return null;
  const from = 'from' in notice ? notice.from : undefined;
  const plan = 'plan' in notice ? notice.plan : undefined;
  const disk = 'disk_space' in notice ? notice.disk_space : undefined;
  const users = 'users_count' in notice ? notice.users_count : undefined;
  const credit = 'credit' in notice ? notice.credit : undefined;
  return typeof from === 'string' &&
    typeof plan === 'string' &&
    typeof disk === 'number' &&
    typeof users === 'number' &&
    typeof credit === 'number'
    ? { from, plan, disk_space: disk, users_count: users, credit }
    : null;
}
