// The node-wide side of a task driver's jobs (task-driver.ts): at most `concurrency` jobs run at
// once on the node, every workspace together, and at most one per workspace. A workspace whose
// next job finds no free slot waits its turn, first come first served, and its job starts as soon
// as a slot frees, not at the next pass. Jobs run beside the passes, never inside one: a pass only
// offers a job, aborts one (a removed workspace) or asks what runs.
export interface RunningJob<Progress> {
  readonly id: string;
  readonly startedAt: Date;
  /** Set by the job as it goes; read by the reports. */
  progress: Progress | undefined;
  readonly signal: AbortSignal;
}

/** What runs a job: resolves when it has ended and recorded how (it must not reject). */
export type JobBody<Progress> = (job: RunningJob<Progress>) => Promise<void>;

export interface JobRunner<Progress> {
  /** The job running for `key` (a workspace), if any. */
  running(key: string): RunningJob<Progress> | undefined;
  /** The id of the job waiting for a slot for `key`, if any. */
  waiting(key: string): string | undefined;
  /**
   * Asks to run job `id` for `key`: it starts now when a slot is free and `key` runs nothing,
   * else it waits, taking the place of what `key` had waiting (and its turn). `already`: that id
   * runs or waits already (the body given now replaces a waiting one's, with the latest state).
   */
  offer(key: string, id: string, body: JobBody<Progress>): 'started' | 'waiting' | 'already';
  /** `key` no longer wants its waiting job (stopped, removed, not live). */
  withdraw(key: string): void;
  /** Aborts the job running for `key` with `reason`; resolves once it has ended. */
  abort(key: string, reason: string): Promise<void>;
  /** Starts nothing more and aborts every running job; resolves once all have ended. */
  close(reason: string): Promise<void>;
}

export function createJobRunner<Progress>(
  concurrency: number,
  now: () => Date = () => new Date(),
): JobRunner<Progress> {
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`job concurrency must be a whole number of at least 1, not ${concurrency}`);
  const active = new Map<
    string,
    { job: RunningJob<Progress>; controller: AbortController; done: Promise<void> }
  >();
  // Insertion order is the order of the turns (Map keeps it; set() on a key keeps its place).
  const queue = new Map<string, { id: string; body: JobBody<Progress> }>();
  let closed = false;

  function start(key: string, id: string, body: JobBody<Progress>): void {
    const controller = new AbortController();
    const job: RunningJob<Progress> = {
      id,
      startedAt: now(),
      progress: undefined,
      signal: controller.signal,
    };
    const entry = { job, controller, done: Promise.resolve() };
    active.set(key, entry);
    entry.done = (async () => {
      try {
        await body(job);
      } catch {
        // A body records its own failures; nothing is left to say here.
      } finally {
        active.delete(key);
        pump();
      }
    })();
  }

  function pump(): void {
    if (closed) return;
    // Deleting the entry being visited is safe in a Map's iteration.
    for (const [key, next] of queue) {
      if (active.size >= concurrency) return;
      if (active.has(key)) continue;
      queue.delete(key);
      start(key, next.id, next.body);
    }
  }

  return {
    running: (key) => active.get(key)?.job,
    waiting: (key) => queue.get(key)?.id,

    offer(key, id, body) {
      if (active.get(key)?.job.id === id) return 'already';
      const waitingAlready = queue.get(key)?.id === id;
      queue.set(key, { id, body });
      pump();
      if (active.get(key)?.job.id === id) return 'started';
      return waitingAlready ? 'already' : 'waiting';
    },

    withdraw(key) {
      queue.delete(key);
    },

    async abort(key, reason) {
      const entry = active.get(key);
      if (!entry) return;
      entry.controller.abort(reason);
      await entry.done;
    },

    async close(reason) {
      closed = true;
      queue.clear();
      const entries = [...active.values()];
      for (const entry of entries) entry.controller.abort(reason);
      await Promise.all(entries.map((entry) => entry.done));
    },
  };
}
