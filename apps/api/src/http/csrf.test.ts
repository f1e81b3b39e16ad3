// The CSRF plugin on a minimal app with one protected and one exempt route.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfPlugin } from './csrf.ts';
import { errorHandlerPlugin } from './error-handler.ts';
import { languagePlugin } from './language.ts';

async function session(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/csrf' });
  return {
    cookie: response.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
    token: response.json<{ csrf_token: string }>().csrf_token,
    cookies: response.cookies,
  };
}

describe('CSRF double-submit', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(errorHandlerPlugin);
    await app.register(languagePlugin);
    await app.register(fastifyCookie);
    await app.register(csrfPlugin, { secure: false });
    app.get('/csrf', async (_request, reply) => ({ csrf_token: reply.ensureCsrfToken() }));
    app.post('/change', async () => ({ changed: true }));
    app.post('/sign-in', { config: { csrf: false } }, async () => ({ signedIn: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('issues a readable csrf_token cookie and an httpOnly secret', async () => {
    const { cookies, token } = await session(app);
    expect(cookies.find((cookie) => cookie.name === 'csrf_token')).toMatchObject({
      value: token,
      sameSite: 'Strict',
    });
    expect(cookies.find((cookie) => cookie.name === 'csrf_token')?.httpOnly).toBeFalsy();
    expect(cookies.find((cookie) => cookie.name === '_csrf')?.httpOnly).toBe(true);
  });

  it('keeps the same token while the browser holds it', async () => {
    const { cookie, token } = await session(app);
    const again = await app.inject({ method: 'GET', url: '/csrf', headers: { cookie } });
    expect(again.json()).toEqual({ csrf_token: token });
    expect(again.cookies).toHaveLength(0);
  });

  it('accepts a change that echoes the cookie in the header', async () => {
    const { cookie, token } = await session(app);
    const response = await app.inject({
      method: 'POST',
      url: '/change',
      headers: { cookie, 'x-csrf-token': token },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a missing header, a forged header and a header without cookies with 403 csrf_invalid', async () => {
    const mine = await session(app);
    const other = await session(app);
    const attempts = [
      { cookie: mine.cookie },
      { cookie: mine.cookie, 'x-csrf-token': other.token.replace(/.$/, '0') + 'x' },
      { 'x-csrf-token': mine.token },
    ];
    for (const headers of attempts) {
      const response = await app.inject({ method: 'POST', url: '/change', headers });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ detail: 'csrf_invalid' });
    }
  });

  it('lets exempt routes through and leaves reads alone', async () => {
    expect((await app.inject({ method: 'POST', url: '/sign-in' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/csrf' })).statusCode).toBe(200);
  });
});
