import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledContractSerializer } from './contract-serializer.ts';

const schema = z.object({
  id: z.string(),
  state: z.enum(['active', 'stopped']).nullable().default(null),
  count: z.number().int().optional(),
  actions: z.array(z.enum(['start', 'stop'])).default([]),
});
const write = compiledContractSerializer({ schema, method: 'GET', url: '/test' });

describe('compiledContractSerializer', () => {
  it('writes the values the contract names, null and optional ones included', () => {
    const value = { id: 'a', state: 'active', count: 3, actions: ['start'] };
    expect(JSON.parse(write(value))).toEqual(value);
    expect(JSON.parse(write({ id: 'b', state: null, actions: [] }))).toEqual({
      id: 'b',
      state: null,
      actions: [],
    });
  });

  it('never writes a key the contract does not name', () => {
    const leaked = { id: 'a', state: null, actions: [], password_hash: 'secret', nested: { x: 1 } };
    const written = write(leaked);
    expect(written).not.toContain('secret');
    expect(Object.keys(JSON.parse(written) as object).sort()).toEqual(['actions', 'id', 'state']);
  });

  it('refuses at start-up a schema JSON cannot describe', () => {
    const transformed = z.object({ at: z.string().transform((text) => new Date(text)) });
    expect(() => compiledContractSerializer({ schema: transformed, method: 'GET', url: '/t' })).toThrow();
    expect(() => compiledContractSerializer({ schema: {}, method: 'GET', url: '/t' })).toThrow(/zod schema/);
  });
});
