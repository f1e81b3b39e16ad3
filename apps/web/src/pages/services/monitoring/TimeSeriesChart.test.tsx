// What the chart hands uPlot, read without a canvas: uPlot is replaced by a recorder and the
// canvas measures every character 7 px wide. The legend, the x axis' spacing and the colours
// are asserted on the options a real uPlot would draw from.
import { render, waitFor } from '@testing-library/react';
import type uPlot from 'uplot';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n.ts';
import { monitoringTabEn } from './messages/monitoring.en.ts';
import { monitoringTabLt } from './messages/monitoring.lt.ts';
import { TimeSeriesChart } from './TimeSeriesChart.tsx';

const built = vi.hoisted(() => [] as uPlot.Options[]);
vi.mock('uplot', () => ({
  default: class {
    static paths = { bars: () => undefined };
    constructor(options: uPlot.Options) {
      built.push(options);
    }
    setData() {}
    setSize() {}
    destroy() {}
  },
}));

const CHAR = 7;
const HOUR = 3_600;
const PALETTE = ['#0a66c2', '#c25e00', '#007a5a'];

beforeAll(() => {
  i18n.addResourceBundle('en', 'monitoringTab', monitoringTabEn);
  i18n.addResourceBundle('lt', 'monitoringTab', monitoringTabLt);
});

beforeEach(() => {
  built.length = 0;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => ({ font: '', measureText: (text: string) => ({ width: text.length * CHAR }) }) as never,
  );
  PALETTE.forEach((colour, at) => document.documentElement.style.setProperty(`--chart-${at + 1}`, colour));
});

async function drawn(hours: number): Promise<uPlot.Options> {
  const times = Array.from({ length: hours }, (_, at) => 1_780_000_000 + at * HOUR);
  render(
    <TimeSeriesChart
      label="Events"
      summary="A week of events"
      times={times}
      series={PALETTE.map((_, at) => ({
        label: `source ${at}`,
        values: times.map(() => at + 1),
        color: `--chart-${at + 1}`,
      }))}
      kind="stackedBars"
      formatValue={(value) => `${value} events`}
      testId="chart"
    />,
  );
  await waitFor(() => expect(built).toHaveLength(1));
  return built[0] as uPlot.Options;
}

describe('the time series chart', () => {
  it('draws each series in its own palette colour', async () => {
    const options = await drawn(24);
    const strokes = options.series.slice(1).map((series) => series.stroke);
    expect(new Set(strokes).size).toBe(PALETTE.length);
    expect([...strokes].sort()).toEqual([...PALETTE].sort());
  });

  it('leaves the legend empty off the chart (no bare colon) and names its time row in the reader’s language', async () => {
    await i18n.changeLanguage('lt');
    const options = await drawn(24);
    const self = { data: [[0]] } as unknown as uPlot;
    expect(options.series[0]?.label).toBe('Laikas');
    for (const series of options.series) {
      const value = series.value as (
        self: uPlot,
        raw: number | null,
        index: number,
        at: number | null,
      ) => string;
      expect(value(self, null, 1, null)).toBe('');
    }
    const first = options.series[1]?.value as (self: uPlot, raw: number, index: number, at: number) => string;
    expect(first(self, 6, 1, 0)).toMatch(/events$/);
  });

  it.each([24, 7 * 24])('keeps x ticks at least a label and a gap apart over %i hours', async (hours) => {
    const options = await drawn(hours);
    const axis = options.axes?.[0] as uPlot.Axis;
    const min = 1_780_000_000;
    const max = min + (hours - 1) * HOUR;
    const self = { data: [[min, max]] } as unknown as uPlot;
    const space = (
      axis.space as (self: uPlot, axis: number, min: number, max: number, dim: number) => number
    )(self, 0, min, max, 1000);
    const splits = Array.from({ length: 12 }, (_, at) => min + ((max - min) * at) / 11);
    const labels = (axis.values as (self: uPlot, splits: number[]) => string[])(self, splits);
    expect(space).toBeGreaterThan(Math.max(...labels.map((label) => label.length * CHAR)));
    // Ticks by day (past two days) are a day apart at least: no date twice.
    if (hours > 48) expect(space).toBeGreaterThanOrEqual((1000 * 86_400) / (max - min));
  });
});
