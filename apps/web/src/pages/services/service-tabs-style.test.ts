// jsdom lays nothing out, so the rule is read from the style sheets: the tab strip's scroll bar
// takes colours that each theme defines, not the browser's light grey.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const rule = (css: string, selector: string) =>
  new RegExp(`(^|\\n)${selector.replace(/[.[\]',]/g, '\\$&')} \\{([^}]*)\\}`).exec(css)?.[2] ?? '';

describe('the workspace tab strip', () => {
  it('colours its scroll bar from tokens that both themes set', () => {
    const strip = rule(read('./service-detail.css'), '.service-tabs');
    const colours = /scrollbar-color: var\((--[\w-]+)\) var\((--[\w-]+)\)/.exec(strip);
    expect(colours).not.toBeNull();
    const tokens = read('../../styles/tokens.css');
    const dark = rule(tokens, ":root[data-theme='dark']");
    const thumb = colours?.[1] ?? '';
    expect(rule(tokens, ":root,\n:root[data-theme='light']")).toContain(`${thumb}:`);
    expect(dark).toContain(`${thumb}:`);
    // The track is the strip's own background, which follows the theme's surface.
    expect(strip).toMatch(/--tabs-bg: var\(--color-surface-alt\)/);
    expect(dark).toContain('--color-surface-alt:');
  });
});
