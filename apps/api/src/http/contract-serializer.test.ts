import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledContractSerializer, keptAnswerSerializer } from './contract-serializer.ts';

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

describe('keptAnswerSerializer', () => {
  const writeKept = keptAnswerSerializer({ schema, method: 'GET', url: '/test' });
  const bytes = (written: unknown) => Buffer.from(written as string | Buffer).toString();

  it('writes an answer frozen all through once, the same bytes the contract writes', () => {
    const answer = Object.freeze({ id: 'a', state: 'active', count: 3, actions: Object.freeze(['start']) });
    const first = writeKept(answer);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(bytes(first)).toBe(write(answer));
    expect(writeKept(answer)).toBe(first);
    // Another object of the same values is written for itself.
    expect(writeKept(Object.freeze({ ...answer }))).not.toBe(first);
  });

  it('writes each time an answer that can still change', () => {
    const actions: string[] = ['start'];
    const shallow = Object.freeze({ id: 'a', state: null, actions });
    expect(bytes(writeKept(shallow))).toBe(write(shallow));
    actions.push('stop');
    expect(JSON.parse(bytes(writeKept(shallow)))).toMatchObject({ actions: ['start', 'stop'] });
    const open = { id: 'b', state: null, actions: [] as string[] };
    expect(bytes(writeKept(open))).toBe(write(open));
    open.id = 'c';
    expect(JSON.parse(bytes(writeKept(open)))).toMatchObject({ id: 'c' });
  });
});
