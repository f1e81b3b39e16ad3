// Malformed input to every route of the OpenAPI document, sent by a signed-in owner with real ids
// (and by a registered node to the node routes), so the junk reaches the handlers and the
// database rather than stopping at a 401: NUL and lone surrogates in every JSON string, in the
// query string and in path parameters; 1 MB and 10 MB bodies; deep nesting; wrong types.
// Nothing may answer 5xx, and no answer may carry a stack trace or SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, csrfSession, type TestContext } from '../test/test-app.ts';
import { capacity, registerNode } from '../test/services.ts';
import {
  CHANGES,
  fillPath,
  nameOf,
  operationsOf,
  ownerWithEverything,
  sampleBody,
  type Operation,
  type OwnerResources,
} from '../test/security.ts';

const LEAKS = [
  { name: 'stack trace', pattern: /\n\s+at |\.ts:\d+|node_modules/ },
  {
    name: 'SQL',
    pattern:
      /\b(select .+ from|insert into|update \S+ set|delete from)\b|SQLSTATE|syntax error at|violates .* constraint/i,
  },
];

/** Every string of `value` replaced by `replace(string)`, every other leaf kept. */
function mapStrings(value: unknown, replace: (text: string) => unknown): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, replace));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, replace)]));
  }
  return value;
}

/** Every leaf of `value` given a value of another type. */
function wrongTypes(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'twelve';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return { not: 'an array' };
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, wrongTypes(item)]));
  }
  return [value];
}

const BAD_SEGMENTS = ['%00', 'a%00b', '%ED%A0%80', '%C0%80', 'x'.repeat(99)];
// `wait_ms` too: without it the nodes' long poll would hold the request for its default 25 s.
const BAD_QUERY =
  '?page=%00&per_page=%ED%A0%80&service_id=%00&start_date=%C0%80&action=a%00&lines=1e999&q=%uD800&wait_ms=%00';

describe('every route refuses malformed input without a 5xx, a stack trace or SQL', () => {
  let ctx: TestContext;
  let owner: OwnerResources;
  let nodeAuth: { authorization: string };
  let operations: Operation[];
  let csrf: { cookie: string; token: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await ownerWithEverything(ctx);
    const node = await registerNode(ctx, 'fuzz-node', capacity(1000));
    nodeAuth = { authorization: `Bearer ${node.token}` };
    operations = operationsOf(ctx);
    csrf = await csrfSession(ctx.app);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const failures: string[] = [];
  async function attempt(
    operation: Operation,
    url: string,
    what: string,
    payload?: string,
    contentType = 'application/json',
  ): Promise<LightMyRequestResponse> {
    const auth = operation.route.startsWith('/api/v1/nodes/') ? nodeAuth : owner.auth;
    const response = await ctx.app.inject({
      method: operation.method,
      url,
      headers: {
        ...auth,
        cookie: csrf.cookie,
        'x-csrf-token': csrf.token,
        ...(payload === undefined ? {} : { 'content-type': contentType }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    if (response.statusCode >= 500) {
      failures.push(`${nameOf(operation)} [${what}] → ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    for (const leak of LEAKS) {
      if (leak.pattern.test(response.body))
        failures.push(`${nameOf(operation)} [${what}] shows ${leak.name}`);
    }
    return response;
  }

  function urlOf(operation: Operation): string {
    const url = fillPath(operation.route, owner);
    if (!url) throw new Error(`${nameOf(operation)}: a path parameter the walk cannot fill (see fillPath)`);
    return url;
  }

  it('attack 12.11: NUL and lone surrogates in path parameters and query strings', async () => {
    failures.length = 0;
    for (const operation of operations) {
      const parameters = operation.route.match(/\{[^}]+\}/g) ?? [];
      for (const parameter of parameters) {
        for (const segment of BAD_SEGMENTS) {
          const url = urlOf({ ...operation, route: operation.route.replace(parameter, segment) });
          await attempt(
            operation,
            url,
            `${parameter}=${segment.slice(0, 12)}`,
            CHANGES.has(operation.method) ? '{}' : undefined,
          );
        }
      }
      await attempt(
        operation,
        `${urlOf(operation)}${BAD_QUERY}`,
        'query',
        CHANGES.has(operation.method) ? '{}' : undefined,
      );
    }
    expect(failures).toEqual([]);
  });

  it('attack 12.11: NUL, lone surrogates and wrong types in every JSON string of a valid body', async () => {
    failures.length = 0;
    const refusedCharacters: string[] = [];
    for (const operation of operations.filter((op) => CHANGES.has(op.method))) {
      const body = sampleBody(operation, owner);
      if (!body) continue;
      const url = urlOf(operation);
      let hasStrings = false;
      mapStrings(body, () => (hasStrings = true));
      const variants: Array<[string, unknown]> = [
        ['NUL', mapStrings(body, (text) => `${text}\u0000`)],
        ['lone high surrogate', mapStrings(body, (text) => `${text}\ud800`)],
        ['lone low surrogate', mapStrings(body, (text) => `\udc00${text}`)],
        ['wrong types', wrongTypes(body)],
      ];
      for (const [what, payload] of variants) {
        // JSON.stringify writes a lone surrogate as the escape "\ud800", as an attacker would.
        const response = await attempt(operation, url, what, JSON.stringify(payload));
        if (what !== 'wrong types' && hasStrings && response.statusCode < 400) {
          refusedCharacters.push(`${nameOf(operation)} [${what}] accepted → ${response.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // A body whose strings all carry NUL or a lone surrogate is refused, never saved altered.
    expect(refusedCharacters).toEqual([]);
  });

  it('attack 12.11: the anonymous contact form refuses NUL with the field’s error, not a 500', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/contact',
      headers: { cookie: csrf.cookie, 'x-csrf-token': csrf.token, 'accept-language': 'lt' },
      payload: {
        name: 'Ona Onaitė',
        email: 'ona@example.lt',
        subject: 'Klausimas',
        message: 'Sveiki,\u0000 ar galite?',
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      detail: 'validation_error',
      errors: [{ field: 'message', code: 'invalid_characters' }],
    });
  });

  it('attack 12.11: 1 MB and 10 MB bodies, deep nesting and broken JSON', async () => {
    failures.length = 0;
    const justOverLimit = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const tenMegabytes = JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024) });
    const deepObject = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
    const deepArray = '['.repeat(200_000) + ']'.repeat(200_000);
    const bodies: Array<[string, string]> = [
      ['1 MB', justOverLimit],
      ['10 MB', tenMegabytes],
      ['deep object', deepObject],
      ['deep array', deepArray],
      ['NUL outside strings', '{"name":"ona"}\u0000'],
      ['broken surrogate escape', '{"name":"\\ud800\\u0000\\uDFFF"}'],
    ];
    for (const operation of operations.filter((op) => CHANGES.has(op.method))) {
      const url = urlOf(operation);
      for (const [what, payload] of bodies) {
        const response = await attempt(operation, url, what, payload);
        if (what.endsWith('MB') && response.statusCode !== 413 && response.statusCode < 500) {
          // Routes that take no body may refuse earlier (401, 404), but never accept it.
          if (response.statusCode < 400) failures.push(`${nameOf(operation)} [${what}] accepted`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
