// The workspace side: the service lifecycle's background (placement follow-ups, notices), the
// workspace features (WORKSPACE_FEATURES: users and groups, Samba, …) on one change pipeline, the
// owner's services and the nodes that run them.
import type { FastifyInstance } from 'fastify';
import { serverSecretOf } from '../config.ts';
import { createSessionBoundReads } from '../modules/auth/auth.queries.ts';
import type { NodeCalls } from '../modules/nodes/node-calls.ts';
import { nodeWakeups } from '../modules/nodes/node-waker.ts';
import { createNodesQueries } from '../modules/nodes/nodes.queries.ts';
import { createNodesService } from '../modules/nodes/nodes.service.ts';
import type { OrdersService } from '../modules/orders/orders.service.ts';
import type { PaymentsService } from '../modules/payments/payments.service.ts';
import type { PlanChangesService } from '../modules/plan-changes/plan-changes.service.ts';
import type { ProductsService } from '../modules/products/products.service.ts';
import { createServicesBackground, createServiceWaker } from '../modules/services/services.background.ts';
import { createServicesService } from '../modules/services/services.service.ts';
import { activityInTransaction } from '../modules/workspace/activity-in-transaction.ts';
import { createWorkspaceChanges } from '../modules/workspace/workspace-change.ts';
import { createWorkspaceFeatures, type PlanFacts } from '../modules/workspace/workspace-feature.ts';
import { createWorkspaceState } from '../modules/workspace/workspace-state.ts';
import { WORKSPACE_FEATURES } from '../workspace-features.ts';
import type { Accounts } from './accounts.ts';
import type { AppContext } from './context.ts';
import { createNodeCallsHub } from './node-calls.ts';

export async function buildWorkspaces(
  app: FastifyInstance,
  ctx: AppContext,
  {
    accounts,
    products,
    nodeCalls,
  }: {
    accounts: Pick<Accounts, 'activity' | 'usersQueries' | 'limiter'>;
    products: ProductsService;
    /** Questions to the nodes, when the caller (a test) answers them as a node would. */
    nodeCalls: NodeCalls | undefined;
  },
) {
  const { config, database, now } = ctx;
  // The service lifecycle: placement and the sweep run as jobs in the worker; the API follows up
  // payments (a placement job, a restored service) and its nodes' reports (ready, deleted).
  const wakeNode = nodeWakeups(database, ctx.log);
  const lifecycle = createServicesBackground({
    db: database.db,
    users: accounts.usersQueries,
    activity: accounts.activity,
    sendMail: ctx.jobs.sendMail,
    publicUrl: config.publicUrl,
    wakeNode,
    now,
  });
  // The overview, the nodes' desired state and the routes iterate the features' registry. `wake`
  // (the node's wake-up) is only a shortcut: the agent polls anyway.
  const recordActivity = activityInTransaction(accounts.activity);
  const workspaceChanges = createWorkspaceChanges({
    db: database.db,
    recordActivity,
    wake: createServiceWaker(database.db, wakeNode),
    now,
    log: ctx.log,
  });
  // A plan's address kind, from the catalogue's few-seconds-old copy: it changes a few times a year.
  const plans: PlanFacts = {
    publicAddress: async (productId) => (await products.snapshot()).get(productId).address === 'dedicated',
  };
  const nodeCallsHub = await createNodeCallsHub(app, { config, database });
  const calls: NodeCalls = nodeCalls ?? nodeCallsHub;
  const features = createWorkspaceFeatures(
    {
      db: database.db,
      changes: workspaceChanges,
      nodeCalls: calls,
      publicUrl: config.publicUrl,
      plans,
      recordActivity,
      limiter: accounts.limiter,
      serverSecret: serverSecretOf(config),
      secureCookies: !config.embedded,
      ...(config.BACKUP_TARGET_URL ? { backupTargetUrl: config.BACKUP_TARGET_URL } : {}),
      runSoon: ctx.jobs.runSoon,
    },
    WORKSPACE_FEATURES,
  );
  return { wakeNode, lifecycle, plans, nodeCallsHub, nodeCalls: calls, features };
}

export type Workspaces = Awaited<ReturnType<typeof buildWorkspaces>>;

/** The owner's services and the nodes: they follow the orders, payments and plan changes. */
export function buildServicesAndNodes(
  ctx: AppContext,
  {
    accounts,
    workspaces,
    products,
    orders,
    payments,
    planChanges,
  }: {
    accounts: Pick<Accounts, 'activity'>;
    workspaces: Workspaces;
    products: ProductsService;
    orders: OrdersService;
    payments: Pick<PaymentsService, 'createSession'>;
    planChanges: Pick<PlanChangesService, 'storageReported'>;
  },
) {
  const { config, database, now } = ctx;
  const nodesQueries = createNodesQueries(database.db);
  const services = createServicesService({
    db: database.db,
    // A name in a list may be a few seconds old: the catalogue snapshot saves three queries.
    planName: async (productId) => {
      try {
        return (await products.snapshot()).get(productId).name;
      } catch {
        return productId;
      }
    },
    featureCounts: (ids) => workspaces.features.counts(ids),
    activity: accounts.activity,
    notifier: workspaces.lifecycle.notifier,
    createPaymentSession: (accountId, orderId, flow) => payments.createSession(accountId, orderId, flow),
    orders,
    nodeLastSeen: async (nodeId) => (await nodesQueries.findById(nodeId))?.lastSeenAt ?? null,
    sessionBound: createSessionBoundReads(database.db),
    wakeNode: workspaces.wakeNode,
    now,
  });
  const nodes = createNodesService({
    queries: nodesQueries,
    registrationToken: config.nodeRegistrationToken,
    alert: { supportEmail: config.SUPPORT_EMAIL, sendMail: ctx.jobs.sendMail },
    log: ctx.log,
    onEnrolled: ctx.jobs.retryPlacement,
    workspaces: createWorkspaceState({
      db: database.db,
      features: workspaces.features,
      plans: workspaces.plans,
      notifier: workspaces.lifecycle.notifier,
      storageReported: (reports, at) => planChanges.storageReported(reports, at),
      now,
      log: ctx.log,
    }),
    now,
  });
  return { services, nodes };
}
