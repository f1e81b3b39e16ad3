import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from './keyed-queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a keyed queue', () => {
  it('runs one key’s work one at a time, in order, past failures, and other keys beside it', async () => {
    const queue = createKeyedQueue();
    const events: string[] = [];
    const step =
      (name: string, fail = false) =>
      async () => {
        events.push(`${name} start`);
        await tick();
        events.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue('a', step('a1', true)),
      queue('a', step('a2')),
      queue('b', step('b1')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
    expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  });
});
