// The dashboard's pages (spec §2), a route table of their own under /dashboard/*, in a chunk of
// its own: with the service tabs' table it is ~3 KiB gzipped that the landing pages need not
// download. A dashboard opened directly pays one more round trip for it.
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireSession } from '../auth/RequireSession.tsx';
import { serviceTabRoutes } from '../pages/services/service-tabs.ts';
import { DescendantRoutes, lazyRoute } from './route-tree.tsx';
import { notFound, queryScoped } from './router.tsx';

const paymentPages = async () => import('../pages/payments/PaymentPages.tsx');

const routes: RouteObject[] = [
  {
    element: (
      <RequireSession>
        <Outlet />
      </RequireSession>
    ),
    children: queryScoped([
      {
        Component: lazyRoute(async () => (await import('../layouts/DashboardLayout.tsx')).DashboardLayout),
        children: [
          { index: true, element: <Navigate to="/dashboard/services" replace /> },
          {
            path: 'services',
            Component: lazyRoute(async () => (await import('../pages/ServicesPage.tsx')).ServicesPage),
          },
          {
            // Spec §2 "Service detail": its tabs are child paths; any other path is not found.
            path: 'services/:serviceId',
            Component: lazyRoute(
              async () => (await import('../pages/services/ServiceDetailPage.tsx')).ServiceDetailPage,
            ),
            children: serviceTabRoutes(),
          },
          {
            path: 'plans',
            children: [
              {
                index: true,
                Component: lazyRoute(
                  async () => (await import('../pages/plan-changes/PlansListPage.tsx')).PlansListPage,
                ),
              },
              {
                path: 'change',
                Component: lazyRoute(
                  async () => (await import('../pages/plan-changes/PlanChangePage.tsx')).PlanChangePage,
                ),
              },
            ],
          },
          {
            path: 'payments/new/payment',
            Component: lazyRoute(async () => (await paymentPages()).NewPaymentPage),
          },
          {
            path: 'payments/new/:orderId/payment',
            Component: lazyRoute(async () => (await paymentPages()).OrderPaymentPage),
          },
          {
            path: 'payments/retry/:orderId/payment',
            Component: lazyRoute(async () => (await paymentPages()).RetryPaymentPage),
          },
          {
            path: 'payments/plan-change/:planChangeId/payment',
            Component: lazyRoute(
              async () => (await import('../pages/payments/PlanChangePaymentPage.tsx')).PlanChangePaymentPage,
            ),
          },
          {
            path: 'payments/extend/:serviceId/payment',
            Component: lazyRoute(
              async () => (await import('../pages/payments/ExtensionPaymentPage.tsx')).ExtensionPaymentPage,
            ),
          },
          {
            path: 'billing',
            Component: lazyRoute(async () => (await import('../pages/billing/BillingPage.tsx')).BillingPage),
          },
          {
            // The dunning mail's link: an unpaid invoice paid with any card.
            path: 'billing/invoices/:invoiceId/pay',
            Component: lazyRoute(
              async () => (await import('../pages/billing/PayInvoicePage.tsx')).PayInvoicePage,
            ),
          },
          {
            path: 'settings',
            Component: lazyRoute(
              async () => (await import('../pages/settings/SettingsPage.tsx')).SettingsPage,
            ),
          },
          {
            path: 'activity',
            Component: lazyRoute(
              async () => (await import('../pages/activity/ActivityPage.tsx')).ActivityPage,
            ),
          },
          notFound,
        ],
      },
    ]),
  },
];

export function DashboardRoutes() {
  return <DescendantRoutes routes={routes} />;
}
