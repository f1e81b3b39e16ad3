import { describe, expect, it } from 'vitest';
import type { ErrorResponse } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { createAnalyticsQueries } from './analytics.queries.ts';

describe('analytics events', () => {
  const ctx = useTestContext({ clock: true });

  const send = (payload: object, remoteAddress: string) =>
    injectWithCsrf(ctx.app, { method: 'POST', url: '/api/v1/analytics/events', payload, remoteAddress });
  const rows = () => createAnalyticsQueries(ctx.database.db).all();

  it('stores an event with only what it needs, answering 202', async () => {
    const response = await send(
      { name: 'page_view', path: '/solutions/team-drive', language: 'lt' },
      '10.1.0.1',
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ status: 'accepted' });
    const cta = await send({ name: 'cta_click', path: '/', target: 'home-hero' }, '10.1.0.1');
    expect(cta.statusCode).toBe(202);

    const stored = (await rows()).slice(-2);
    expect(stored.map(({ name, path, target, language }) => ({ name, path, target, language }))).toEqual([
      { name: 'page_view', path: '/solutions/team-drive', target: null, language: 'lt' },
      { name: 'cta_click', path: '/', target: 'home-hero', language: null },
    ]);
    // No address, no user: the row has no column for them.
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual([
      'createdAt',
      'id',
      'language',
      'name',
      'path',
      'target',
    ]);
  });

  it('refuses bad input with the project’s error values and stores nothing', async () => {
    const before = (await rows()).length;
    const cases: [object, string, string][] = [
      [{ name: 'purchase', path: '/' }, 'name', 'invalid_value'],
      [{ name: 'page_view' }, 'path', 'required'],
      // A query string may carry a token or an email address: never accepted.
      [{ name: 'page_view', path: '/auth/reset-password?token=secret' }, 'path', 'invalid_format'],
      [{ name: 'page_view', path: 'https://example.com/' }, 'path', 'invalid_format'],
      [{ name: 'cta_click', path: '/', target: 'Ona <ona@example.lt>' }, 'target', 'invalid_format'],
      [{ name: 'page_view', path: '/', email: 'ona@example.lt' }, 'body', 'unknown_field'],
    ];
    for (const [payload, field, code] of cases) {
      const response = await send(payload, '10.1.0.2');
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      const body = response.json<ErrorResponse>();
      expect(body.detail).toBe('validation_error');
      expect(body.errors?.[0], JSON.stringify(payload)).toMatchObject({ field, code });
    }
    const malformed = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<ErrorResponse>().detail).toBe('invalid_json');
    expect((await rows()).length).toBe(before);
  });

  it('needs the CSRF header like every change', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/events',
      payload: { name: 'page_view', path: '/' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('limits events per IP address (60 a minute)', async () => {
    for (let i = 0; i < 60; i += 1) {
      expect((await send({ name: 'page_view', path: `/p${i}` }, '10.1.0.3')).statusCode).toBe(202);
    }
    const refused = await send({ name: 'page_view', path: '/one-too-many' }, '10.1.0.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorResponse>().detail).toBe('too_many_attempts');
    expect((await rows()).some((row) => row.path === '/one-too-many')).toBe(false);
    // Another visitor is not affected; the same one is let through after the minute.
    expect((await send({ name: 'page_view', path: '/' }, '10.1.0.4')).statusCode).toBe(202);
    ctx.advance(61_000);
    expect((await send({ name: 'page_view', path: '/' }, '10.1.0.3')).statusCode).toBe(202);
  });
});
