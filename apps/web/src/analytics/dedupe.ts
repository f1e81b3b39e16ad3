// Spec §1: an identical analytics event within 100 ms of the last one sent is skipped (a double
// click, a page view fired twice by a re-render). Pure, so the rule is tested without a clock.

export const DUPLICATE_WINDOW_MS = 100;

export interface SentEvent {
  key: string;
  at: number;
}

/**
 * Whether the event `key` at time `at` (ms) should be sent, and what to remember afterwards:
 * only the events of the last window, plus this one when it is sent.
 */
export function dedupe(
  recent: readonly SentEvent[],
  key: string,
  at: number,
  windowMs: number = DUPLICATE_WINDOW_MS,
): { send: boolean; recent: SentEvent[] } {
  const live = recent.filter((event) => at - event.at < windowMs);
  if (live.some((event) => event.key === key)) return { send: false, recent: live };
  return { send: true, recent: [...live, { key, at }] };
}
