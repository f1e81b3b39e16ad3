// What the time series chart writes beside its canvas and under its x axis, apart from uPlot so
// that it can be read and tested without a canvas.

/** The room left between two time labels, so that neighbours never touch. */
export const TICK_GAP = 24;

/** A window longer than this is labelled by day, not by hour and minute. */
export const DAY_TICKS_AFTER = 2 * 86_400;

/** How many times across a window are tried for the widest label: its ends and between. */
const SAMPLES = 8;

/**
 * The legend's value for a series: the reader's form of the value under the pointer, or nothing
 * when the pointer is not over the chart (monitoring.css then hides the colon uPlot writes after
 * the name, so that no name ends in a colon with nothing after it).
 */
export function legendValue(raw: number | null | undefined, format: (value: number) => string): string {
  return raw === null || raw === undefined ? '' : format(raw);
}

/** Times spread over [min, max] (unix seconds) whose labels stand for all a window's labels. */
export function sampleTimes(min: number, max: number): number[] {
  if (!(max > min)) return [min];
  return Array.from({ length: SAMPLES + 1 }, (_, at) => min + ((max - min) * at) / SAMPLES);
}

/**
 * The pixels between two x ticks uPlot must keep: the widest label the window can have and a gap.
 * uPlot then picks a coarser step rather than write labels over one another, at any width.
 */
export function tickSpace(labels: readonly string[], measure: (text: string) => number): number {
  return Math.ceil(Math.max(0, ...labels.map(measure))) + TICK_GAP;
}

/**
 * The pixels a day takes when the ticks are days: less between ticks would write one day twice
 * (a tick at noon says the same date as the one at midnight). Nothing when ticks are hours.
 */
export function daySpace(span: number, min: number, max: number, width: number): number {
  return span > DAY_TICKS_AFTER && max > min ? Math.ceil((width * 86_400) / (max - min)) : 0;
}
