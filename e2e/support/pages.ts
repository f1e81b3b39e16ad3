// Every page of the app, in one place, for the suites that walk them all (accessibility). A page
// added to the app is added here once; until a listed page exists the app shows its not-found
// page at that address, which is checked like any other. A service's tabs are the exception: they
// are read from its page's tab bar, so every shipped tab is walked.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Pages anyone may open (spec §2), signed out. */
export const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/about',
  '/contact',
  '/faq',
  '/docs',
  '/privacy',
  '/terms',
  '/solutions/secure-access',
  '/solutions/team-drive',
  '/solutions/business-storage',
  '/no/such/page',
  // A share link's public page; this token was never handed out, so its not-found page.
  '/s/no-such-share-link-token-0123456789abcdefgh',
  // The Linux-user portal's sign-in (its own token, none stored here).
  '/linux-user',
] as const;

/** Sign-in, registration and account-recovery pages, signed out (without a link's token). */
export const AUTH_PAGES = [
  '/auth/login',
  '/auth/register',
  '/auth/plans',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/verify-email',
] as const;

/** What the dashboard pages of a customer who has bought a service are addressed by. */
export interface DashboardIds {
  serviceId: string;
  /** The completion page the customer returned to after paying (path and query). */
  completionPath: string;
}

/**
 * Views of a service tab beyond its first, kept in its address (`?view=`): the tab's own choices,
 * which the tab bar does not link to.
 */
const TAB_VIEWS: Readonly<Record<string, readonly string[]>> = {
  monitoring: ['?view=activity', '?view=storage', '?view=health'],
};

/**
 * The service page's tabs as the app ships them: the tab bar's links (`service-tab-<id>`, one per
 * shipped entry of service-tabs.ts), each followed by its extra views. Read from the page rather
 * than listed here, so a tab that ships is walked without anyone adding it.
 */
async function serviceTabPages(page: Page, serviceId: string): Promise<string[]> {
  await page.goto(`/dashboard/services/${serviceId}`);
  await page.getByTestId('service-tab-overview').waitFor();
  const tabs = await page.locator('[data-testid^="service-tab-"]').evaluateAll((links) =>
    links.map((link) => ({
      id: link.getAttribute('data-testid') ?? '',
      href: link.getAttribute('href') ?? '',
    })),
  );
  expect(tabs.length, 'the service page lists its tabs').toBeGreaterThan(1);
  return tabs.flatMap(({ id, href }) => {
    expect(href, `${id} links somewhere`).toMatch(/^\/dashboard\/services\//);
    const views = TAB_VIEWS[id.slice('service-tab-'.length)] ?? [];
    return [href, ...views.map((view) => `${href}${view}`)];
  });
}

/** Pages of a signed-in customer with one paid service; its tabs are read from its page. */
export async function dashboardPages(
  page: Page,
  { serviceId, completionPath }: DashboardIds,
): Promise<string[]> {
  return [
    '/dashboard/services',
    ...(await serviceTabPages(page, serviceId)),
    '/dashboard/plans',
    `/dashboard/plans/change?service=${serviceId}`,
    '/dashboard/billing',
    '/dashboard/settings',
    '/dashboard/activity',
    `/dashboard/payments/extend/${serviceId}/payment`,
    completionPath,
    '/dashboard/no-such-page',
  ];
}

/** A state of a page worth checking beyond its first view: reached by clicking test ids in order. */
export interface PageState {
  path: string;
  state: string;
  clicks: string[];
}

/** Forms sent empty, so their error messages show. */
export const SIGNED_OUT_STATES: PageState[] = [
  { path: '/auth/login', state: 'errors', clicks: ['login-submit'] },
  { path: '/auth/register', state: 'errors', clicks: ['register-submit'] },
  { path: '/auth/login', state: 'subuser errors', clicks: ['login-subuser-toggle', 'subuser-login-submit'] },
  { path: '/linux-user', state: 'errors', clicks: ['portal-sign-in-submit'] },
];

/** The dialogs of a service's tabs, open and sent empty. */
export function dashboardStates({ serviceId }: DashboardIds): PageState[] {
  const service = `/dashboard/services/${serviceId}`;
  return [
    { path: `${service}/users`, state: 'new user', clicks: ['workspace-users-add', 'user-create-submit'] },
    { path: `${service}/vpn`, state: 'new VPN user', clicks: ['vpn-users-add', 'vpn-user-submit'] },
    { path: `${service}/samba`, state: 'new share', clicks: ['samba-shares-add', 'share-submit'] },
    { path: `${service}/nfs`, state: 'new export', clicks: ['nfs-exports-add', 'nfs-export-submit'] },
    {
      path: `${service}/share-links`,
      state: 'new share link',
      clicks: ['share-link-create', 'share-link-submit'],
    },
    { path: `${service}/subusers`, state: 'new subuser', clicks: ['subuser-create', 'subuser-form-submit'] },
  ];
}
