// Wraps every route: restores scroll on back/forward, after a client-side navigation moves focus
// to the new page's <main> so screen-reader users hear that the page changed, and applies the
// selected plan's lifetime rule (spec §4) on every path, the first one included.
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AnalyticsTracker } from '../analytics/AnalyticsTracker.tsx';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import { applySelectedPlanLifetime } from '../plans/selected-plan.ts';
import { useScrollRestoration } from './scroll-restoration.ts';

export function RootShell() {
  const { pathname } = useLocation();
  const previousPath = useRef(pathname);
  useScrollRestoration();

  useEffect(() => {
    applySelectedPlanLifetime(pathname);
  }, [pathname]);

  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <Outlet />
      <AnalyticsTracker />
    </>
  );
}
