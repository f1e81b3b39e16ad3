// docs/configuration.md's tables, generated from the schemas that parse the configuration (the
// API's environmentSchema and the agent's agentEnvironmentSchema): each variable's default is read
// off the schema and its meaning is its `.describe()`, so the page cannot drift from what the code
// accepts. `npm run docs:config` writes them; config-docs.test.ts fails when the page is stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { agentEnvironmentSchema } from '@debesis/agent';
import { environmentSchema } from '../config.ts';
import { REPOSITORY_ROOT } from './markdown-links.ts';

export const CONFIGURATION_PAGE = path.join(REPOSITORY_ROOT, 'docs/configuration.md');

/** The generated tables, by the name their markers carry. */
const TABLES = { api: environmentSchema, agent: agentEnvironmentSchema } as const;

const begin = (name: string) =>
  `<!-- generated: ${name} configuration (npm run docs:config); do not edit -->`;
const end = (name: string) => `<!-- end of generated: ${name} configuration -->`;

/** The default a schema gives an unset variable, found through the wrappers zod puts around it. */
function defaultOf(schema: z.ZodType): unknown {
  const def = schema._zod.def as {
    type: string;
    defaultValue?: unknown;
    in?: z.ZodType;
    innerType?: z.ZodType;
  };
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  if (def.type === 'optional' && def.innerType) return defaultOf(def.innerType);
  return undefined;
}

function defaultCell(schema: z.ZodType): string {
  const value = defaultOf(schema);
  if (value === undefined) return schema.safeParse(undefined).success ? '—' : 'required';
  // Configuration defaults are text, numbers, booleans or lists of text: JSON writes none of them as an object.
  const text = Array.isArray(value)
    ? value.join(',')
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
  return text === '' ? 'empty' : `\`${text}\``;
}

const cell = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

export function configurationTable(schema: z.ZodObject): string {
  const rows = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    if (!field.description)
      throw new Error(`${name} has no .describe(): the configuration page needs its meaning`);
    return `| \`${name}\` | ${defaultCell(field)} | ${cell(field.description)} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The page with every generated table written afresh between its markers. */
export function renderConfigurationPage(page: string): string {
  return Object.entries(TABLES).reduce((text, [name, schema]) => {
    const from = text.indexOf(begin(name));
    const to = text.indexOf(end(name));
    if (from < 0 || to < from)
      throw new Error(`docs/configuration.md lacks the markers of the ${name} table`);
    return `${text.slice(0, from)}${begin(name)}\n\n${configurationTable(schema)}\n\n${text.slice(to)}`;
  }, page);
}

export function readConfigurationPage(): string {
  return readFileSync(CONFIGURATION_PAGE, 'utf8');
}
