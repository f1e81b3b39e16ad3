import { describe, expect, it } from 'vitest';
import { dedupe, DUPLICATE_WINDOW_MS, type SentEvent } from './dedupe.ts';

describe('dedupe', () => {
  it('uses the spec’s window of 100 ms', () => {
    expect(DUPLICATE_WINDOW_MS).toBe(100);
  });

  it('sends the first event and remembers it', () => {
    expect(dedupe([], 'page_view|/', 1000)).toEqual({
      send: true,
      recent: [{ key: 'page_view|/', at: 1000 }],
    });
  });

  it('skips an identical event within 100 ms of the one sent', () => {
    const recent: SentEvent[] = [{ key: 'page_view|/', at: 1000 }];
    expect(dedupe(recent, 'page_view|/', 1000).send).toBe(false);
    expect(dedupe(recent, 'page_view|/', 1099).send).toBe(false);
  });

  it('sends it again once 100 ms have passed', () => {
    const recent: SentEvent[] = [{ key: 'page_view|/', at: 1000 }];
    const decision = dedupe(recent, 'page_view|/', 1100);
    expect(decision.send).toBe(true);
    expect(decision.recent).toEqual([{ key: 'page_view|/', at: 1100 }]);
  });

  it('counts the window from the event sent, not from the skipped repeats', () => {
    let recent: SentEvent[] = [];
    const sent: number[] = [];
    for (const at of [0, 50, 90, 120, 170, 230]) {
      const decision = dedupe(recent, 'cta_click|/|home', at);
      recent = decision.recent;
      if (decision.send) sent.push(at);
    }
    expect(sent).toEqual([0, 120, 230]);
  });

  it('sends different events at the same moment', () => {
    const first = dedupe([], 'page_view|/', 1000);
    const second = dedupe(first.recent, 'cta_click|/|home-hero', 1000);
    expect(second.send).toBe(true);
    expect(second.recent.map((event) => event.key)).toEqual(['page_view|/', 'cta_click|/|home-hero']);
  });

  it('forgets events older than the window and does not change what it was given', () => {
    const recent: SentEvent[] = [
      { key: 'a', at: 0 },
      { key: 'b', at: 950 },
    ];
    const decision = dedupe(recent, 'c', 1000);
    expect(decision.recent.map((event) => event.key)).toEqual(['b', 'c']);
    expect(recent).toHaveLength(2);
  });

  it('takes another window when asked', () => {
    expect(dedupe([{ key: 'a', at: 0 }], 'a', 150, 200).send).toBe(false);
  });
});
