// The cross-cutting behaviour of the HTTP layer: CSRF, error shape and language, 404s, headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.ts';

describe('errors', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('answers unknown API paths with a JSON 404 in the caller language', async () => {
    const english = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(english.statusCode).toBe(404);
    expect(english.json()).toEqual({ detail: 'not_found', message: 'Not found' });

    const lithuanian = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nothing-here',
      headers: { 'accept-language': 'lt-LT,lt;q=0.9,en;q=0.8' },
    });
    expect(lithuanian.json()).toEqual({ detail: 'not_found', message: 'Nerasta' });
  });

  it('gives field errors in Lithuanian when asked', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/register',
      headers: { 'accept-language': 'lt', authorization: 'Bearer x' },
      payload: { name: 'ok-name' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json<{
      message: string;
      errors: Array<{ field: string; code: string; message: string }>;
    }>();
    expect(body.message).toMatch(/laukai/);
    expect(body.errors).toContainEqual({
      field: 'hostname',
      code: 'required',
      message: 'Šis laukas privalomas',
    });
  });

  it('sets security headers and keeps CORS closed', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the OpenAPI document under /api/docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/api/v1/health');
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});
