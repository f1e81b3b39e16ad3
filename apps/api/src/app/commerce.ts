// The commercial modules: the catalogue and quotes, orders, credits, plan changes, invoices,
// payments (sessions, kept cards, the provider's events) and automatic renewals. Work that spans
// them (placing an order, paying it, changing a plan) runs in one transaction through each
// module's in-transaction port (servicesInTransaction, the services').
import { createSessionBoundReads } from '../modules/auth/auth.queries.ts';
import { geoipLookup } from '../modules/auth/detect-country.ts';
import { sellerFromConfig } from '../modules/billing/billing.config.ts';
import { createBillingQueries } from '../modules/billing/billing.queries.ts';
import { createBillingService } from '../modules/billing/billing.service.ts';
import { createCreditsQueries } from '../modules/credits/credits.queries.ts';
import { createCreditsService, creditsInTransaction } from '../modules/credits/credits.service.ts';
import { createOrderPlacement } from '../modules/orders/orders.placement.ts';
import { createOrdersQueries } from '../modules/orders/orders.queries.ts';
import { createOrdersService, ordersInTransaction } from '../modules/orders/orders.service.ts';
import { createQuotesService } from '../modules/orders/quotes.service.ts';
import { createVatSituation } from '../modules/orders/vat-situation.ts';
import { configuredProvider } from '../modules/payments/configured-provider.ts';
import { createPaymentFulfilment } from '../modules/payments/payment-fulfilment.ts';
import { createPaymentMethodsService } from '../modules/payments/payment-methods.service.ts';
import { createPaymentsService } from '../modules/payments/payments.service.ts';
import { createRenewals, renewalChargeSettled } from '../modules/payments/renewals.ts';
import { createPlanChangeApplication } from '../modules/plan-changes/plan-changes.apply.ts';
import { createPlanChangesService } from '../modules/plan-changes/plan-changes.service.ts';
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';
import { createFulfilmentFollowUp } from '../modules/services/services.background.ts';
import { createServicesQueries } from '../modules/services/services.queries.ts';
import { servicesInTransaction } from '../modules/services/services.in-transaction.ts';
import { createUsersQueries } from '../modules/users/users.queries.ts';
import { createViesClient, viesRequester } from '../modules/vies/vies.client.ts';
import { createViesQueries } from '../modules/vies/vies.queries.ts';
import { createViesService } from '../modules/vies/vies.service.ts';
import type { Accounts } from './accounts.ts';
import type { AppContext } from './context.ts';
import type { Workspaces } from './workspaces.ts';

/** The products on sale, the EU VAT number check (when VIES_URL names one) and price quotes. */
export function buildCatalogue({ config, database, now, log }: AppContext) {
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
        log,
        now,
      })
    : null;
  const quotes = createQuotesService({ products, vies });
  return { products, quotes };
}

export type Catalogue = ReturnType<typeof buildCatalogue>;

export function buildCommerce(
  ctx: AppContext,
  {
    accounts: { activity, usersQueries },
    catalogue: { products, quotes },
    workspaces,
  }: {
    accounts: Pick<Accounts, 'activity' | 'usersQueries'>;
    catalogue: Catalogue;
    workspaces: Pick<Workspaces, 'lifecycle' | 'wakeNode' | 'features'>;
  },
) {
  const { config, database, now, jobs } = ctx;
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
    usersInUse: (serviceId) => workspaces.features.planUsersInUse(serviceId),
    closePaymentSessions: (orderId) => payments.closeSessions(orderId),
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
    sendMail: jobs.sendMail,
    publicUrl: config.publicUrl,
    log: ctx.log,
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
      notifier: workspaces.lifecycle.notifier,
      enqueuePlacement: jobs.placement,
      wakeNode: workspaces.wakeNode,
    }),
    onChargeSettled: async (reference) => {
      const waited = await renewalChargeSettled(database.db, reference, now());
      if (waited) await jobs.renewals();
      return waited;
    },
    now,
  });
  const renewals = createRenewals({
    db: database.db,
    orders,
    methods: paymentMethods,
    payments,
    billing,
    users: usersQueries,
    services: createServicesQueries(database.db),
    activity,
    sendMail: jobs.sendMail,
    providerId: provider.id,
    publicUrl: config.publicUrl,
    now,
  });
  return { orders, credits, planChanges, billing, paymentMethods, payments, renewals };
}

export type Commerce = ReturnType<typeof buildCommerce>;
