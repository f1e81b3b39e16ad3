// Records what happened on an account. Every module that changes something calls `record`, in
// the transaction of that change when there is one (the entry and the change commit together);
// the activity routes (listing, filters, audit per service) read the same table.
import {
  LOGIN_ACTION,
  type ActivityAction,
  type ActivityEntry,
  type ActivityFilterQuery,
  type ActivityListQuery,
  type ActivityPage,
} from '@debesis/contract';
import type { Executor } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import {
  createActivityQueries,
  type ActivityCriteria,
  type ActivityEventRow,
  type ActivityQueries,
} from './activity.queries.ts';

export type ActivityTone = 'success' | 'warning' | 'error' | 'info';
export type { ActivityAction };

export interface ActivityInput {
  accountId: string;
  /** A code the web app has texts for (the contract's list; a test walks every recorded one). */
  action: ActivityAction;
  tone: ActivityTone;
  ip?: string | null;
  serviceId?: string | null;
  details?: Record<string, unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function presentActivity(row: ActivityEventRow, serviceName: string | null = null): ActivityEntry {
  return {
    id: row.id,
    action: row.action,
    tone: row.tone,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
    service_id: row.serviceId,
    service_name: serviceName,
    details: row.details,
  };
}

/** A calendar day's first instant in UTC (`YYYY-MM-DD` was checked by the contract). */
const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The contract's filters as query criteria: `kind` picks the history, dates are whole UTC days. */
export function criteriaOf(filters: Omit<ActivityFilterQuery, 'skip' | 'limit'>): ActivityCriteria {
  const criteria: ActivityCriteria = {};
  if (filters.action !== undefined) criteria.action = filters.action;
  if (filters.tone !== undefined) criteria.tone = filters.tone;
  if (filters.service_id !== undefined) criteria.serviceId = filters.service_id;
  if (filters.start_date !== undefined) criteria.from = startOfDay(filters.start_date);
  if (filters.end_date !== undefined) {
    criteria.before = new Date(startOfDay(filters.end_date).getTime() + DAY_MS);
  }
  switch (filters.kind) {
    case 'login':
      // Another action as well: both must hold, so nothing matches.
      if (criteria.action !== undefined && criteria.action !== LOGIN_ACTION) criteria.nothing = true;
      criteria.action = LOGIN_ACTION;
      break;
    case 'management':
      criteria.notAction = LOGIN_ACTION;
      break;
    case undefined:
      break;
  }
  return criteria;
}

export function createActivityService(deps: {
  queries: ActivityQueries;
  now?: () => Date;
  /** Whether the service is the account's; only asked by the audit of one service. */
  ownsService?: (accountId: string, serviceId: string) => Promise<boolean>;
  /**
   * The names of the account's services among `ids` (the services module's; a service gone has
   * none). Only asked by the pages of the log; without it entries carry no name.
   */
  serviceNames?: (accountId: string, ids: readonly string[]) => Promise<Map<string, string>>;
}) {
  const now = deps.now ?? (() => new Date());

  async function page(
    accountId: string,
    criteria: ActivityCriteria,
    { skip, limit }: ActivityListQuery,
  ): Promise<ActivityPage> {
    const { rows, total } = await deps.queries.page(accountId, criteria, skip, limit);
    // Entries name their service as it is called now (the log reads by name, not by id).
    const ids = rows.flatMap((row) => (row.serviceId ? [row.serviceId] : []));
    const names = deps.serviceNames ? await deps.serviceNames(accountId, ids) : new Map<string, string>();
    const nameOf = (row: ActivityEventRow) => (row.serviceId ? (names.get(row.serviceId) ?? null) : null);
    return { items: rows.map((row) => presentActivity(row, nameOf(row))), total, skip, limit };
  }

  return {
    /** Writes one entry; `tx` is the transaction of the change it records, if that has one. */
    async record(input: ActivityInput, tx?: Executor): Promise<void> {
      await (tx ? createActivityQueries(tx) : deps.queries).insert({
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

    /** GET /activity/: the account's whole log, newest first. */
    list(accountId: string, paging: ActivityListQuery): Promise<ActivityPage> {
      return page(accountId, {}, paging);
    },

    /** GET /activity/filtered: blank filters were dropped by the contract. */
    filtered(accountId: string, query: ActivityFilterQuery): Promise<ActivityPage> {
      const { skip, limit, ...filters } = query;
      return page(accountId, criteriaOf(filters), { skip, limit });
    },

    /** GET /activity/audit/{serviceId}: one service's entries; another account's service is 404. */
    async audit(accountId: string, serviceId: string, paging: ActivityListQuery): Promise<ActivityPage> {
      if (!deps.ownsService || !(await deps.ownsService(accountId, serviceId))) {
        throw new AppError('service_not_found');
      }
      return page(accountId, { serviceId }, paging);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
