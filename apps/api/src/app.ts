// Builds the Fastify application: plugins in order (external → app → routes), every module's
// routes under /api/v1, the OpenAPI document at /api/docs, and the web app for everything else.
// The caller owns the database, queue and mailer, so tests and the real process build it alike.
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { serverSecretOf, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { MailMessage } from './mail/mailer.ts';
import { accessPlugin, registerWithAccess } from './http/access.ts';
import { csrfPlugin } from './http/csrf.ts';
import { errorHandlerPlugin } from './http/error-handler.ts';
import { languagePlugin } from './http/language.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.ts';
import { closeConnectionsWhenClosing } from './http/closing-connections.ts';
import { loggerOptions } from './http/logging.ts';
import { createMetrics, metricsPlugin, metricsQueries } from './http/metrics.ts';
import { securityPlugin } from './http/security.ts';
import { inlinedScripts, webAppPlugin } from './http/web-app.ts';
import { createHealthService } from './modules/health/health.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createActivityQueries } from './modules/activity/activity.queries.ts';
import { createActivityService } from './modules/activity/activity.service.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { accessGuards } from './http/caller.ts';
import { createAuthQueries, createSessionBoundReads } from './modules/auth/auth.queries.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createAccessTokens } from './modules/auth/tokens.ts';
import { createRateLimitQueries } from './modules/rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from './modules/rate-limits/rate-limits.service.ts';
import { createUsersQueries } from './modules/users/users.queries.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { settingsRoutes, usersRoutes } from './modules/users/users.routes.ts';
import { createNodesQueries } from './modules/nodes/nodes.queries.ts';
import { createOrdersQueries } from './modules/orders/orders.queries.ts';
import { ordersRoutes } from './modules/orders/orders.routes.ts';
import { pendingPlanRoutes } from './modules/orders/pending-plan.routes.ts';
import { createOrdersService, ordersInTransaction } from './modules/orders/orders.service.ts';
import { createOrderPlacement } from './modules/orders/orders.placement.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createPaymentFulfilment } from './modules/payments/payment-fulfilment.ts';
import { createRenewals, renewalChargeSettled, type Renewals } from './modules/payments/renewals.ts';
import { planChangesRoutes } from './modules/plan-changes/plan-changes.routes.ts';
import { createPlanChangesService } from './modules/plan-changes/plan-changes.service.ts';
import { createPlanChangeApplication } from './modules/plan-changes/plan-changes.apply.ts';
import { creditsRoutes } from './modules/credits/credits.routes.ts';
import { createCreditsQueries } from './modules/credits/credits.queries.ts';
import { createCreditsService, creditsInTransaction } from './modules/credits/credits.service.ts';
import { configuredProvider } from './modules/payments/configured-provider.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { sellerFromConfig } from './modules/billing/billing.config.ts';
import { sandboxRoutes } from './modules/payments/sandbox.routes.ts';
import { createPaymentMethodsService } from './modules/payments/payment-methods.service.ts';
import { paymentMethodsRoutes } from './modules/payments/payment-methods.routes.ts';
import { createQuotesService } from './modules/orders/quotes.service.ts';
import { createVatSituation } from './modules/orders/vat-situation.ts';
import { createBillingQueries } from './modules/billing/billing.queries.ts';
import { geoipLookup } from './modules/auth/detect-country.ts';
import { createViesClient, viesRequester } from './modules/vies/vies.client.ts';
import { createViesQueries } from './modules/vies/vies.queries.ts';
import { createViesService } from './modules/vies/vies.service.ts';
import { createServicesQueries } from './modules/services/services.queries.ts';
import { servicesInTransaction } from './modules/services/services.in-transaction.ts';
import { servicesRoutes } from './modules/services/services.routes.ts';
import { createServicesService } from './modules/services/services.service.ts';
import {
  createFulfilmentFollowUp,
  createServicesBackground,
  createServiceWaker,
} from './modules/services/services.background.ts';
import { localAgents, nodeWakeups } from './modules/nodes/node-waker.ts';
import { quotesRoutes } from './modules/orders/quotes.routes.ts';
import { createProductsQueries } from './modules/products/products.queries.ts';
import { productsRoutes } from './modules/products/products.routes.ts';
import { createProductsService } from './modules/products/products.service.ts';
import { createOAuthProviders } from './modules/oauth/oauth.providers.ts';
import { createOAuthQueries } from './modules/oauth/oauth.queries.ts';
import { oauthRoutes } from './modules/oauth/oauth.routes.ts';
import { createOAuthService } from './modules/oauth/oauth.service.ts';
import { createNodesService } from './modules/nodes/nodes.service.ts';
import { nodesRoutes } from './modules/nodes/nodes.routes.ts';
import { createReplicaRelay } from './modules/replicas/replica-relay.ts';
import { createNodeCalls } from './modules/nodes/node-calls.ts';
import { createNodeCallsRelay } from './modules/nodes/node-calls-relay.ts';
import { activityInTransaction } from './modules/workspace/activity-in-transaction.ts';
import { WORKSPACE_FEATURES } from './workspace-features.ts';
import { createWorkspaceChanges } from './modules/workspace/workspace-change.ts';
import {
  createWorkspaceFeatures,
  type NodeCalls,
  type PlanFacts,
} from './modules/workspace/workspace-feature.ts';
import { createWorkspaceState } from './modules/workspace/workspace-state.ts';
import { createContactQueries } from './modules/contact/contact.queries.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { createAnalyticsQueries } from './modules/analytics/analytics.queries.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { APP_VERSION } from './version.ts';

export interface AppDependencies {
  config: Config;
  database: Database;
  queue: JobQueue;
  /** A pino logger, or false for none (tests). */
  logger?: FastifyBaseLogger | false;
  now?: () => Date;
  /** How mail leaves the app; default: a `mail.send` job (tests capture messages instead). */
  sendMail?: (message: MailMessage) => Promise<void>;
  /** Questions to the nodes (tests answer them as a node would). */
  nodeCalls?: NodeCalls;
}

export type App = FastifyInstance;

const nodeCallsOfApp = new WeakMap<App, NodeCalls>();
const renewalsOfApp = new WeakMap<App, Renewals>();

/**
 * The automatic renewals of an app's payment services (the `billing.renewals` job): the worker
 * role runs them with an app it builds without listening, tests with theirs.
 */
export function renewalsOf(app: App): Renewals {
  const renewals = renewalsOfApp.get(app);
  if (!renewals) throw new Error('renewalsOf: not an app made by buildApp');
  return renewals;
}

/** The app's node calls, as its features get them (for tests and tools in this process). */
export function nodeCallsOf(app: App): NodeCalls {
  const calls = nodeCallsOfApp.get(app);
  if (!calls) throw new Error('nodeCallsOf: not an app made by buildApp');
  return calls;
}

/** Logs each request once, when it completes, with what was asked and how it ended. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else request.log.info(line, 'request completed');
  }
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const { config, database, queue } = deps;
  const app = Fastify({
    ...(deps.logger
      ? { loggerInstance: deps.logger }
      : { logger: deps.logger ?? loggerOptions(config.LOG_LEVEL) }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // The header is read by `requestIdOf`, which keeps only a well-formed id.
    requestIdHeader: false,
    genReqId: requestIdOf,
    logController: new OneLinePerRequest(),
  }).withTypeProvider<ZodTypeProvider>();

  closeConnectionsWhenClosing(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  // Before any route: every route declares who may call it (config.access), enforced there.
  // The guards are read when a request comes, after the services are built below.
  await app.register(accessPlugin, { guards: () => guards });

  // External plugins.
  await app.register(errorHandlerPlugin);
  await app.register(languagePlugin);
  await app.register(securityPlugin, {
    corsOrigins: config.CORS_ORIGINS,
    https: !config.embedded,
    inlineScripts: inlinedScripts(config.webDist),
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(csrfPlugin, { secure: !config.embedded });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Debesis API', version: APP_VERSION },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await registerWithAccess(app, 'public', () =>
    app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true }),
  );
  // Operators' metrics (http/metrics.ts), kept only when METRICS_TOKEN or METRICS_PORT asks for them.
  if (config.METRICS_TOKEN !== undefined || config.METRICS_PORT !== undefined) {
    const sources = {
      ...metricsQueries(database, deps.now ?? (() => new Date())),
      nodeSummary: () => nodes.summary(),
    };
    await app.register(metricsPlugin, {
      metrics: createMetrics({ sources }),
      ...(config.METRICS_TOKEN !== undefined ? { token: config.METRICS_TOKEN } : {}),
    });
  }

  // Application services, each with only what it needs.
  const now = deps.now ?? (() => new Date());
  const activity = createActivityService({
    queries: createActivityQueries(database.db),
    now,
    ownsService: async (accountId, serviceId) =>
      (await createServicesQueries(database.db).findForAccount(accountId, serviceId)) !== undefined,
    serviceNames: (accountId, ids) => createServicesQueries(database.db).namesOf(accountId, ids),
  });
  const limiter = createRateLimiter({ queries: createRateLimitQueries(database.db), now });
  const usersQueries = createUsersQueries(database.db);
  const users = createUsersService({ queries: usersQueries, activity });
  const authQueries = createAuthQueries(database.db);
  const auth = createAuthService({
    users: usersQueries,
    queries: authQueries,
    tokens: createAccessTokens(config.jwtSecret, now),
    limiter,
    activity,
    sendMail:
      deps.sendMail ??
      (async (message) => {
        await queue.send('mail.send', message, { idempotencyKey: message.id });
      }),
    queuePasswordReset: async (email) => {
      await queue.send('auth.password-reset', { email });
    },
    publicUrl: config.publicUrl,
    now,
  });
  const products = createProductsService({
    queries: createProductsQueries(database.db),
    snapshotTtlMs: config.CATALOGUE_SNAPSHOT_TTL_MS,
  });
  const vies = config.VIES_URL
    ? createViesService({
        client: createViesClient({
          baseUrl: config.VIES_URL,
          timeoutMs: config.VIES_TIMEOUT_MS,
          requester: viesRequester(config.SELLER_VAT_NUMBER),
        }),
        queries: createViesQueries(database.db),
        retryAfterMs: config.VIES_RETRY_AFTER_MS,
        log: app.log,
        now,
      })
    : null;
  const quotes = createQuotesService({ products, vies });
  // Work that spans modules (placing an order, paying it, changing a plan) runs in one
  // transaction through each module's in-transaction port (servicesInTransaction, the services').
  const placePricedOrder = createOrderPlacement({ credits: creditsInTransaction });
  const planChangeApplication = createPlanChangeApplication({
    db: database.db,
    services: servicesInTransaction,
    credits: creditsInTransaction,
    activity,
  });
  const orders = createOrdersService({
    db: database.db,
    queries: createOrdersQueries(database.db),
    quotes,
    products,
    vatCustomerOf: createVatSituation({
      users: usersQueries,
      billingInfo: (accountId) => createBillingQueries(database.db).findInfo(accountId),
      ipCountry: geoipLookup,
    }),
    services: createServicesQueries(database.db),
    activity,
    placePricedOrder,
    credits: creditsInTransaction,
    cancelPlanChange: (tx, id, at) => planChangeApplication.cancel(tx, id, at),
    // Read when an order is cancelled, after payments is built below.
    closePaymentSessions: (orderId) => payments.closeSessions(orderId),
    voidUnpaidInvoice: (db, accountId, orderId) =>
      createBillingQueries(db).voidInvoiceOfOrder(accountId, orderId),
    now,
  });
  const credits = createCreditsService({
    queries: createCreditsQueries(database.db),
    reserved: (accountId) => createOrdersQueries(database.db).reservedCredit(accountId),
  });
  const planChanges = createPlanChangesService({
    db: database.db,
    products,
    quotes,
    orders: { customerOf: orders.customerOf, cancel: ordersInTransaction.cancel },
    placePricedOrder,
    services: createServicesQueries(database.db),
    credits: { free: (accountId) => credits.free(accountId), lockAccount: creditsInTransaction.lockAccount },
    application: planChangeApplication,
    activity,
    // Read when a plan change comes, after the features are registered below.
    usersInUse: (serviceId) => workspaceFeatures.planUsersInUse(serviceId),
    closePaymentSessions: (orderId) => payments.closeSessions(orderId),
    now,
  });
  // The service lifecycle: placement and the sweep run as jobs in the worker; the API follows up
  // payments (a placement job, a restored service) and its nodes' reports (ready, deleted).
  const wakeNode = nodeWakeups(database, app.log);
  const lifecycle = createServicesBackground({
    db: database.db,
    users: usersQueries,
    activity,
    sendMail:
      deps.sendMail ??
      (async (message) => {
        await queue.send('mail.send', message, { idempotencyKey: message.id });
      }),
    publicUrl: config.publicUrl,
    wakeNode,
    now,
  });
  const nodesQueries = createNodesQueries(database.db);
  const servicesService = createServicesService({
    db: database.db,
    // A name in a list may be a few seconds old: the catalogue snapshot saves three queries.
    planName: async (productId) => {
      try {
        return (await products.snapshot()).get(productId).name;
      } catch {
        return productId;
      }
    },
    // Read when a request comes, after the features are registered below.
    featureCounts: (ids) => workspaceFeatures.counts(ids),
    activity,
    notifier: lifecycle.notifier,
    createPaymentSession: (accountId, orderId, flow) => payments.createSession(accountId, orderId, flow),
    orders,
    nodeLastSeen: async (nodeId) => (await nodesQueries.findById(nodeId))?.lastSeenAt ?? null,
    sessionBound: createSessionBoundReads(database.db),
    wakeNode,
    now,
  });
  const billing = createBillingService({
    db: database.db,
    sources: {
      order: (db, id) => createOrdersQueries(db).findById(id),
      ordersOf: (accountId) => createOrdersQueries(database.db).listForAccount(accountId),
      owner: (db, accountId) => createUsersQueries(db).findById(accountId),
      service: (db, accountId, serviceId) => createServicesQueries(db).findForAccount(accountId, serviceId),
    },
    seller: sellerFromConfig(config),
    activity,
    sessionBound: createSessionBoundReads(database.db),
    creditBalance: (accountId) => createCreditsQueries(database.db).balance(accountId),
    sendMail:
      deps.sendMail ??
      (async (message) => {
        await queue.send('mail.send', message, { idempotencyKey: message.id });
      }),
    publicUrl: config.publicUrl,
    log: app.log,
    now,
  });
  const provider = configuredProvider(config, database.db);
  const paymentMethods = createPaymentMethodsService({
    db: database.db,
    provider,
    users: usersQueries,
    activity,
    publicUrl: config.publicUrl,
    now,
  });
  const payments = createPaymentsService({
    db: database.db,
    methods: paymentMethods,
    invoices: billing,
    fulfilment: createPaymentFulfilment({
      credits: creditsInTransaction,
      orders: ordersInTransaction,
      planChanges: planChangeApplication,
      services: servicesInTransaction,
      invoices: billing,
      activity,
    }),
    provider,
    orders,
    activity,
    publicUrl: config.publicUrl,
    onFulfilled: createFulfilmentFollowUp({
      db: database.db,
      notifier: lifecycle.notifier,
      enqueuePlacement: async (serviceId) => {
        await queue.send('services.place', { serviceId }, { idempotencyKey: `place-${serviceId}` });
      },
      wakeNode,
    }),
    onChargeSettled: async (reference) => {
      const waited = await renewalChargeSettled(database.db, reference, now());
      if (waited) await queue.send('billing.renewals', {});
      return waited;
    },
    now,
  });
  renewalsOfApp.set(
    app,
    createRenewals({
      db: database.db,
      orders,
      methods: paymentMethods,
      payments,
      billing,
      users: usersQueries,
      services: createServicesQueries(database.db),
      activity,
      sendMail:
        deps.sendMail ??
        (async (message) => {
          await queue.send('mail.send', message, { idempotencyKey: message.id });
        }),
      providerId: provider.id,
      publicUrl: config.publicUrl,
      now,
    }),
  );
  const oauth = createOAuthService({
    queries: createOAuthQueries(database.db),
    providers: createOAuthProviders(config),
    users: usersQueries,
    sessions: authQueries,
    auth,
    activity,
    publicUrl: config.publicUrl,
    now,
  });
  // The workspace features (WORKSPACE_FEATURES: users and groups, Samba) on one change pipeline;
  // the overview, the nodes' desired state and the routes below iterate their registry. `wake`
  // (the node's wake-up) is only a shortcut: the agent polls anyway.
  const recordActivity = activityInTransaction(activity);
  const workspaceChanges = createWorkspaceChanges({
    db: database.db,
    recordActivity,
    wake: createServiceWaker(database.db, wakeNode),
    now,
    log: app.log,
  });
  // A plan's address kind, from the catalogue's few-seconds-old copy: it changes a few times a year.
  const plans: PlanFacts = {
    publicAddress: async (productId) => (await products.snapshot()).get(productId).address === 'dedicated',
  };
  // Questions to the node that runs a service (a VPN user's config), met by that node's long
  // poll in this process (node-calls.ts says why in memory). Closing the app ends held polls
  // first, so the server is not kept open by them. Tests may answer for the nodes instead.
  const servicesQueries = createServicesQueries(database.db);
  // On a server, several API processes share the calls through the database (node-calls-relay.ts).
  const relay = database.listen
    ? await createNodeCallsRelay({
        database,
        selfUrl: (config.INTERNAL_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, ''),
      })
    : undefined;
  const nodeCallsHub = createNodeCalls({
    nodeOf: async (serviceId) => (await servicesQueries.findById(serviceId))?.nodeId ?? undefined,
    log: app.log,
    ...(relay ? { relay } : {}),
  });
  app.addHook('preClose', async () => nodeCallsHub.close());
  // Without a relay every wake-up starts in this process; with one, it comes through the database.
  if (!relay) {
    const stopHearing = localAgents.listen((nodeId) => nodeCallsHub.nudge(nodeId));
    app.addHook('onClose', async () => stopHearing());
  }
  app.addHook('onClose', async () => relay?.close());
  const nodeCalls: NodeCalls = deps.nodeCalls ?? nodeCallsHub;
  nodeCallsOfApp.set(app, nodeCalls);
  const workspaceFeatures = createWorkspaceFeatures(
    {
      db: database.db,
      changes: workspaceChanges,
      nodeCalls,
      publicUrl: config.publicUrl,
      plans,
      recordActivity,
      limiter,
      serverSecret: serverSecretOf(config),
      secureCookies: !config.embedded,
      ...(config.BACKUP_TARGET_URL ? { backupTargetUrl: config.BACKUP_TARGET_URL } : {}),
    },
    WORKSPACE_FEATURES,
  );
  const nodes = createNodesService({
    queries: nodesQueries,
    registrationToken: config.nodeRegistrationToken,
    alert: {
      supportEmail: config.SUPPORT_EMAIL,
      sendMail:
        deps.sendMail ??
        (async (message) => {
          await queue.send('mail.send', message, { idempotencyKey: message.id });
        }),
    },
    log: app.log,
    onEnrolled: async () => {
      await queue.send('services.retry-placement', {});
    },
    workspaces: createWorkspaceState({
      db: database.db,
      features: workspaceFeatures,
      plans,
      notifier: lifecycle.notifier,
      storageReported: (reports, at) => planChanges.storageReported(reports, at),
      now,
    }),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const guards = accessGuards(auth, nodes, workspaceFeatures.callers);
  const contact = createContactService({
    queries: createContactQueries(database.db),
    limiter,
    sendMail:
      deps.sendMail ??
      (async (message) => {
        await queue.send('mail.send', message, { idempotencyKey: message.id });
      }),
    supportEmail: config.SUPPORT_EMAIL,
    now,
  });
  const analytics = createAnalyticsService({ queries: createAnalyticsQueries(database.db), limiter, now });
  const dashboard = createDashboardService({
    services: createServicesQueries(database.db),
    orders,
    creditBalance: (accountId) => createCreditsQueries(database.db).balance(accountId),
    activity,
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

  // Routes.
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health });
      await api.register(authRoutes, {
        prefix: '/auth',
        auth,
        trustProxy: config.TRUST_PROXY !== false,
      });
      await api.register(oauthRoutes, { prefix: '/auth/oauth', oauth, secureCookies: !config.embedded });
      await api.register(usersRoutes, { prefix: '/users', users });
      await api.register(settingsRoutes, { prefix: '/settings', users });
      await api.register(productsRoutes, { prefix: '/products', products });
      await api.register(quotesRoutes, { prefix: '/orders', quotes, auth, customerOf: orders.customerOf });
      await api.register(ordersRoutes, { prefix: '/orders', orders, payments });
      await api.register(paymentsRoutes, {
        prefix: '/payments',
        payments,
        unpaidInvoice: (accountId, invoiceId) => billing.unpaidInvoice(accountId, invoiceId),
      });
      await api.register(pendingPlanRoutes, { prefix: '/auth', orders });
      await api.register(planChangesRoutes, { prefix: '/plan-changes', planChanges });
      await api.register(creditsRoutes, { prefix: '/account', credits });
      await api.register(billingRoutes, { prefix: '/billing', billing });
      await api.register(paymentMethodsRoutes, {
        prefix: '/billing/payment-methods',
        methods: paymentMethods,
      });
      await api.register(servicesRoutes, { prefix: '/services', services: servicesService });
      await api.register(nodesRoutes, {
        prefix: '/nodes',
        nodes,
        calls: nodeCallsHub,
        replicas: createReplicaRelay({ db: database.db, calls: nodeCallsHub, now }),
      });
      for (const feature of workspaceFeatures.features) await feature.routes?.(api);
      await api.register(activityRoutes, { prefix: '/activity', activity });
      await api.register(dashboardRoutes, { prefix: '/dashboard', dashboard });
      await api.register(contactRoutes, { contact });
      await api.register(analyticsRoutes, { analytics });
    },
    { prefix: '/api/v1' },
  );
  if (config.PAYMENT_PROVIDER === 'sandbox') {
    await app.register(sandboxRoutes, {
      prefix: '/payments-sandbox',
      payments,
      methods: paymentMethods,
      queue,
      users: usersQueries,
    });
  }
  await app.register(webAppPlugin, { webDist: config.webDist });

  return app;
}
