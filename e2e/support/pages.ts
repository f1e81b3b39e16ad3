// Every page of the app, in one place, for the suites that walk them all (accessibility). A page
// added to the app is added here once; until a listed page exists the app shows its not-found
// page at that address, which is checked like any other.

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

/** Pages of a signed-in customer with one paid service. */
export function dashboardPages({ serviceId, completionPath }: DashboardIds): string[] {
  return [
    '/dashboard/services',
    `/dashboard/services/${serviceId}`,
    `/dashboard/services/${serviceId}/users`,
    `/dashboard/services/${serviceId}/vpn`,
    `/dashboard/services/${serviceId}/samba`,
    `/dashboard/services/${serviceId}/nfs`,
    `/dashboard/services/${serviceId}/ftp`,
    `/dashboard/services/${serviceId}/ftp-advanced`,
    `/dashboard/services/${serviceId}/subusers`,
    `/dashboard/services/${serviceId}/share-links`,
    `/dashboard/services/${serviceId}/ldap`,
    `/dashboard/services/${serviceId}/monitoring`,
    `/dashboard/services/${serviceId}/monitoring?view=activity`,
    `/dashboard/services/${serviceId}/monitoring?view=storage`,
    `/dashboard/services/${serviceId}/monitoring?view=health`,
    `/dashboard/services/${serviceId}/settings`,
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
