// Attacks on sign-up and sign-in (issue 12): each test replays what was found and shows it fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, PASSWORD, signedInUser } from '../../test/factories.ts';
import { createTestContext, injectWithCsrf, type TestContext } from '../../test/test-app.ts';

describe('auth attacks', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ clock: true });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const me = (accessToken: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const refresh = (refreshToken: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token: refreshToken } });

  describe('failed sign-in limits', () => {
    const statuses = (responses: Array<{ statusCode: number }>) =>
      responses.reduce<Record<number, number>>((counts, { statusCode }) => {
        counts[statusCode] = (counts[statusCode] ?? 0) + 1;
        return counts;
      }, {});

    it('attack 12.10: 17 wrong passwords at once for one account: only 5 reach the password check', async () => {
      const { email } = await signedInUser(ctx);
      const attempts = await Promise.all(
        Array.from({ length: 17 }, (_, index) => login(ctx, email, 'Wrong-Password-1', `10.120.0.${index}`)),
      );
      expect(statuses(attempts)).toEqual({ 401: 5, 429: 12 });
      // Locked for the owner too, until the window passes.
      expect((await login(ctx, email, PASSWORD, '10.120.1.1')).statusCode).toBe(429);
      ctx.advance(15 * 60_000 + 1000);
      expect((await login(ctx, email, PASSWORD, '10.120.1.1')).statusCode).toBe(200);
    });

    it('attack 12.10: 30 wrong sign-ins at once from one address: only 20 reach the password check', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          login(ctx, `stranger-${index}@example.lt`, 'Wrong-Password-1', '10.121.0.1'),
        ),
      );
      expect(statuses(attempts)).toEqual({ 401: 20, 429: 10 });
    });

    it('a right password among wrong ones is not counted as a failure', async () => {
      const { email } = await signedInUser(ctx);
      for (let attempt = 0; attempt < 4; attempt += 1) {
        expect((await login(ctx, email, PASSWORD, '10.122.0.1')).statusCode).toBe(200);
      }
      const wrong = await Promise.all(
        Array.from({ length: 4 }, () => login(ctx, email, 'Wrong-Password-1', '10.122.0.2')),
      );
      expect(statuses(wrong)).toEqual({ 401: 4 });
      expect((await login(ctx, email, PASSWORD, '10.122.0.3')).statusCode).toBe(200);
    });
  });

  describe('sign-out', () => {
    it('attack 12.13: POST /auth/logout without a body signs out', async () => {
      const bodies: Array<{ headers: Record<string, string>; payload?: string }> = [
        { headers: {} },
        { headers: { 'content-type': 'application/json' } },
        { headers: { 'content-type': 'application/json' }, payload: '' },
        { headers: { 'content-type': 'application/json' }, payload: '{}' },
      ];
      for (const body of bodies) {
        const { tokens, auth } = await signedInUser(ctx);
        const response = await injectWithCsrf(ctx.app, {
          method: 'POST',
          url: '/api/v1/auth/logout',
          headers: { ...auth, ...body.headers },
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        });
        expect({ body, status: response.statusCode }).toEqual({ body, status: 200 });
        expect((await me(tokens.access_token)).statusCode).toBe(401);
        expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
      }
    });

    it('still refuses a body that is not JSON, without signing anyone out by mistake', async () => {
      const { tokens, auth } = await signedInUser(ctx);
      const response = await injectWithCsrf(ctx.app, {
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{not json',
      });
      expect(response.statusCode).toBe(400);
      expect((await me(tokens.access_token)).statusCode).toBe(200);
    });
  });
});
