// Every route of the app (spec §2). Pages are loaded on demand, so the home page downloads only
// the shell and itself; layouts shared by many pages come with the first page that needs them.
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireSession } from '../auth/RequireSession.tsx';
import { PublicLayout } from '../layouts/PublicLayout.tsx';
import { serviceTabRoutes } from '../pages/services/service-tabs.ts';
import { PageLoading } from './PageLoading.tsx';
import { RootShell } from './RootShell.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';

const plansPage = async () => ({ Component: (await import('../pages/plans/PlansPage.tsx')).PlansPage });

const paymentPages = async () => import('../pages/payments/PaymentPages.tsx');

const legalPages = async () => import('../pages/public/LegalPage.tsx');

const solutionPages = async () => import('../pages/public/SolutionPage.tsx');

const completionPage = async () => ({
  Component: (await import('../pages/payments/PaymentCompletePage.tsx')).PaymentCompletePage,
});

/** Where the payment provider returns; no sign-in needed (spec §2), so outside the guard. */
const PAYMENT_COMPLETE_PATHS = [
  'dashboard/payments/new/complete',
  'dashboard/payments/new/:orderId/payment/complete',
  'dashboard/payments/retry/:orderId/payment/complete',
  'dashboard/payments/plan-change/:planChangeId/payment/complete',
  'dashboard/payments/extend/:serviceId/payment/complete',
];

/** The home page: the one page that reads no server data, so it stays outside queryScoped(). */
const homeRoute: RouteObject = {
  index: true,
  lazy: async () => ({ Component: (await import('../pages/HomePage.tsx')).HomePage }),
};

/**
 * Puts the routes (all but the home page) under QueryScope, the server-data cache, whose code
 * loads with the first of them: a visitor's first page, the home page, does not download it.
 */
function queryScoped(children: RouteObject[]): RouteObject[] {
  const scope: RouteObject = {
    lazy: async () => ({ Component: (await import('./QueryScope.tsx')).QueryScope }),
    children: children.filter((route) => route !== homeRoute),
  };
  return children.includes(homeRoute) ? [homeRoute, scope] : [scope];
}

const notFound: RouteObject = {
  path: '*',
  lazy: async () => ({ Component: (await import('../pages/NotFoundPage.tsx')).NotFoundPage }),
};

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        element: <PublicLayout />,
        children: queryScoped([
          homeRoute,
          { path: 'pricing', lazy: plansPage },
          {
            path: 'about',
            lazy: async () => ({ Component: (await import('../pages/public/AboutPage.tsx')).AboutPage }),
          },
          {
            path: 'contact',
            lazy: async () => ({ Component: (await import('../pages/public/ContactPage.tsx')).ContactPage }),
          },
          {
            path: 'faq',
            lazy: async () => ({ Component: (await import('../pages/public/FaqPage.tsx')).FaqPage }),
          },
          {
            path: 'docs',
            lazy: async () => ({ Component: (await import('../pages/public/DocsPage.tsx')).DocsPage }),
          },
          { path: 'privacy', lazy: async () => ({ Component: (await legalPages()).PrivacyPage }) },
          { path: 'terms', lazy: async () => ({ Component: (await legalPages()).TermsPage }) },
          {
            path: 'solutions/secure-access',
            lazy: async () => ({ Component: (await solutionPages()).SecureAccessPage }),
          },
          {
            path: 'solutions/team-drive',
            lazy: async () => ({ Component: (await solutionPages()).TeamDrivePage }),
          },
          {
            path: 'solutions/business-storage',
            lazy: async () => ({ Component: (await solutionPages()).BusinessStoragePage }),
          },
          notFound,
        ]),
      },
      {
        element: <PublicLayout />,
        children: queryScoped(PAYMENT_COMPLETE_PATHS.map((path) => ({ path, lazy: completionPage }))),
      },
      {
        path: 'auth',
        lazy: async () => ({ Component: (await import('../layouts/AuthLayout.tsx')).AuthLayout }),
        children: queryScoped([
          { index: true, element: <Navigate to="/auth/login" replace /> },
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('../pages/auth/LoginPage.tsx')).LoginPage }),
          },
          {
            path: 'register',
            lazy: async () => ({ Component: (await import('../pages/auth/RegisterPage.tsx')).RegisterPage }),
          },
          { path: 'plans', lazy: plansPage },
          {
            path: 'verify-email',
            lazy: async () => ({
              Component: (await import('../pages/auth/VerifyEmailPage.tsx')).VerifyEmailPage,
            }),
          },
          {
            path: 'forgot-password',
            lazy: async () => ({
              Component: (await import('../pages/auth/ForgotPasswordPage.tsx')).ForgotPasswordPage,
            }),
          },
          {
            path: 'reset-password',
            lazy: async () => ({
              Component: (await import('../pages/auth/ResetPasswordPage.tsx')).ResetPasswordPage,
            }),
          },
          {
            path: 'confirm-email',
            lazy: async () => ({
              Component: (await import('../pages/settings/ConfirmEmailPage.tsx')).ConfirmEmailPage,
            }),
          },
          {
            path: 'oauth/callback',
            lazy: async () => ({
              Component: (await import('../pages/auth/OAuthCallbackPage.tsx')).OAuthCallbackPage,
            }),
          },
          {
            path: 'oauth/error',
            lazy: async () => ({
              Component: (await import('../pages/auth/OAuthErrorPage.tsx')).OAuthErrorPage,
            }),
          },
        ]),
      },
      {
        path: 'dashboard',
        element: (
          <RequireSession>
            <Outlet />
          </RequireSession>
        ),
        children: queryScoped([
          {
            lazy: async () => ({
              Component: (await import('../layouts/DashboardLayout.tsx')).DashboardLayout,
            }),
            children: [
              { index: true, element: <Navigate to="/dashboard/services" replace /> },
              {
                path: 'services',
                lazy: async () => ({ Component: (await import('../pages/ServicesPage.tsx')).ServicesPage }),
              },
              {
                // Spec §2 "Service detail": its tabs are child paths; any other path is not found.
                path: 'services/:serviceId',
                lazy: async () => ({
                  Component: (await import('../pages/services/ServiceDetailPage.tsx')).ServiceDetailPage,
                }),
                children: serviceTabRoutes(),
              },
              {
                path: 'plans',
                children: [
                  {
                    index: true,
                    lazy: async () => ({
                      Component: (await import('../pages/plan-changes/PlansListPage.tsx')).PlansListPage,
                    }),
                  },
                  {
                    path: 'change',
                    lazy: async () => ({
                      Component: (await import('../pages/plan-changes/PlanChangePage.tsx')).PlanChangePage,
                    }),
                  },
                ],
              },
              {
                path: 'payments/new/payment',
                lazy: async () => ({ Component: (await paymentPages()).NewPaymentPage }),
              },
              {
                path: 'payments/new/:orderId/payment',
                lazy: async () => ({ Component: (await paymentPages()).OrderPaymentPage }),
              },
              {
                path: 'payments/retry/:orderId/payment',
                lazy: async () => ({ Component: (await paymentPages()).RetryPaymentPage }),
              },
              {
                path: 'payments/plan-change/:planChangeId/payment',
                lazy: async () => ({
                  Component: (await import('../pages/payments/PlanChangePaymentPage.tsx'))
                    .PlanChangePaymentPage,
                }),
              },
              {
                path: 'payments/extend/:serviceId/payment',
                lazy: async () => ({
                  Component: (await import('../pages/payments/ExtensionPaymentPage.tsx'))
                    .ExtensionPaymentPage,
                }),
              },
              {
                path: 'billing',
                lazy: async () => ({
                  Component: (await import('../pages/billing/BillingPage.tsx')).BillingPage,
                }),
              },
              {
                path: 'settings',
                lazy: async () => ({
                  Component: (await import('../pages/settings/SettingsPage.tsx')).SettingsPage,
                }),
              },
              {
                path: 'activity',
                lazy: async () => ({
                  Component: (await import('../pages/activity/ActivityPage.tsx')).ActivityPage,
                }),
              },
              notFound,
            ],
          },
        ]),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
