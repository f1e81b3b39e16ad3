// Records what happened on an account. Every module that changes something calls `record`;
// the activity routes (listing, filters, audit per service) read the same table.
import type { ActivityEventRow, ActivityQueries } from './activity.queries.ts';

export type ActivityTone = 'success' | 'warning' | 'error' | 'info';

export interface ActivityInput {
  accountId: string;
  action: string;
  tone: ActivityTone;
  ip?: string | null;
  serviceId?: string | null;
  details?: Record<string, unknown>;
}

export function createActivityService(deps: { queries: ActivityQueries; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async record(input: ActivityInput): Promise<void> {
      await deps.queries.insert({
        accountId: input.accountId,
        action: input.action,
        tone: input.tone,
        ip: input.ip ?? null,
        serviceId: input.serviceId ?? null,
        details: input.details ?? {},
        createdAt: now(),
      });
    },
    /** A service's entries (the management lines of its log), newest first. */
    listForService(accountId: string, serviceId: string, limit: number): Promise<ActivityEventRow[]> {
      return deps.queries.listForService(accountId, serviceId, limit);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
