// A sent contact form counts as one event (consent permitting).
import { track } from './analytics.ts';

export function trackContactSent(): void {
  track({ name: 'contact_sent', path: window.location.pathname });
}
