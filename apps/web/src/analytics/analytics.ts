// The product's own analytics (spec §1): page views and a few meaningful clicks, sent to
// POST /api/v1/analytics/events only while the visitor's cookie choice is "all", and never twice
// within 100 ms. Sending never disturbs the page: a refused or lost event is simply dropped.
// This module is in the main bundle, so the API client (and the contract and zod it brings) is
// loaded only when the first event is actually sent: a visitor without consent never downloads it.
import type { AnalyticsEventName, AnalyticsEventRequest } from '@debesis/contract';
import { readConsent } from '../consent/consent.ts';
import { currentLanguage } from '../i18n/language.ts';
import { dedupe, type SentEvent } from './dedupe.ts';

export const ANALYTICS_EVENTS_PATH = '/api/v1/analytics/events';

export interface TrackedEvent {
  name: AnalyticsEventName;
  /** The page; its query and fragment are never sent (they may hold tokens). */
  path: string;
  target?: string;
}

let recent: SentEvent[] = [];

function send(event: AnalyticsEventRequest): void {
  import('../api/client.ts')
    .then(({ api }) => api.http.post(ANALYTICS_EVENTS_PATH, event))
    .catch(() => {
      // Analytics is best effort.
    });
}

/** Sends the event when consent allows it and it is not a repeat; says whether it was sent. */
export function track(event: TrackedEvent, now: number = Date.now()): boolean {
  if (readConsent() !== 'all') return false;
  const path = event.path.split(/[?#]/)[0] || '/';
  const key = `${event.name}|${path}|${event.target ?? ''}`;
  const decision = dedupe(recent, key, now);
  recent = decision.recent;
  if (!decision.send) return false;
  send({
    name: event.name,
    path,
    ...(event.target ? { target: event.target } : {}),
    language: currentLanguage(),
  });
  return true;
}

/** Forgets what was sent (tests). */
export function resetAnalytics(): void {
  recent = [];
}

/** The clicks worth counting, named on the element: `data-analytics="cta_click:home-hero"`. */
const CLICK_EVENTS: readonly AnalyticsEventName[] = ['cta_click', 'solution_click', 'demo_tab'];

export function clickEvent(element: Element, path: string): TrackedEvent | null {
  const marked = element.closest('[data-analytics]');
  const [name = '', target] = (marked?.getAttribute('data-analytics') ?? '').split(':', 2);
  const known = CLICK_EVENTS.find((candidate) => candidate === name);
  if (!known) return null;
  return { name: known, path, ...(target ? { target } : {}) };
}
