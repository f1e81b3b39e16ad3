// Attacks on sign-up and sign-in (issue 12): each test replays what was found and shows it fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/factories.ts';
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
