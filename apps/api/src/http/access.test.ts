import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessPlugin, registerWithAccess, routeAccessOf, type AccessGuards } from './access.ts';
import { AppError } from './app-error.ts';
import { errorHandlerPlugin } from './error-handler.ts';
import { languagePlugin } from './language.ts';

/** Guards that admit a request carrying `x-level: <level>` and record which ran. */
function recordingGuards(ran: string[]): AccessGuards {
  const admit = (level: string) => async (request: FastifyRequest) => {
    ran.push(level);
    if (request.headers['x-level'] !== level) throw new AppError('unauthorized');
  };
  return {
    'signed-in': admit('signed-in'),
    verified: admit('verified'),
    node: admit('node'),
    backups: admit('backups'),
    subuser: admit('subuser'),
    'linux-user': admit('linux-user'),
  };
}

async function appWith(ran: string[] = []) {
  const app = Fastify({ logger: false });
  await app.register(accessPlugin, { guards: () => recordingGuards(ran) });
  await app.register(errorHandlerPlugin);
  await app.register(languagePlugin);
  return app;
}

describe('route access levels', () => {
  it('refuses to start while a route declares no level, and names it', async () => {
    const app = await appWith();
    app.get('/declared', { config: { access: 'public' } }, async () => ({ ok: true }));
    app.post('/forgotten', async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/POST \/forgotten/);
    await app.close();
  });

  it('runs the guard of the declared level, none for a public route', async () => {
    const ran: string[] = [];
    const app = await appWith(ran);
    app.get('/open', { config: { access: 'public' } }, async () => ({ ok: true }));
    app.get('/mine', { config: { access: 'verified' } }, async () => ({ ok: true }));
    app.post('/report', { config: { access: 'node' } }, async () => ({ ok: true }));
    await app.ready();

    expect((await app.inject({ method: 'GET', url: '/open' })).statusCode).toBe(200);
    expect(ran).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/mine' })).statusCode).toBe(401);
    const verified = await app.inject({ method: 'GET', url: '/mine', headers: { 'x-level': 'verified' } });
    expect(verified.statusCode).toBe(200);
    // HEAD answers as its GET does, behind the same guard.
    expect((await app.inject({ method: 'HEAD', url: '/mine' })).statusCode).toBe(401);
    const node = await app.inject({ method: 'POST', url: '/report', headers: { 'x-level': 'node' } });
    expect(node.statusCode).toBe(200);
    expect(ran).toEqual(['verified', 'verified', 'verified', 'node']);
    await app.close();
  });

  it('never lets a route that reads its own session answer a success without admitting it', async () => {
    const app = await appWith();
    const config = { access: 'verified', sessionReadByRoute: true } as const;
    app.get('/forgets', { config }, async () => ({ secret: 'rows of whoever the token named' }));
    app.get('/admits', { config }, async (request) => {
      request.auth = { userId: 'u', sessionId: 's', emailVerified: true };
      return { ok: true };
    });
    app.get('/refuses', { config }, async () => {
      throw new AppError('unauthorized');
    });
    await app.ready();
    const headers = { 'x-level': 'verified' };

    const forgot = await app.inject({ method: 'GET', url: '/forgets', headers });
    expect(forgot.statusCode).toBe(500);
    expect(forgot.body).not.toContain('secret');
    expect((await app.inject({ method: 'GET', url: '/admits', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/refuses', headers })).statusCode).toBe(401);
    await app.close();
  });

  it('guards and records a prefix’s own route with and without its trailing slash', async () => {
    const app = await appWith();
    await app.register(
      async (orders) => {
        orders.get('/', { config: { access: 'verified' } }, async () => ({ ok: true }));
      },
      { prefix: '/orders' },
    );
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/orders' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/orders/' })).statusCode).toBe(401);
    expect(routeAccessOf(app)).toEqual([
      { method: 'GET', url: '/orders', access: 'verified' },
      { method: 'GET', url: '/orders/', access: 'verified' },
    ]);
    await app.close();
  });

  it('refuses a caller before reading the body it sent', async () => {
    const app = await appWith();
    app.post('/mine', { config: { access: 'verified' } }, async () => ({ ok: true }));
    await app.ready();
    const response = await app.inject({
      method: 'POST',
      url: '/mine',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(401);
    await app.close();
  });

  it('declares a third-party plugin’s routes where it is registered, and no route after it', async () => {
    const app = await appWith();
    await registerWithAccess(app, 'public', () =>
      app.register(async (vendor) => {
        vendor.get('/vendor/page', async () => 'page');
        vendor.get('/vendor/own', { config: { access: 'signed-in' } }, async () => 'own');
      }),
    );
    app.get('/later', async () => 'later');
    await expect(app.ready()).rejects.toThrow(/GET \/later/);
    expect(routeAccessOf(app)).toEqual([
      { method: 'GET', url: '/vendor/page', access: 'public' },
      { method: 'GET', url: '/vendor/own', access: 'signed-in' },
      { method: 'GET', url: '/later', access: undefined },
    ]);
    await app.close();
  });
});
