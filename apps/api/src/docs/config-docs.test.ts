import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configurationTable, readConfigurationPage, renderConfigurationPage } from './config-docs.ts';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` makes of the configuration schemas (run it after changing one)', () => {
    const page = readConfigurationPage();
    expect(renderConfigurationPage(page)).toBe(page);
  });

  it('shows defaults through transforms, required variables, and escapes table cells', () => {
    const table = configurationTable(
      z.object({
        A: z.string().default('x').transform(Number).describe('a | b'),
        B: z.string().describe('needed'),
        C: z.string().optional().describe('maybe'),
        D: z.array(z.string()).default([]).describe('list'),
      }),
    );
    expect(table.split('\n').slice(2)).toEqual([
      '| `A` | `x` | a \\| b |',
      '| `B` | required | needed |',
      '| `C` | — | maybe |',
      '| `D` | empty | list |',
    ]);
  });

  it('refuses a variable without a description', () => {
    expect(() => configurationTable(z.object({ A: z.string() }))).toThrow(/A has no .describe/);
  });
});
