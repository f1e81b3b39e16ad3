// Acceptance guard for every route, present and future: routes are discovered from the OpenAPI
// document, then sent malformed bodies, wrong types, junk query strings and missing CSRF headers.
// None may answer 500, and every refusal must have the error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '@debesis/contract';
import { createTestContext, csrfSession, type TestContext } from '../test/test-app.ts';
import { isCsrfExempt as isExempt } from './csrf-exempt.ts';

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
}

const isCsrfExempt = (operation: Operation) => isExempt(operation.method, operation.url);

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const MALFORMED_BODIES: Array<{ name: string; payload: string; contentType: string }> = [
  { name: 'broken JSON', payload: '{"a": ', contentType: 'application/json' },
  { name: 'empty JSON body', payload: '', contentType: 'application/json' },
  { name: 'JSON null', payload: 'null', contentType: 'application/json' },
  { name: 'JSON array', payload: '[1,2,3]', contentType: 'application/json' },
  { name: 'JSON string', payload: '"hello"', contentType: 'application/json' },
  {
    name: 'wrong types',
    payload: JSON.stringify({ name: 42, email: [], password: {}, id: true }),
    contentType: 'application/json',
  },
  {
    name: 'prototype pollution',
    payload: '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}',
    contentType: 'application/json',
  },
  {
    name: 'deep nesting',
    payload: '{"a":'.repeat(500) + '1' + '}'.repeat(500),
    contentType: 'application/json',
  },
  {
    name: 'huge string',
    payload: JSON.stringify({ name: 'x'.repeat(200_000) }),
    contentType: 'application/json',
  },
  { name: 'unknown media type', payload: '<xml/>', contentType: 'application/xml' },
  { name: 'form body', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
];

function operationsFrom(document: { paths?: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(methods)) {
      const upper = method.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      // Path parameters get a value of the wrong shape on purpose.
      const url = route.replace(/\{[^}]+\}/g, 'not-a-valid-id%00');
      operations.push({ method: upper, url });
    }
  }
  return operations;
}

describe('every route refuses bad input with a 4xx and the error shape', () => {
  let ctx: TestContext;
  let operations: Operation[];
  let csrf: { cookie: string; token: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    operations = operationsFrom(ctx.app.swagger() as { paths?: Record<string, Record<string, unknown>> });
    csrf = await csrfSession(ctx.app);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('knows the routes registered so far', () => {
    const names = operations.map((operation) => `${operation.method} ${operation.url}`);
    expect(names).toEqual(expect.arrayContaining(['GET /api/v1/health', 'POST /api/v1/nodes/register']));
  });

  it('never answers 500 to malformed bodies', async () => {
    const failures: string[] = [];
    for (const operation of operations.filter((op) => CHANGES.has(op.method))) {
      for (const body of MALFORMED_BODIES) {
        const response = await ctx.app.inject({
          method: operation.method,
          url: operation.url,
          payload: body.payload,
          headers: {
            'content-type': body.contentType,
            cookie: csrf.cookie,
            'x-csrf-token': csrf.token,
            authorization: 'Bearer not-a-real-token',
          },
        });
        const parsed = errorResponseSchema.safeParse(safeJson(response.body));
        if (response.statusCode >= 500 || response.statusCode < 400 || !parsed.success) {
          failures.push(
            `${operation.method} ${operation.url} [${body.name}] → ${response.statusCode} ${response.body.slice(0, 200)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('never answers 500 to junk query strings and path parameters', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      const response = await ctx.app.inject({
        method: operation.method,
        url: `${operation.url}?page=-1&limit=abc&skip=%FF&per_page=1e99&start_date=yesterday&x[y][z]=1`,
        headers: { cookie: csrf.cookie, 'x-csrf-token': csrf.token },
        ...(CHANGES.has(operation.method) ? { payload: {} } : {}),
      });
      if (response.statusCode >= 500)
        failures.push(`${operation.method} ${operation.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 csrf_invalid to a change without the CSRF header, unless the route is exempt', async () => {
    const changes = operations.filter((op) => CHANGES.has(op.method));
    for (const operation of changes) {
      const response = await ctx.app.inject({ method: operation.method, url: operation.url, payload: {} });
      if (isCsrfExempt(operation)) {
        expect(response.statusCode, `${operation.method} ${operation.url}`).not.toBe(403);
      } else {
        expect(response.statusCode, `${operation.method} ${operation.url}`).toBe(403);
        expect(response.json()).toMatchObject({ detail: 'csrf_invalid' });
      }
    }
  });
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
