// Time as the session sees it. Every wait and timer of the session logic goes through here, so
// tests can swap in a fake clock (or rely on vi.useFakeTimers: the default looks the globals up
// at each call rather than capturing them at import).

export type TimerId = ReturnType<typeof globalThis.setTimeout>;

export interface SessionClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
  setInterval(callback: () => void, ms: number): TimerId;
  clearInterval(id: TimerId): void;
}

export const systemClock: SessionClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id),
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (id) => globalThis.clearInterval(id),
};

let clock: SessionClock = systemClock;

export function sessionClock(): SessionClock {
  return clock;
}

/** Replaces the clock (tests); returns a function that puts the previous one back. */
export function setSessionClock(next: SessionClock): () => void {
  const previous = clock;
  clock = next;
  return () => {
    clock = previous;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, ms);
  });
}
