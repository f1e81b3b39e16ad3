// Every route of the app (spec §2), rendered by RouteTree in React Router's declarative mode
// (route-tree.tsx says why not its data router). Pages are loaded on demand, so the home page
// downloads only the shell and itself; layouts shared by many pages come with the first page that
// needs them.
import { Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from '../layouts/PublicLayout.tsx';
import { lazyRoute, RouteTree } from './route-tree.tsx';
import { RootShell } from './RootShell.tsx';
import { useSessionNavigation } from './session-navigation.ts';

const dashboardRoutes = lazyRoute(async () => (await import('./DashboardRoutes.tsx')).DashboardRoutes);

const plansPage = lazyRoute(async () => (await import('../pages/plans/PlansPage.tsx')).PlansPage);

const legalPages = async () => import('../pages/public/LegalPage.tsx');

const solutionPages = async () => import('../pages/public/SolutionPage.tsx');

const completionPage = lazyRoute(
  async () => (await import('../pages/payments/PaymentCompletePage.tsx')).PaymentCompletePage,
);

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
  Component: lazyRoute(async () => (await import('../pages/HomePage.tsx')).HomePage),
};

/**
 * Puts the routes (all but the home page) under QueryScope, the server-data cache, whose code
 * loads with the first of them: a visitor's first page, the home page, does not download it.
 */
export function queryScoped(children: RouteObject[]): RouteObject[] {
  const scope: RouteObject = {
    Component: lazyRoute(async () => (await import('./QueryScope.tsx')).QueryScope),
    children: children.filter((route) => route !== homeRoute),
  };
  return children.includes(homeRoute) ? [homeRoute, scope] : [scope];
}

export const notFound: RouteObject = {
  path: '*',
  Component: lazyRoute(async () => (await import('../pages/NotFoundPage.tsx')).NotFoundPage),
};

/** A share link's public page: no sign-in, the plain header of the auth pages, its own texts. */
const shareRoute: RouteObject = {
  path: 's/:token',
  Component: lazyRoute(async () => (await import('../layouts/AuthLayout.tsx')).AuthLayout),
  children: queryScoped([
    {
      index: true,
      Component: lazyRoute(async () => {
        const [{ loadNamespace }, page] = await Promise.all([
          import('../i18n/lazy-namespace.ts'),
          import('../pages/share/SharePage.tsx'),
        ]);
        await loadNamespace('sharePage', {
          en: async () => (await import('../pages/share/share-page.en.ts')).sharePageEn,
          lt: async () => (await import('../pages/share/share-page.lt.ts')).sharePageLt,
        });
        return page.SharePage;
      }),
    },
  ]),
};

/** The Linux-user portal (spec §2): its own sign-in and token; every path under /linux-user. */
const linuxPortalPage = lazyRoute(async () => {
  const [{ loadNamespace }, page] = await Promise.all([
    import('../i18n/lazy-namespace.ts'),
    import('../pages/linux-portal/LinuxPortalPage.tsx'),
  ]);
  await loadNamespace('linuxPortal', {
    en: async () => (await import('../pages/linux-portal/linux-portal.en.ts')).linuxPortalEn,
    lt: async () => (await import('../pages/linux-portal/linux-portal.lt.ts')).linuxPortalLt,
  });
  return page.LinuxPortalPage;
});

const linuxPortalRoute: RouteObject = {
  path: 'linux-user',
  Component: lazyRoute(async () => (await import('../layouts/AuthLayout.tsx')).AuthLayout),
  // Any path under it is the portal (its further paths are not the spec's: it has one page).
  children: queryScoped([
    { index: true, Component: linuxPortalPage },
    { path: '*', Component: linuxPortalPage },
  ]),
};

/** A subuser's area (auth/subuser-login.ts SUBUSER_AREA_PATH): its service's backups only. */
const subuserRoute: RouteObject = {
  path: 'subuser',
  Component: lazyRoute(async () => (await import('../layouts/AuthLayout.tsx')).AuthLayout),
  children: queryScoped([
    {
      index: true,
      Component: lazyRoute(async () =>
        (await import('../pages/subuser/SubuserAreaPage.tsx')).loadSubuserArea(),
      ),
    },
  ]),
};

export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    children: [
      shareRoute,
      subuserRoute,
      linuxPortalRoute,
      {
        element: <PublicLayout />,
        children: queryScoped([
          homeRoute,
          { path: 'pricing', Component: plansPage },
          {
            path: 'about',
            Component: lazyRoute(async () => (await import('../pages/public/AboutPage.tsx')).AboutPage),
          },
          {
            path: 'contact',
            Component: lazyRoute(async () => (await import('../pages/public/ContactPage.tsx')).ContactPage),
          },
          {
            path: 'faq',
            Component: lazyRoute(async () => (await import('../pages/public/FaqPage.tsx')).FaqPage),
          },
          {
            path: 'docs',
            Component: lazyRoute(async () => (await import('../pages/public/DocsPage.tsx')).DocsPage),
          },
          { path: 'privacy', Component: lazyRoute(async () => (await legalPages()).PrivacyPage) },
          { path: 'terms', Component: lazyRoute(async () => (await legalPages()).TermsPage) },
          {
            path: 'solutions/secure-access',
            Component: lazyRoute(async () => (await solutionPages()).SecureAccessPage),
          },
          {
            path: 'solutions/team-drive',
            Component: lazyRoute(async () => (await solutionPages()).TeamDrivePage),
          },
          {
            path: 'solutions/business-storage',
            Component: lazyRoute(async () => (await solutionPages()).BusinessStoragePage),
          },
          notFound,
        ]),
      },
      {
        element: <PublicLayout />,
        children: queryScoped(PAYMENT_COMPLETE_PATHS.map((path) => ({ path, Component: completionPage }))),
      },
      {
        path: 'auth',
        Component: lazyRoute(async () => (await import('../layouts/AuthLayout.tsx')).AuthLayout),
        children: queryScoped([
          { index: true, element: <Navigate to="/auth/login" replace /> },
          {
            path: 'login',
            Component: lazyRoute(async () => (await import('../pages/auth/LoginPage.tsx')).LoginPage),
          },
          {
            path: 'register',
            Component: lazyRoute(async () => (await import('../pages/auth/RegisterPage.tsx')).RegisterPage),
          },
          { path: 'plans', Component: plansPage },
          {
            path: 'verify-email',
            Component: lazyRoute(
              async () => (await import('../pages/auth/VerifyEmailPage.tsx')).VerifyEmailPage,
            ),
          },
          {
            path: 'forgot-password',
            Component: lazyRoute(
              async () => (await import('../pages/auth/ForgotPasswordPage.tsx')).ForgotPasswordPage,
            ),
          },
          {
            path: 'reset-password',
            Component: lazyRoute(
              async () => (await import('../pages/auth/ResetPasswordPage.tsx')).ResetPasswordPage,
            ),
          },
          {
            path: 'confirm-email',
            Component: lazyRoute(
              async () => (await import('../pages/settings/ConfirmEmailPage.tsx')).ConfirmEmailPage,
            ),
          },
          {
            path: 'oauth/callback',
            Component: lazyRoute(
              async () => (await import('../pages/auth/OAuthCallbackPage.tsx')).OAuthCallbackPage,
            ),
          },
          {
            path: 'oauth/error',
            Component: lazyRoute(
              async () => (await import('../pages/auth/OAuthErrorPage.tsx')).OAuthErrorPage,
            ),
          },
        ]),
      },
      // The dashboard's route table (and its tabs') is a chunk of its own: the pages a visitor
      // lands on do not download it. The payment-complete paths above rank before this one.
      { path: 'dashboard/*', Component: dashboardRoutes },
    ],
  },
];

/** The app's pages, inside a router: BrowserRouter in main.tsx, MemoryRouter in tests. */
export function AppRoutes() {
  useSessionNavigation();
  return <RouteTree routes={routes} />;
}
