// Helpers for tests on fake timers. Only the timers the session uses are faked (setTimeout,
// setInterval, Date), so requests to the fake API still complete on their own; `until` lets them,
// without moving the fake clock.
import { vi } from 'vitest';
import { setSessionNavigator, type SessionNavigateOptions } from '../auth/navigation.ts';

export function useSessionFakeTimers(now = Date.UTC(2026, 0, 15, 9, 0, 0)): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(now);
}

function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Waits (in real time, fake clock untouched) until `condition` holds. */
export async function until(condition: () => boolean, description = 'condition'): Promise<void> {
  // Bounded by real time (performance is not faked), not by rounds: the first dynamic import of a
  // module graph (the session runtime) takes as many rounds as its transform takes time.
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    if (condition()) return;
    await nextMacrotask();
  }
  throw new Error(`Timed out waiting for ${description}`);
}

/** Lets pending requests and promise chains run without moving the fake clock. */
export async function settle(rounds = 50): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await nextMacrotask();
}

export interface RecordedNavigation {
  to: string;
  options: SessionNavigateOptions;
}

/** Records where the session sends the visitor, as if the app were on `pathname`. */
export function recordSessionNavigation(pathname = '/dashboard/services'): RecordedNavigation[] {
  const recorded: RecordedNavigation[] = [];
  let location = { pathname, search: '', hash: '' };
  setSessionNavigator(
    (to, options) => {
      recorded.push({ to, options });
      location = { pathname: to, search: '', hash: '' };
    },
    () => location,
  );
  return recorded;
}
