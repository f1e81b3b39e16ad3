// The monitoring tab's one chart: a time series drawn by uPlot (canvas, small, made for this),
// imported here only and only once a chart is drawn (its own chunk, loaded by the tab's lazy
// chunk, never by the app's entry; where no canvas draws, as in jsdom, it is never loaded). Bars
// stacked (activity per bucket by source) or a filled line (disk use). uPlot paints on a canvas,
// which knows nothing of CSS: its colours are read from CSS variables when it is built, and it is
// built again when the theme changes. A canvas says nothing to a screen reader: the chart is an
// image named by `label`, described by the sentence under it, which is there even where no canvas
// is (jsdom), and the numbers are in the tables beside it.
import { useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTheme } from '../../../theme/theme.ts';
import { daySpace, legendValue, sampleTimes, tickSpace } from './chart-format.ts';
import { useFormats } from './monitoring-parts.tsx';

export interface ChartSeries {
  label: string;
  /** One value a time, as many as `times`. */
  values: readonly number[];
  /** The CSS variable its colour is (tokens.css: `--chart-1`…`--chart-6`). */
  color: string;
}

interface TimeSeriesChartProps {
  /** The chart's name (its aria-label). */
  label: string;
  /** What it shows in one sentence, under it. */
  summary: string;
  /** Unix seconds, oldest first. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** Bars stacked on one another, or a line with the area under it filled. */
  kind: 'stackedBars' | 'area';
  formatValue: (value: number) => string;
  height?: number;
  testId: string;
}

let canvasWorks: boolean | undefined;

/** Whether this browser draws on a canvas (jsdom does not: its getContext answers null). */
function canDraw(): boolean {
  if (canvasWorks === undefined) {
    try {
      canvasWorks = document.createElement('canvas').getContext('2d') !== null;
    } catch {
      canvasWorks = false;
    }
  }
  return canvasWorks;
}

/** `#rrggbb` at `alpha` (a canvas cannot take `color-mix()` everywhere); any other colour as it is. */
function withAlpha(color: string, alpha: number): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return color;
  const [r, g, b] = match.slice(1).map((hex) => parseInt(hex, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/**
 * What uPlot draws. Stacked bars: each series is drawn as the sum of it and those below it, the
 * tallest first, so each shorter one paints over the bottom of the one before: a stack.
 */
function plotData(
  times: readonly number[],
  series: readonly ChartSeries[],
  kind: TimeSeriesChartProps['kind'],
) {
  if (kind === 'area') return [times as number[], ...series.map((one) => one.values as number[])];
  const sums: number[][] = [];
  series.forEach((one, index) => {
    const below = sums[index - 1];
    sums.push(one.values.map((value, at) => value + (below?.[at] ?? 0)));
  });
  return [times as number[], ...sums.reverse()];
}

/** A text's width in CSS pixels in `font`, as the canvas will draw it. */
function measurer(font: string): (text: string) => number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * 8;
  context.font = font;
  return (text) => context.measureText(text).width;
}

/** The seconds from the first time to the last: what picks hours or days for the ticks. */
function spanOf(self: uPlot): number {
  const xs = self.data[0];
  return xs.length > 1 ? (xs.at(-1) ?? 0) - (xs[0] ?? 0) : 0;
}

export function TimeSeriesChart({
  label,
  summary,
  times,
  series,
  kind,
  formatValue,
  height = 200,
  testId,
}: TimeSeriesChartProps) {
  const summaryId = useId();
  const { t } = useTranslation('monitoringTab');
  const timeLabel = t('chartTime');
  // Its axis is always time: the ticks (hours, or days past two) and the hovered time, one way.
  const format = useFormats();
  const formatTick = format.tick;
  const formatTime = (seconds: number) => format.dateTime(new Date(seconds * 1000).toISOString());
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { resolvedTheme } = useTheme();
  const data = useMemo(() => plotData(times, series, kind), [times, series, kind]);
  // The latest of what the plot reads while it lives (hover, redraws), without building it again.
  const latest = useRef({ data, series, formatValue, formatTick, formatTime });
  useEffect(() => {
    latest.current = { data, series, formatValue, formatTick, formatTime };
  });
  // What the plot is built from: a new series or colour, or the theme, builds it again.
  const shape = `${kind}|${series.map((one) => `${one.label}:${one.color}`).join('|')}`;

  useEffect(() => {
    const element = box.current;
    if (!element || !canDraw()) return;
    let cancelled = false;
    let made: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    const build = (UPlot: typeof uPlot) => {
      const css = getComputedStyle(element);
      const variable = (name: string) => css.getPropertyValue(name).trim();
      const text = variable('--color-text-muted') || '#4a5a70';
      const grid = variable('--color-border') || '#dbe2eb';
      const font = `12px ${variable('--font-sans') || 'system-ui, sans-serif'}`;
      const measure = measurer(font);
      const current = latest.current;
      // Stacked bars are drawn top of the stack first (plotData): their series go in that order.
      const drawn = kind === 'stackedBars' ? [...current.series].reverse() : current.series;
      const rawOf = (index: number) =>
        kind === 'stackedBars'
          ? latest.current.series[latest.current.series.length - index]
          : latest.current.series[index - 1];
      const axis = {
        stroke: text,
        font,
        grid: { stroke: grid, width: 1 },
        ticks: { stroke: grid, width: 1 },
      };
      const options: uPlot.Options = {
        width: Math.max(element.clientWidth, 200),
        height,
        series: [
          {
            label: timeLabel,
            value: (_self, value) => legendValue(value, latest.current.formatTime),
          },
          ...drawn.map((one): uPlot.Series => {
            const color = variable(one.color) || text;
            return {
              label: one.label,
              stroke: color,
              fill: kind === 'stackedBars' ? color : withAlpha(color, 0.18),
              width: kind === 'stackedBars' ? 0 : 2,
              points: { show: false },
              ...(kind === 'stackedBars' ? { paths: UPlot.paths.bars?.({ size: [0.8, 40], align: 0 }) } : {}),
              // The legend says a series' own value, not its stack's.
              value: (self, _value, seriesIndex, index) => {
                const raw = index === null ? undefined : rawOf(seriesIndex)?.values[index];
                return legendValue(raw, latest.current.formatValue);
              },
            };
          }),
        ],
        scales: {
          // Bars stand on their time: half a bucket either side, so the first and last show whole.
          ...(kind === 'stackedBars'
            ? {
                x: {
                  time: true,
                  range: (self, min, max): uPlot.Range.MinMax => {
                    const xs = self.data[0];
                    const half = xs.length > 1 ? ((xs[1] ?? 0) - (xs[0] ?? 0)) / 2 : 1800;
                    return [min - half, max + half];
                  },
                },
              }
            : {}),
          y: { range: (_self, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          {
            ...axis,
            space: (self, _axis, min, max, width) => {
              const span = spanOf(self);
              const labels = sampleTimes(min, max).map((time) => latest.current.formatTick(time, span));
              return Math.max(tickSpace(labels, measure), daySpace(span, min, max, width));
            },
            values: (self, splits) => {
              const span = spanOf(self);
              return splits.map((split) => latest.current.formatTick(split, span));
            },
          },
          {
            ...axis,
            size: 70,
            values: (_self, splits) => splits.map((split) => latest.current.formatValue(split)),
          },
        ],
        cursor: { points: { show: false } },
        legend: { live: true },
      };
      const chart = new UPlot(options, latest.current.data as uPlot.AlignedData, element);
      made = chart;
      plot.current = chart;
      if (typeof ResizeObserver !== 'undefined') {
        resize = new ResizeObserver(() =>
          chart.setSize({ width: Math.max(element.clientWidth, 200), height }),
        );
        resize.observe(element);
      }
    };
    // A chunk that fails to arrive leaves the sentence, which says it all.
    void import('uplot').then(
      ({ default: UPlot }) => {
        if (!cancelled) build(UPlot);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      resize?.disconnect();
      made?.destroy();
      plot.current = null;
    };
  }, [shape, kind, height, resolvedTheme, timeLabel]);

  // New numbers (a refetch, real time) go into the plot as it is.
  useEffect(() => {
    plot.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <figure className="monitoring-chart" data-testid={testId}>
      <div
        ref={box}
        className="monitoring-chart__plot"
        role="img"
        aria-label={label}
        aria-describedby={summaryId}
        style={{ minHeight: height }}
      />
      <figcaption id={summaryId} className="monitoring-chart__summary" data-testid={`${testId}-summary`}>
        {summary}
      </figcaption>
    </figure>
  );
}
