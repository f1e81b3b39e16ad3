// The owner's services (spec §7 "Services"): the overview and statuses, start/stop/restart as
// desired state, cancel and terminate, paying again and extending, the log, usage and settings.
// Every refusal comes from the lifecycle table; another account's service is "Service not
// found" (404), exactly like one that does not exist. Each change is recorded in the activity
// log after its commit, and the service's node is woken to pull the new generation.
import { z } from 'zod';
import type {
  Order,
  PaymentFlow,
  PaymentSessionResponse,
  ServiceFeatureCounts,
  ServiceAction,
  ServiceActionRequest,
  ServiceActionResponse,
  ServiceConfig,
  ServiceConfigUpdate,
  ServiceLogLine,
  ServiceOverviewItem,
  ServiceState,
  ServiceStats,
  ServiceStatusDetail,
  ServiceUpdate,
} from '@debesis/contract';
import { text } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import { paramsWithoutNodePaths, withoutNodePaths } from '../../http/node-error-text.ts';
import type { Db } from '../../db/database.ts';
import type { ActivityAction, ActivityService, ActivityTone } from '../activity/activity.service.ts';
import { createGenerationCache } from './generation-cache.ts';
import { createOverviewAnswers, type OverviewAnswer } from './overview-answers.ts';
import { nodeIsOnline } from '../nodes/nodes.constants.ts';
import { allNodes } from '../nodes/online-nodes.ts';
import { assertAllowed, refusalFor, type LifecycleStep } from './lifecycle.ts';
import {
  NO_COUNTS,
  overviewTimedFields,
  presentConfig,
  presentOverviewItem,
  presentState,
  presentStats,
  presentStatus,
} from './services.presenter.ts';
import type { ServiceNotifier } from './services.notifier.ts';
import { createServicesQueries, type ServiceListRow, type ServiceRow } from './services.queries.ts';
import type { ActiveSession, SessionBoundReads } from '../auth/auth.queries.ts';

export interface ServiceMeta {
  ip: string | null;
}

const extendParamsSchema = z.object({ period_id: text().min(1).max(40).optional() });

export function createServicesService(deps: {
  db: Db;
  planName: (productId: string) => Promise<string>;
  /** What the workspace features count of each service (the feature registry); every id answered. */
  featureCounts: (serviceIds: string[]) => Promise<Map<string, ServiceFeatureCounts>>;
  activity: Pick<ActivityService, 'record' | 'listForService'>;
  notifier: Pick<ServiceNotifier, 'terminated'>;
  /** Opens a payment session for one of the account's orders (the payments module). */
  createPaymentSession: (
    accountId: string,
    orderId: string,
    flow: PaymentFlow,
  ) => Promise<PaymentSessionResponse>;
  /** The account's orders, and a new extension order (the orders module). */
  orders: {
    list(accountId: string): Promise<Order[]>;
    extend(
      accountId: string,
      serviceId: string,
      periodId: string | undefined,
      meta: ServiceMeta,
    ): Promise<Order>;
  };
  nodeLastSeen: (nodeId: string) => Promise<Date | null>;
  /** Statements that read the caller's session along (the auth module's; see overviewForSession). */
  sessionBound: SessionBoundReads;
  wakeNode: (nodeId: string) => void;
  now: () => Date;
}) {
  const queries = createServicesQueries(deps.db);

  async function owned(accountId: string, id: string): Promise<ServiceRow> {
    const row = await queries.findForAccount(accountId, id);
    if (!row) throw new AppError('service_not_found');
    return row;
  }

  // The overview is the dashboard's first call and lists every service; its counts change only
  // with a service's generation, so most requests read just the services.
  const countsCache = createGenerationCache<ServiceFeatureCounts>();

  async function countsFor(
    rows: Array<Pick<ServiceRow, 'id' | 'generation'>>,
  ): Promise<Map<string, ServiceFeatureCounts>> {
    const counts = new Map<string, ServiceFeatureCounts>();
    const missing: Array<Pick<ServiceRow, 'id' | 'generation'>> = [];
    for (const row of rows) {
      const cached = countsCache.get(row.id, row.generation);
      if (cached) counts.set(row.id, cached);
      else missing.push(row);
    }
    if (missing.length === 0) return counts;
    const counted = await deps.featureCounts(missing.map((row) => row.id));
    for (const row of missing) {
      const value = counted.get(row.id) ?? NO_COUNTS;
      countsCache.set(row.id, row.generation, value);
      counts.set(row.id, value);
    }
    return counts;
  }

  async function nodeOnline(row: ServiceRow): Promise<boolean | null> {
    if (!row.nodeId) return null;
    const seen = await deps.nodeLastSeen(row.nodeId);
    return nodeIsOnline(seen, deps.now());
  }

  /** The plan name of each product the rows name (the catalogue's copy). */
  async function planNames(rows: ServiceListRow[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const row of rows) {
      if (!names.has(row.productId)) names.set(row.productId, await deps.planName(row.productId));
    }
    return names;
  }

  // The answer of each account's last overview, served again while its rows, their plan names
  // and the clock's fields are what they were (overview-answers.ts).
  /** The names of the nodes keeping these services' standbys (read only when one has any). */
  async function standbyNames(
    rows: readonly { standbyNodeId: string | null }[],
  ): Promise<Map<string, string>> {
    if (!rows.some((row) => row.standbyNodeId !== null)) return new Map();
    return new Map((await allNodes(deps.db)).map((node) => [node.id, node.name]));
  }
  const overviewAnswers = createOverviewAnswers({
    planNames,
    counts: countsFor,
    nodeNames: standbyNames,
    now: () => deps.now(),
  });
  const overviewRead = deps.sessionBound.prepare<
    [version: string, list: unknown[][] | null],
    { known: string }
  >('services_overview_for_session', (accountId) => queries.listUnlessKnown(accountId));

  async function statusOf(row: ServiceRow): Promise<ServiceStatusDetail> {
    return presentStatus(row, await nodeOnline(row), deps.now());
  }

  async function record(
    row: ServiceRow,
    meta: ServiceMeta,
    action: ActivityAction,
    tone: ActivityTone,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await deps.activity.record({
      accountId: row.accountId,
      serviceId: row.id,
      ip: meta.ip,
      action,
      tone,
      details,
    });
  }

  /**
   * Runs a lifecycle step the table allows from the service's status now; a conditional update
   * that finds the status changed meanwhile answers the refusal for the new status.
   */
  async function step(
    accountId: string,
    id: string,
    name: LifecycleStep,
    change: (row: ServiceRow, at: Date) => Promise<ServiceRow | undefined>,
    alreadyDone: (row: ServiceRow) => boolean = () => false,
  ): Promise<{ row: ServiceRow; changed: boolean }> {
    const row = await owned(accountId, id);
    assertAllowed(name, row.status);
    if (alreadyDone(row)) return { row, changed: false };
    const changed = await change(row, deps.now());
    if (changed) {
      if (changed.nodeId) deps.wakeNode(changed.nodeId);
      return { row: changed, changed: true };
    }
    const now = await owned(accountId, id);
    throw new AppError(refusalFor(name, now.status));
  }

  /** Start or stop; asking for the run state it already has changes nothing and records nothing. */
  async function setRunState(
    accountId: string,
    id: string,
    runState: ServiceRow['runState'],
    meta: ServiceMeta,
  ): Promise<ServiceStatusDetail> {
    const { row, changed } = await step(
      accountId,
      id,
      runState === 'running' ? 'start' : 'stop',
      (current, at) => queries.setRunState(current.id, runState, at),
      (current) => current.runState === runState,
    );
    if (changed)
      await record(row, meta, runState === 'running' ? 'service started' : 'service stopped', 'info');
    return statusOf(row);
  }

  const start = (accountId: string, id: string, meta: ServiceMeta) =>
    setRunState(accountId, id, 'running', meta);
  const stop = (accountId: string, id: string, meta: ServiceMeta) =>
    setRunState(accountId, id, 'stopped', meta);

  async function restart(accountId: string, id: string, meta: ServiceMeta): Promise<ServiceStatusDetail> {
    const { row } = await step(accountId, id, 'restart', (current, at) =>
      queries.requestRestart(current.id, at),
    );
    await record(row, meta, 'service restarted', 'info', { generation: row.generation });
    return statusOf(row);
  }

  async function cancel(accountId: string, id: string, meta: ServiceMeta): Promise<ServiceStatusDetail> {
    const { row } = await step(accountId, id, 'cancel', (current, at) =>
      queries.transition(current.id, 'cancel', at),
    );
    await record(row, meta, 'service cancelled', 'warning');
    return statusOf(row);
  }

  async function terminate(accountId: string, id: string, meta: ServiceMeta): Promise<ServiceStatusDetail> {
    const { row } = await step(accountId, id, 'terminate', (current, at) =>
      queries.transition(current.id, 'terminate', at),
    );
    await deps.notifier.terminated(row, { ip: meta.ip });
    return statusOf(row);
  }

  /**
   * Pays the service's unpaid order again: the newest order of the service (its purchase, an
   * extension or a plan change) that failed or still awaits payment.
   */
  async function retryPayment(accountId: string, id: string): Promise<{ session_id: string; url: string }> {
    const row = await owned(accountId, id);
    const unpaid = (await deps.orders.list(accountId)).find(
      (order) =>
        (order.id === row.orderId || order.service_id === row.id) &&
        (order.status === 'FAILED' || order.status === 'AWAITING_PAYMENT'),
    );
    if (!unpaid) throw new AppError('order_not_payable');
    return deps.createPaymentSession(accountId, unpaid.id, unpaid.status === 'FAILED' ? 'retry' : 'new');
  }

  async function extend(accountId: string, id: string, periodId: string | undefined, meta: ServiceMeta) {
    const row = await owned(accountId, id);
    assertAllowed('extend', row.status);
    return deps.orders.extend(accountId, row.id, periodId, meta);
  }

  async function configure(
    accountId: string,
    id: string,
    update: ServiceConfigUpdate,
    meta: ServiceMeta,
  ): Promise<ServiceRow> {
    const row = await owned(accountId, id);
    const values = {
      ...(update.name !== undefined ? { name: update.name } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.expiry_reminders !== undefined ? { expiryReminders: update.expiry_reminders } : {}),
      ...(update.auto_renew !== undefined ? { autoRenew: update.auto_renew } : {}),
    };
    const changed = await queries.updateSettings(row.id, values, deps.now());
    if (!changed) throw new AppError('service_not_found');
    await record(changed, meta, 'settings updated', 'info', {
      fields: Object.keys(update),
      ...(update.name !== undefined && update.name !== row.name ? { from: row.name, to: update.name } : {}),
    });
    return changed;
  }

  const actions: Record<
    ServiceAction,
    (
      accountId: string,
      id: string,
      params: Record<string, unknown>,
      meta: ServiceMeta,
    ) => Promise<Pick<ServiceActionResponse, 'payment' | 'order_id'> & { service?: ServiceStatusDetail }>
  > = {
    start: async (accountId, id, _params, meta) => ({
      service: await start(accountId, id, meta),
      payment: null,
      order_id: null,
    }),
    stop: async (accountId, id, _params, meta) => ({
      service: await stop(accountId, id, meta),
      payment: null,
      order_id: null,
    }),
    restart: async (accountId, id, _params, meta) => ({
      service: await restart(accountId, id, meta),
      payment: null,
      order_id: null,
    }),
    cancel: async (accountId, id, _params, meta) => ({
      service: await cancel(accountId, id, meta),
      payment: null,
      order_id: null,
    }),
    terminate: async (accountId, id, _params, meta) => ({
      service: await terminate(accountId, id, meta),
      payment: null,
      order_id: null,
    }),
    'retry-payment': async (accountId, id) => ({
      payment: await retryPayment(accountId, id),
      order_id: null,
    }),
    extend: async (accountId, id, params, meta) => {
      const parsed = extendParamsSchema.safeParse(params);
      if (!parsed.success) {
        throw new AppError('validation_error', {
          fieldErrors: [{ field: 'params.period_id', code: 'invalid_value' }],
        });
      }
      const order = await extend(accountId, id, parsed.data.period_id, meta);
      return { payment: null, order_id: order.id };
    },
  };

  return {
    /**
     * The overview read in the statement that checks the caller's session (the dashboard's first
     * call, one round trip): `admit` admits the session read or throws, before anything is shown.
     */
    async overviewForSession(
      caller: { sessionId: string; accountId: string },
      admit: (session: ActiveSession | undefined) => string,
    ): Promise<OverviewAnswer> {
      // The account the token names: its kept answer's version goes with the statement, which
      // then leaves the list out if the rows are still those. Nothing is shown before `admit`.
      const kept = overviewAnswers.kept(caller.accountId);
      // No version is '-' (it lists transaction ids), so without a kept answer the list comes.
      const known = kept?.version ?? '-';
      const { session, value } = await overviewRead(caller.sessionId, { known });
      const accountId = admit(session);
      const [version, list] = value ?? ['', null];
      if (version !== known)
        return overviewAnswers.answer(accountId, { version, rows: queries.listRowsOf(list) });
      // The statement left the list out: the kept answer's rows are the rows. (admit refuses a
      // session of another account than the token names, whose answer this would be.)
      if (kept?.accountId !== accountId) throw new Error('the overview kept for another account');
      return overviewAnswers.answer(accountId, kept);
    },

    async statuses(accountId: string): Promise<{ services: ServiceState[] }> {
      const now = deps.now();
      return {
        services: (await queries.listForAccount(accountId)).map((row) => presentState(row, now)),
      };
    },

    async status(accountId: string, id: string): Promise<ServiceStatusDetail> {
      return statusOf(await owned(accountId, id));
    },

    start,
    stop,
    restart,
    retryPayment,

    async action(
      accountId: string,
      id: string,
      request: ServiceActionRequest,
      meta: ServiceMeta,
    ): Promise<ServiceActionResponse> {
      const result = await actions[request.action](accountId, id, request.params, meta);
      return {
        action: request.action,
        service: result.service ?? (await statusOf(await owned(accountId, id))),
        payment: result.payment,
        order_id: result.order_id,
      };
    },

    /**
     * The service's log, newest `lines` lines, oldest first: its activity entries (management:
     * who changed what, from where) and its node's outcomes (agent: generations applied, errors,
     * the data deleted), merged by time.
     */
    async logs(accountId: string, id: string, lines: number): Promise<{ lines: ServiceLogLine[] }> {
      const row = await owned(accountId, id);
      const [management, agent] = await Promise.all([
        deps.activity.listForService(accountId, row.id, lines),
        queries.listEvents(row.id, lines),
      ]);
      const merged: ServiceLogLine[] = [
        ...management.map((entry) => ({
          at: entry.createdAt.toISOString(),
          source: 'management' as const,
          level: entry.tone,
          code: entry.action,
          params: { ...entry.details, ...(entry.ip ? { ip: entry.ip } : {}) },
          message: entry.action,
        })),
        ...agent.map((event) => ({
          at: event.createdAt.toISOString(),
          source: 'agent' as const,
          level: event.level,
          code: event.code,
          // The node's own words keep its paths in the database; the owner reads them without.
          params: paramsWithoutNodePaths(event.details),
          message: withoutNodePaths(event.message),
        })),
      ];
      merged.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
      return { lines: merged.slice(-lines) };
    },

    async stats(accountId: string, id: string): Promise<ServiceStats> {
      const row = await owned(accountId, id);
      const counts = (await countsFor([row])).get(row.id) ?? NO_COUNTS;
      return presentStats(row, counts, deps.now());
    },

    async config(accountId: string, id: string): Promise<ServiceConfig> {
      return presentConfig(await owned(accountId, id));
    },

    async configure(
      accountId: string,
      id: string,
      update: ServiceConfigUpdate,
      meta: ServiceMeta,
    ): Promise<ServiceConfig> {
      return presentConfig(await configure(accountId, id, update, meta));
    },

    /** PUT /services/{id}: rename or describe; answers the overview item. */
    async update(
      accountId: string,
      id: string,
      update: ServiceUpdate,
      meta: ServiceMeta,
    ): Promise<ServiceOverviewItem> {
      const row = await configure(accountId, id, update, meta);
      const counts = (await countsFor([row])).get(row.id) ?? NO_COUNTS;
      return presentOverviewItem(
        row,
        await deps.planName(row.productId),
        counts,
        overviewTimedFields(row, deps.now()),
        (row.standbyNodeId && (await standbyNames([row])).get(row.standbyNodeId)) ?? null,
      );
    },
  };
}

export type ServicesService = ReturnType<typeof createServicesService>;
