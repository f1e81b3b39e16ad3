// CSRF double-submit, signed: the readable `csrf_token` cookie holds a token made from a secret in
// the httpOnly `_csrf` cookie; every POST/PUT/PATCH/DELETE must echo the token in X-CSRF-Token.
// A forged request from another site can send the cookies but cannot read them to set the header.
// Routes that carry no browser session (sign-in, register, refresh, payment events, node agents)
// opt out with `config: { csrf: false }`.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCsrf from '@fastify/csrf-protection';
import { CSRF_COOKIE, CSRF_HEADER } from '@debesis/contract';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route does not need the CSRF header (it is not called with a browser session). */
    csrf?: boolean;
  }
}

const SECRET_COOKIE = '_csrf';
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const csrfPlugin = fp(async (app: FastifyInstance, options: { secure: boolean }) => {
  const cookieOptions = { path: '/', sameSite: 'strict' as const, secure: options.secure };
  await app.register(fastifyCsrf, {
    cookieKey: SECRET_COOKIE,
    cookieOpts: { ...cookieOptions, httpOnly: true },
    getToken: (request) => {
      const header = request.headers[CSRF_HEADER];
      return typeof header === 'string' ? header : undefined;
    },
  });

  /** Gives the browser a token when it has none (or its secret is gone); returns the token in use. */
  app.decorateReply('ensureCsrfToken', function ensureCsrfToken(this: FastifyReply): string {
    const { cookies } = this.request;
    const existing = cookies[CSRF_COOKIE];
    if (existing && cookies[SECRET_COOKIE]) return existing;
    const token = this.generateCsrf();
    void this.setCookie(CSRF_COOKIE, token, { ...cookieOptions, httpOnly: false });
    return token;
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (!CHANGES.has(request.method) || request.is404 || request.routeOptions.config.csrf === false) {
      done();
      return;
    }
    app.csrfProtection(request, reply, done);
  });
});

declare module 'fastify' {
  interface FastifyReply {
    ensureCsrfToken(): string;
  }
}
