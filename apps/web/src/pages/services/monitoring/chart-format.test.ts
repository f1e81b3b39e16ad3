// The chart's legend and x axis without a canvas: what is written, and the room each label gets.
import { describe, expect, it } from 'vitest';
import { daySpace, legendValue, sampleTimes, TICK_GAP, tickSpace } from './chart-format.ts';

const bytes = (value: number) => `${value} B`;
// A stand-in for the canvas: every character 7 px wide.
const measure = (text: string) => text.length * 7;

describe('the chart legend', () => {
  it('writes nothing for a series when the pointer is off the chart, so no name ends in a bare colon', () => {
    expect(legendValue(null, bytes)).toBe('');
    expect(legendValue(undefined, bytes)).toBe('');
  });

  it('writes the hovered value in the reader’s form, zero included', () => {
    expect(legendValue(0, bytes)).toBe('0 B');
    expect(legendValue(1536, bytes)).toBe('1536 B');
  });
});

describe('the x axis', () => {
  it('keeps at least the widest label and a gap between ticks, so labels never run together', () => {
    const labels = ['09:00', 'gruod. 12', '23:00'];
    const space = tickSpace(labels, measure);
    expect(space).toBeGreaterThanOrEqual(Math.max(...labels.map(measure)) + TICK_GAP);
  });

  it('samples the whole window, both ends included, for its widest label', () => {
    const day = 86_400;
    const times = sampleTimes(0, 7 * day);
    expect(times[0]).toBe(0);
    expect(times.at(-1)).toBe(7 * day);
    expect(times.length).toBeGreaterThan(2);
    expect(sampleTimes(5, 5)).toEqual([5]);
  });

  it('gives a day at least one tick’s room when ticks are days, so no date is written twice', () => {
    const day = 86_400;
    // A week 1000 px wide: a day is 1000 / 7 px, so no tick falls between two midnights.
    expect(daySpace(7 * day, 0, 7 * day, 1000)).toBe(Math.ceil(1000 / 7));
    // Hours and minutes are told apart at any step: no floor for them.
    expect(daySpace(day, 0, day, 1000)).toBe(0);
  });
});
