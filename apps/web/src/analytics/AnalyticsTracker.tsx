// Counts page views on every route change and the clicks marked with `data-analytics`, through
// analytics.ts (which checks consent). A newly given "all" counts the page the visitor is on.
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useConsent } from '../consent/consent.ts';
import { clickEvent, track } from './analytics.ts';

export function AnalyticsTracker() {
  const { pathname } = useLocation();
  const { choice } = useConsent();

  useEffect(() => {
    if (choice === 'all') track({ name: 'page_view', path: pathname });
  }, [pathname, choice]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!(event.target instanceof Element)) return;
      const tracked = clickEvent(event.target, window.location.pathname);
      if (tracked) track(tracked);
    };
    document.addEventListener('click', onClick, { capture: true });
    return () => document.removeEventListener('click', onClick, { capture: true });
  }, []);

  return null;
}
