// jsdom draws and lays out nothing, so the charts' colours are read from the style sheets: the
// theme's chart palette is far apart in both themes, and the VPN chart's sent and received take
// two different entries of it (they were two near-identical blues).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const rule = (css: string, selector: string) =>
  new RegExp(`(^|\\n)${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\{([^}]*)\\}`).exec(css)?.[2] ?? '';
const tokens = read('../../styles/tokens.css');
const THEMES = { light: ":root,\n:root[data-theme='light']", dark: ":root[data-theme='dark']" };

function palette(block: string): Map<string, [number, number, number]> {
  const found = new Map<string, [number, number, number]>();
  for (const [, name = '', hex = ''] of block.matchAll(/(--chart-\d): #([0-9a-f]{6});/gi))
    found.set(name, [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)) as [number, number, number]);
  return found;
}

const distance = (a: readonly number[], b: readonly number[]) =>
  Math.hypot(...a.map((value, at) => value - (b[at] ?? 0)));
/** RGB distances: the two blues sent and received were drawn in were 30 apart in the light theme. */
const APART = 40;
const OPPOSED = 150;

describe('the chart palette', () => {
  it.each(Object.entries(THEMES))(
    'gives six colours far apart from one another in the %s theme',
    (_theme, selector) => {
      const colours = [...palette(rule(tokens, selector)).values()];
      expect(colours).toHaveLength(6);
      colours.forEach((one, at) =>
        colours.slice(at + 1).forEach((other) => expect(distance(one, other)).toBeGreaterThan(APART)),
      );
    },
  );

  it('draws the VPN chart’s sent and received in two different palette colours, bars and legend alike', () => {
    const vpn = read('./vpn/vpn.css');
    const received = /var\((--chart-\d)\)/.exec(rule(vpn, '.vpn-chart__bars .vpn-chart__received'))?.[1];
    const sent = /var\((--chart-\d)\)/.exec(rule(vpn, '.vpn-chart__bars .vpn-chart__sent'))?.[1];
    expect(received).toBeDefined();
    expect(sent).toBeDefined();
    expect(sent).not.toBe(received);
    expect(rule(vpn, '.vpn-chart__swatch.vpn-chart__received')).toContain(`var(${received})`);
    expect(rule(vpn, '.vpn-chart__swatch.vpn-chart__sent')).toContain(`var(${sent})`);
    for (const selector of Object.values(THEMES)) {
      const colours = palette(rule(tokens, selector));
      expect(distance(colours.get(received ?? '') ?? [], colours.get(sent ?? '') ?? [])).toBeGreaterThan(
        OPPOSED,
      );
    }
  });

  it('hides uPlot’s legend colon when a series has no value to follow it', () => {
    const monitoring = read('./monitoring/monitoring.css');
    expect(
      rule(monitoring, '.monitoring-chart__plot .u-legend tr:has(> .u-value:empty) > th::after'),
    ).toMatch(/content: none/);
  });
});
