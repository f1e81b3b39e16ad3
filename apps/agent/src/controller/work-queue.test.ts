import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWorkQueue, type WorkQueueOptions } from './work-queue.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A queue whose runs are recorded at the fake time they start. */
function recorded(
  process: (key: string) => Promise<string>,
  options: Partial<WorkQueueOptions<string, string>> = {},
) {
  const starts: Array<{ key: string; at: number }> = [];
  const queue = createWorkQueue<string, string>({
    backoff: { baseMs: 100, maxMs: 800 },
    ...options,
    process: (key) => {
      starts.push({ key, at: Date.now() });
      return process(key);
    },
  });
  return { queue, starts, at: (key: string) => starts.filter((s) => s.key === key).map((s) => s.at) };
}

const t0 = () => Date.now();

describe('work queue', () => {
  it('backs a failing key off exponentially, capped, without delaying another key', async () => {
    const start = t0();
    const { queue, at } = recorded(async (key) => {
      if (key === 'broken') throw new Error('boom');
      return key;
    });
    await expect(queue.add('broken')).resolves.toMatchObject({ status: 'failed' });
    await expect(queue.add('healthy')).resolves.toEqual({ status: 'done', value: 'healthy' });
    // Waiting out its backoff, the broken key is not run again by an add: the others are not held.
    await expect(queue.add('broken')).resolves.toEqual({ status: 'deferred' });
    await vi.advanceTimersByTimeAsync(5_000);
    const waits = at('broken').map((when, i, all) => when - (all[i - 1] ?? start));
    expect(waits.slice(0, 6)).toEqual([0, 100, 200, 400, 800, 800]);
    expect(at('healthy')).toEqual([start]);
    expect(queue.failures('broken')).toBeGreaterThan(5);
    await queue.stop();
  });

  it('resets the backoff after a success, and `now` skips a backoff in progress', async () => {
    let broken = true;
    const { queue, at } = recorded(async (key) => {
      if (broken) throw new Error('boom');
      return key;
    });
    await queue.add('a');
    await queue.add('a');
    broken = false;
    await expect(queue.add('a', { now: true })).resolves.toEqual({ status: 'done', value: 'a' });
    expect(at('a')).toHaveLength(2);
    expect(queue.failures('a')).toBe(0);
    // No retry left waiting: the backoff timer went with the success.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at('a')).toHaveLength(2);
    await queue.stop();
  });

  it('runs a key added while it is processed once more after, never beside itself', async () => {
    let release: (() => void) | undefined;
    let active = 0;
    let most = 0;
    const { queue, at } = recorded(
      async (key) => {
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => (release = resolve));
        active -= 1;
        return key;
      },
      { concurrency: 2 },
    );
    const first = queue.add('a');
    await vi.advanceTimersByTimeAsync(0);
    const second = queue.add('a');
    const third = queue.add('a'); // deduplicated with the second
    release?.();
    await expect(first).resolves.toEqual({ status: 'done', value: 'a' });
    await vi.advanceTimersByTimeAsync(0);
    release?.();
    await expect(second).resolves.toEqual({ status: 'done', value: 'a' });
    await expect(third).resolves.toEqual({ status: 'done', value: 'a' });
    expect(at('a')).toHaveLength(2);
    expect(most).toBe(1);
    await queue.stop();
  });

  it('frees the worker of a run past its deadline for the other keys, and keeps its key busy', async () => {
    const hung: Array<() => void> = [];
    const failures: number[] = [];
    const { queue, at } = recorded(
      async (key) => {
        if (key === 'hung') await new Promise<void>((resolve) => hung.push(resolve));
        return key;
      },
      { deadlineMs: 1_000, onFailure: (_key, _error, _n, retryInMs) => failures.push(retryInMs) },
    );
    const start = t0();
    const stuck = queue.add('hung');
    const healthy = queue.add('healthy');
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(stuck).resolves.toEqual({ status: 'overdue' });
    await expect(healthy).resolves.toEqual({ status: 'done', value: 'healthy' });
    expect(at('healthy')).toEqual([start + 1_000]);
    // Its backoff ends while it still hangs: it is not run beside itself, but once it has ended.
    await vi.advanceTimersByTimeAsync(500);
    expect(at('hung')).toHaveLength(1);
    hung.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(at('hung')).toHaveLength(2);
    expect(failures).toEqual([100]);
    hung.shift()?.();
    await queue.stop();
  });

  it('stop drains: the run in progress ends, nothing waiting starts, later adds are refused', async () => {
    let release: (() => void) | undefined;
    const { queue, at } = recorded(async (key) => {
      if (key === 'slow') await new Promise<void>((resolve) => (release = resolve));
      return key;
    });
    const slow = queue.add('slow');
    const waiting = queue.add('waiting');
    await vi.advanceTimersByTimeAsync(0);
    let stoppedAll = false;
    const stopping = queue.stop().then(() => (stoppedAll = true));
    await expect(waiting).resolves.toEqual({ status: 'stopped' });
    await vi.advanceTimersByTimeAsync(0);
    expect(stoppedAll).toBe(false);
    release?.();
    await stopping;
    await expect(slow).resolves.toEqual({ status: 'done', value: 'slow' });
    expect(at('waiting')).toEqual([]);
    await expect(queue.add('later')).resolves.toEqual({ status: 'stopped' });
  });
});

describe('work queue without retries of its own', () => {
  it('keeps a failed key waiting out its backoff, then runs it on the next add only', async () => {
    const { queue, at } = recorded(
      async () => {
        throw new Error('boom');
      },
      { retries: false },
    );
    await queue.add('a');
    await expect(queue.add('a')).resolves.toEqual({ status: 'deferred' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(at('a')).toHaveLength(1);
    await expect(queue.add('a')).resolves.toMatchObject({ status: 'failed' });
    expect(at('a')).toHaveLength(2);
    await queue.stop();
  });
});
