// A work queue keyed by what it works on (a workspace's service id), after client-go's workqueue:
// a key is never processed twice at once; adding a key already waiting changes nothing (dedupe);
// a key added while it is processed is processed once more after (the change came too late for
// the run in progress); a key whose run fails waits out its own exponential backoff (base doubled
// per failure in a row, capped, reset by a success), so one broken key never delays another; a run
// past its deadline frees its worker for the other keys and counts as a failure, but its key stays
// busy until the run really ends, so it is never run beside itself.
//
// Each add() resolves once the run that covers it has ended (or reached its deadline), or at once
// when the key is waiting out its backoff: it then runs on its own when the backoff is over.

export type WorkOutcome<R> =
  | { status: 'done'; value: R }
  | { status: 'failed'; error: unknown }
  /** Still running past its deadline: the worker moved on, the key retries after its backoff. */
  | { status: 'overdue' }
  /** Waiting out its backoff (or an overdue run): it runs later on its own. */
  | { status: 'deferred' }
  | { status: 'stopped' };

export interface WorkQueueOptions<K, R> {
  process(key: K): Promise<R>;
  /** Keys processed at once. Default 1. */
  concurrency?: number;
  /** The wait after the first failure in a row, doubled per further failure up to `maxMs`. */
  backoff: { baseMs: number; maxMs: number };
  /** A run longer than this frees its worker and counts as failed. Default: none. */
  deadlineMs?: number;
  /**
   * Default true: a failed key runs again by itself once its backoff is over. False: it only
   * waits out its backoff, and runs on the next add after (a caller that drives every run).
   */
  retries?: boolean;
  /** Told of every failure (a throw or a deadline passed), with the wait before the next run. */
  onFailure?(key: K, error: unknown, failures: number, retryInMs: number): void;
}

export interface WorkQueue<K, R> {
  /** Processes `key` soon; `now` skips a backoff in progress (the key's work changed). */
  add(key: K, options?: { now?: boolean }): Promise<WorkOutcome<R>>;
  /** Failures of `key` in a row (0: none, or it succeeded since). */
  failures(key: K): number;
  /** Drops what the queue remembers of `key` (its backoff): it is no longer wanted. */
  forget(key: K): void;
  /** Nothing new starts; resolves once the runs in progress have ended. Idempotent. */
  stop(): Promise<void>;
}

export class DeadlineExceededError extends Error {
  constructor(deadlineMs: number) {
    super(`still running after ${deadlineMs} ms`);
    this.name = 'DeadlineExceededError';
  }
}

type Waiter<R> = (outcome: WorkOutcome<R>) => void;

export function createWorkQueue<K, R>(options: WorkQueueOptions<K, R>): WorkQueue<K, R> {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const ready: K[] = [];
  /** Per key: who waits for its next run. */
  const waiters = new Map<K, Waiter<R>[]>();
  /** Runs not ended yet, overdue ones included: their keys are busy. */
  const running = new Map<K, Promise<void>>();
  const overdue = new Set<K>();
  /** Added while busy: run once more after. */
  const dirty = new Set<K>();
  const delayed = new Map<K, ReturnType<typeof setTimeout>>();
  const failureCounts = new Map<K, number>();
  let busyWorkers = 0;
  let stopped = false;

  const settle = (key: K, outcome: WorkOutcome<R>) => {
    const list = waiters.get(key) ?? [];
    waiters.delete(key);
    for (const resolve of list) resolve(outcome);
  };
  const waitFor = (key: K) =>
    new Promise<WorkOutcome<R>>((resolve) => {
      const list = waiters.get(key) ?? [];
      list.push(resolve);
      waiters.set(key, list);
    });

  function enqueue(key: K): void {
    if (stopped) return settle(key, { status: 'stopped' });
    if (!ready.includes(key)) ready.push(key);
    pump();
  }

  function pump(): void {
    while (!stopped && busyWorkers < concurrency && ready.length > 0) start(ready.shift() as K);
  }

  function fail(key: K, error: unknown): void {
    const failures = (failureCounts.get(key) ?? 0) + 1;
    failureCounts.set(key, failures);
    const wait = Math.min(options.backoff.baseMs * 2 ** (failures - 1), options.backoff.maxMs);
    if (!stopped) {
      clearTimeout(delayed.get(key));
      delayed.set(
        key,
        setTimeout(() => {
          delayed.delete(key);
          if (options.retries !== false) void queue.add(key);
        }, wait),
      );
    }
    options.onFailure?.(key, error, failures, wait);
  }

  function start(key: K): void {
    busyWorkers += 1;
    const current = waiters.get(key) ?? [];
    waiters.delete(key);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      busyWorkers -= 1;
      pump();
    };
    const resolveCurrent = (outcome: WorkOutcome<R>) => {
      for (const resolve of current.splice(0)) resolve(outcome);
    };
    const deadline =
      options.deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            overdue.add(key);
            fail(key, new DeadlineExceededError(options.deadlineMs ?? 0));
            resolveCurrent({ status: 'overdue' });
            release();
          }, options.deadlineMs);
    const settled = (async () => {
      try {
        return { ok: true as const, value: await options.process(key) };
      } catch (error) {
        return { ok: false as const, error };
      }
    })().then((result) => {
      clearTimeout(deadline);
      running.delete(key);
      if (overdue.delete(key)) {
        // Already counted failed at its deadline; a backoff still running brings it back itself.
        if (dirty.delete(key) && !delayed.has(key)) enqueue(key);
        return;
      }
      if (result.ok) {
        failureCounts.delete(key);
        resolveCurrent({ status: 'done', value: result.value });
        if (dirty.delete(key)) enqueue(key);
      } else {
        fail(key, result.error);
        resolveCurrent({ status: 'failed', error: result.error });
        // The retry after the backoff covers what was added meanwhile.
        if (dirty.delete(key)) settle(key, { status: 'deferred' });
      }
      release();
    });
    running.set(key, settled);
  }

  const queue: WorkQueue<K, R> = {
    add(key, { now = false } = {}) {
      if (stopped) return Promise.resolve({ status: 'stopped' });
      if (overdue.has(key)) {
        dirty.add(key);
        return Promise.resolve({ status: 'deferred' });
      }
      if (running.has(key)) {
        dirty.add(key);
        return waitFor(key);
      }
      const timer = delayed.get(key);
      if (timer !== undefined) {
        if (!now) return Promise.resolve({ status: 'deferred' });
        clearTimeout(timer);
        delayed.delete(key);
      }
      const outcome = waitFor(key);
      enqueue(key);
      return outcome;
    },
    failures: (key) => failureCounts.get(key) ?? 0,
    forget(key) {
      clearTimeout(delayed.get(key));
      delayed.delete(key);
      failureCounts.delete(key);
    },
    async stop() {
      stopped = true;
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      for (const key of ready.splice(0)) settle(key, { status: 'stopped' });
      for (const key of dirty) settle(key, { status: 'stopped' });
      dirty.clear();
      while (running.size > 0) await Promise.all(running.values());
    },
  };
  return queue;
}
