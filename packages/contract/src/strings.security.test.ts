// Walks every schema the contract exports, down to each string inside it (object fields, record
// keys, array items, both ends of a pipe, union members, lazy parts), and sends each string NUL
// and lone surrogates. A new schema written with a bare `z.string()` fails here by name.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.ts';
import { isStorableText, text } from './strings.ts';

type Node = z.core.$ZodType;

const isSchema = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** Every string schema inside `root`, with the path that leads to it. */
function stringsIn(root: Node, rootName: string): Array<{ path: string; schema: Node }> {
  const found: Array<{ path: string; schema: Node }> = [];
  const seen = new Set<Node>();
  const walk = (node: Node, path: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def as unknown as Record<string, unknown> & { type: string };
    if (def.type === 'string') found.push({ path, schema: node });
    const visit = (child: unknown, suffix: string) => {
      if (isSchema(child)) walk(child, `${path}${suffix}`);
    };
    switch (def.type) {
      case 'object':
        for (const [key, child] of Object.entries(def.shape as Record<string, unknown>))
          visit(child, `.${key}`);
        visit(def.catchall, '.*');
        break;
      case 'record':
        visit(def.keyType, '{key}');
        visit(def.valueType, '{value}');
        break;
      case 'array':
        visit(def.element, '[]');
        break;
      case 'tuple':
        (def.items as unknown[]).forEach((child, index) => visit(child, `[${index}]`));
        visit(def.rest, '[...]');
        break;
      case 'union':
        (def.options as unknown[]).forEach((child, index) => visit(child, `|${index}`));
        break;
      case 'intersection':
        visit(def.left, '&left');
        visit(def.right, '&right');
        break;
      case 'pipe':
        visit(def.in, '>in');
        visit(def.out, '>out');
        break;
      case 'lazy':
        visit((def.getter as () => unknown)(), '');
        break;
      default:
        // optional, nullable, default, prefault, catch, readonly, nonoptional, success, promise
        visit(def.innerType, '');
    }
  };
  walk(root, rootName);
  return found;
}

const BAD_TEXTS = [
  { name: 'NUL', value: 'a\u0000b' },
  { name: 'lone high surrogate', value: 'ab\ud800' },
  { name: 'lone low surrogate', value: '\udc00ab' },
  { name: 'surrogates in the wrong order', value: 'a\udc00\ud800b' },
];

describe('contract strings refuse what PostgreSQL cannot store', () => {
  const schemas = Object.entries(contract as Record<string, unknown>).filter(
    (entry): entry is [string, Node] => isSchema(entry[1]),
  );
  const strings = schemas.flatMap(([name, schema]) => stringsIn(schema, name));

  it('finds the strings of every exported schema', () => {
    expect(schemas.length).toBeGreaterThan(100);
    expect(strings.length).toBeGreaterThan(300);
  });

  it('attack 12.11: every string of every exported schema refuses NUL and lone surrogates', () => {
    const accepted: string[] = [];
    for (const { path, schema } of strings) {
      for (const bad of BAD_TEXTS) {
        if ((schema as z.ZodType).safeParse(bad.value).success) accepted.push(`${path} accepts ${bad.name}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('attack 12.11: answers the field with invalid_characters before any other rule', () => {
    const schema = contract.contactMessageRequestSchema;
    const result = schema.safeParse({
      name: 'Ona\u0000',
      email: 'ona@example.lt',
      subject: '\ud800',
      message: 'Sveiki, ar galite padėti?',
    });
    expect(result.success).toBe(false);
    const byField = new Map<string, string>();
    for (const issue of result.error?.issues ?? []) {
      const field = issue.path.join('.');
      if (!byField.has(field)) byField.set(field, issue.message);
    }
    expect(byField.get('name')).toBe('invalid_characters');
    expect(byField.get('subject')).toBe('invalid_characters');
    expect(contract.errorText('lt', 'invalid_characters')).not.toBe(
      contract.errorText('en', 'invalid_characters'),
    );
  });

  it('keeps every other text, including emoji (a surrogate pair) and Lithuanian letters', () => {
    for (const good of ['Ąžuolas Šilėnas', '😀 ok', 'tab\tand\nnewline', '']) {
      expect(isStorableText(good), good).toBe(true);
      expect(text().safeParse(good).success).toBe(true);
    }
  });
});
