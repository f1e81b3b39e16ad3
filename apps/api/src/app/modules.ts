// Every module's service, each built with only what it needs, in the order they need each other:
// accounts, the catalogue, the workspace side, commerce, then the services and nodes that follow
// commerce. A lower module's port onto a higher one (services' payment session, the activity
// log's service names) is wired here, never by the module importing the other.
import type { FastifyInstance } from 'fastify';
import { accessGuards } from '../http/caller.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { createAnalyticsQueries } from '../modules/analytics/analytics.queries.ts';
import { createAnalyticsService } from '../modules/analytics/analytics.service.ts';
import { createContactQueries } from '../modules/contact/contact.queries.ts';
import { createContactService } from '../modules/contact/contact.service.ts';
import { createCreditsQueries } from '../modules/credits/credits.queries.ts';
import { createDashboardService } from '../modules/dashboard/dashboard.service.ts';
import { createHealthService } from '../modules/health/health.service.ts';
import type { NodeCalls } from '../modules/nodes/node-calls.ts';
import { createServicesQueries } from '../modules/services/services.queries.ts';
import { APP_VERSION } from '../version.ts';
import { buildAccounts } from './accounts.ts';
import { buildCatalogue, buildCommerce } from './commerce.ts';
import type { AppContext } from './context.ts';
import { buildServicesAndNodes, buildWorkspaces } from './workspaces.ts';

export async function buildModules(
  app: FastifyInstance,
  ctx: AppContext,
  { queue, nodeCalls }: { queue: JobQueue; nodeCalls: NodeCalls | undefined },
) {
  const { config, database, now } = ctx;
  const accounts = buildAccounts(ctx);
  const catalogue = buildCatalogue(ctx);
  const workspaces = await buildWorkspaces(app, ctx, { accounts, products: catalogue.products, nodeCalls });
  const commerce = buildCommerce(ctx, { accounts, catalogue, workspaces });
  const { services, nodes } = buildServicesAndNodes(ctx, {
    accounts,
    workspaces,
    products: catalogue.products,
    orders: commerce.orders,
    payments: commerce.payments,
    planChanges: commerce.planChanges,
  });
  const contact = createContactService({
    queries: createContactQueries(database.db),
    limiter: accounts.limiter,
    sendMail: ctx.jobs.sendMail,
    supportEmail: config.SUPPORT_EMAIL,
    now,
  });
  const analytics = createAnalyticsService({
    queries: createAnalyticsQueries(database.db),
    limiter: accounts.limiter,
    now,
  });
  const dashboard = createDashboardService({
    services: createServicesQueries(database.db),
    orders: commerce.orders,
    creditBalance: (accountId) => createCreditsQueries(database.db).balance(accountId),
    activity: accounts.activity,
    now,
  });
  const health = createHealthService({
    databaseKind: database.kind,
    pingDatabase: async () => {
      await database.executeSql('select 1 as ok');
    },
    pendingJobs: () => queue.pending(),
    nodeSummary: () => nodes.summary(),
    version: APP_VERSION,
    startedAt: Date.now(),
    maxAgeMs: config.HEALTH_MAX_AGE_MS,
  });
  return {
    ...accounts,
    ...catalogue,
    ...commerce,
    workspaces,
    services,
    nodes,
    guards: accessGuards(accounts.auth, nodes, workspaces.features.callers),
    contact,
    analytics,
    dashboard,
    health,
  };
}

export type AppModules = Awaited<ReturnType<typeof buildModules>>;
