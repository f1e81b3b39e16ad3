// How code outside React (the 401 handler, the refresh timer, logout) moves the visitor. The app
// connects its router here once it renders (app/session-navigation.ts); until then, and in a page
// without the router, a plain page load does the job.

export interface SessionNavigateOptions {
  replace?: boolean;
  /** Router state for the target page (e.g. `{ from }` for the login page). */
  state?: unknown;
}

export type SessionNavigator = (to: string, options: SessionNavigateOptions) => void;

export interface SessionLocation {
  pathname: string;
  search: string;
  hash: string;
}

let navigator: SessionNavigator = (to, { replace }) => {
  if (replace) window.location.replace(to);
  else window.location.assign(to);
};

let locate = (): SessionLocation => window.location;

export function setSessionNavigator(next: SessionNavigator, where: () => SessionLocation): void {
  navigator = next;
  locate = where;
}

export function navigateTo(to: string, options: SessionNavigateOptions = {}): void {
  navigator(to, options);
}

/**
 * The navigator of now, for a navigation that happens after a wait (the 100 ms after clearing
 * tokens): it goes to the router the visitor was using when it started, not to one set up since.
 */
export function currentNavigator(): (to: string, options?: SessionNavigateOptions) => void {
  const captured = navigator;
  return (to, options = {}) => captured(to, options);
}

export function currentLocation(): SessionLocation {
  return locate();
}

export const LOGIN_ROUTE = '/auth/login';

/**
 * To the login page, remembering where the visitor was (spec §2), unless they already are on an
 * auth page: coming back to the login page after signing in would be a loop. Decides now (where
 * from, which router) and navigates when called, e.g. once tokens are cleared.
 */
export function loginNavigation(): () => void {
  const navigate = currentNavigator();
  const { pathname, search, hash } = currentLocation();
  const from = pathname.startsWith('/auth/') ? undefined : `${pathname}${search}${hash}`;
  return () => {
    if (currentLocation().pathname === LOGIN_ROUTE) return;
    navigate(LOGIN_ROUTE, { replace: true, state: from ? { from } : undefined });
  };
}
