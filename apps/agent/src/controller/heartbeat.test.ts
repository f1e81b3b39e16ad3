import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger.ts';
import { createHeartbeat } from './heartbeat.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeat', () => {
  it('reports only when no report has reached the API for its period, and keeps beating when one fails', async () => {
    let last: number | undefined;
    const sent: number[] = [];
    let failing = false;
    const heartbeat = createHeartbeat({
      everyMs: 100,
      lastReportAt: () => last,
      send: () => {
        sent.push(Date.now());
        if (failing) return Promise.reject(new Error('the API is away'));
        last = Date.now();
        return Promise.resolve();
      },
      logger: silentLogger,
    });
    const start = Date.now();
    heartbeat.start();
    // Passes report every 50 ms: the heartbeat stays quiet.
    for (let i = 0; i < 4; i++) {
      last = Date.now();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(sent).toEqual([]);
    // A pass runs long: a beat once the last report is 100 ms old, then every 100 ms.
    await vi.advanceTimersByTimeAsync(250);
    // The last report went at 150 ms (looked at every 25 ms).
    expect(sent.map((at) => at - start)).toEqual([250, 350, 450]);
    failing = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(4);
    // Failed: tried again at the next look, not stopped.
    await vi.advanceTimersByTimeAsync(25);
    expect(sent).toHaveLength(5);
    heartbeat.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(5);
  });

  it('sends one beat at a time however often it is asked', async () => {
    let release: (() => void) | undefined;
    let sends = 0;
    const heartbeat = createHeartbeat({
      everyMs: 100,
      lastReportAt: () => Date.now(),
      send: () => {
        sends += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
      logger: silentLogger,
    });
    const beats = [heartbeat.beat(), heartbeat.beat(), heartbeat.beat()];
    expect(sends).toBe(1);
    release?.();
    await Promise.all(beats);
    const next = heartbeat.beat();
    expect(sends).toBe(2);
    release?.();
    await next;
  });
});
