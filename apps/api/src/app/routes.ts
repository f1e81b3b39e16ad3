// Every module's routes under /api/v1 (the workspace features' from their registry), the sandbox
// provider's card page when it is the configured provider, and the web app for everything else.
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { webAppPlugin } from '../http/web-app.ts';
import { activityRoutes } from '../modules/activity/activity.routes.ts';
import { analyticsRoutes } from '../modules/analytics/analytics.routes.ts';
import { authRoutes } from '../modules/auth/auth.routes.ts';
import { billingRoutes } from '../modules/billing/billing.routes.ts';
import { contactRoutes } from '../modules/contact/contact.routes.ts';
import { creditsRoutes } from '../modules/credits/credits.routes.ts';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes.ts';
import { healthRoutes } from '../modules/health/health.routes.ts';
import { nodesRoutes } from '../modules/nodes/nodes.routes.ts';
import { oauthRoutes } from '../modules/oauth/oauth.routes.ts';
import { ordersRoutes } from '../modules/orders/orders.routes.ts';
import { pendingPlanRoutes } from '../modules/orders/pending-plan.routes.ts';
import { quotesRoutes } from '../modules/orders/quotes.routes.ts';
import { paymentMethodsRoutes } from '../modules/payments/payment-methods.routes.ts';
import { paymentsRoutes } from '../modules/payments/payments.routes.ts';
import { sandboxRoutes } from '../modules/payments/sandbox.routes.ts';
import { planChangesRoutes } from '../modules/plan-changes/plan-changes.routes.ts';
import { productsRoutes } from '../modules/products/products.routes.ts';
import { createReplicaRelay } from '../modules/replicas/replica-relay.ts';
import { servicesRoutes } from '../modules/services/services.routes.ts';
import { settingsRoutes, usersRoutes } from '../modules/users/users.routes.ts';
import type { AppModules } from './modules.ts';
import type { Server } from './server.ts';

export async function registerRoutes(
  app: Server,
  m: AppModules,
  { config, database, queue, now }: { config: Config; database: Database; queue: JobQueue; now: () => Date },
): Promise<void> {
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health: m.health });
      await api.register(authRoutes, {
        prefix: '/auth',
        auth: m.auth,
        trustProxy: config.TRUST_PROXY !== false,
      });
      await api.register(oauthRoutes, {
        prefix: '/auth/oauth',
        oauth: m.oauth,
        secureCookies: !config.embedded,
      });
      await api.register(usersRoutes, { prefix: '/users', users: m.users });
      await api.register(settingsRoutes, { prefix: '/settings', users: m.users });
      await api.register(productsRoutes, { prefix: '/products', products: m.products });
      await api.register(quotesRoutes, {
        prefix: '/orders',
        quotes: m.quotes,
        auth: m.auth,
        customerOf: m.orders.customerOf,
      });
      await api.register(ordersRoutes, { prefix: '/orders', orders: m.orders, payments: m.payments });
      await api.register(paymentsRoutes, {
        prefix: '/payments',
        payments: m.payments,
        unpaidInvoice: (accountId, invoiceId) => m.billing.unpaidInvoice(accountId, invoiceId),
      });
      await api.register(pendingPlanRoutes, { prefix: '/auth', orders: m.orders });
      await api.register(planChangesRoutes, { prefix: '/plan-changes', planChanges: m.planChanges });
      await api.register(creditsRoutes, { prefix: '/account', credits: m.credits });
      await api.register(billingRoutes, { prefix: '/billing', billing: m.billing });
      await api.register(paymentMethodsRoutes, {
        prefix: '/billing/payment-methods',
        methods: m.paymentMethods,
      });
      await api.register(servicesRoutes, { prefix: '/services', services: m.services });
      await api.register(nodesRoutes, {
        prefix: '/nodes',
        nodes: m.nodes,
        calls: m.workspaces.nodeCallsHub,
        replicas: createReplicaRelay({ db: database.db, calls: m.workspaces.nodeCallsHub, now }),
      });
      for (const feature of m.workspaces.features.features) await feature.routes?.(api);
      await api.register(activityRoutes, { prefix: '/activity', activity: m.activity });
      await api.register(dashboardRoutes, { prefix: '/dashboard', dashboard: m.dashboard });
      await api.register(contactRoutes, { contact: m.contact });
      await api.register(analyticsRoutes, { analytics: m.analytics });
    },
    { prefix: '/api/v1' },
  );
  if (config.PAYMENT_PROVIDER === 'sandbox') {
    await app.register(sandboxRoutes, {
      prefix: '/payments-sandbox',
      payments: m.payments,
      methods: m.paymentMethods,
      queue,
      users: m.usersQueries,
    });
  }
  await app.register(webAppPlugin, { webDist: config.webDist });
}
