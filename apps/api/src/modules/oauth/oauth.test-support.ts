// Test harness for the OAuth module: the API's plugins in buildApp's order with the real auth,
// users and OAuth services on a private test database, and a tiny "browser" that follows
// redirects between the app (through inject) and the local providers (through real HTTP),
// keeping cookies per site the way a browser does.
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { LoginResponse } from '@debesis/contract';
import type { App } from '../../app.ts';
import { accessPlugin } from '../../http/access.ts';
import { unauthorized } from '../../http/app-error.ts';
import { csrfPlugin } from '../../http/csrf.ts';
import { errorHandlerPlugin } from '../../http/error-handler.ts';
import { languagePlugin } from '../../http/language.ts';
import { securityPlugin } from '../../http/security.ts';
import { openTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { accessGuards } from '../../http/caller.ts';
import { createAuthQueries } from '../auth/auth.queries.ts';
import { authRoutes } from '../auth/auth.routes.ts';
import { createAuthService } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createAccessTokens } from '../auth/tokens.ts';
import { createRateLimitQueries } from '../rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from '../rate-limits/rate-limits.service.ts';
import { createUsersQueries, type UsersQueries, type UserWithSettings } from '../users/users.queries.ts';
import { usersRoutes } from '../users/users.routes.ts';
import { createUsersService } from '../users/users.service.ts';
import { oauthEnvironmentSchema } from './oauth.config.ts';
import { createOAuthProviders } from './oauth.providers.ts';
import { createOAuthQueries } from './oauth.queries.ts';
import { oauthRoutes } from './oauth.routes.ts';
import { createOAuthService, type OAuthService } from './oauth.service.ts';

/** The app's address as the providers know it; requests to it go through `app.inject`. */
export const PUBLIC_URL = 'http://debesis.test';
export const CLIENT_ID = 'debesis-test-client';
export const CLIENT_SECRET = 'debesis-test-secret-0123456789abcdef';
export const JWT_SECRET = 'test-jwt-secret-that-is-long-enough-0123456789';

export function callbackUri(provider: string): string {
  return `${PUBLIC_URL}/api/v1/auth/oauth/${provider}/callback`;
}

export interface OAuthTestContext {
  app: App;
  database: TestDatabase;
  oauth: OAuthService;
  /** Another OAuth service on the same database and services, with other provider settings. */
  oauthWith(env: Record<string, string>): OAuthService;
  users: UsersQueries;
  /** Moves the OAuth service's clock (state and login-code expiry). */
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function createOAuthTestContext(env: Record<string, string>): Promise<OAuthTestContext> {
  const database = await openTestDatabase();
  let offsetMs = 0;
  const shifted = () => new Date(Date.now() + offsetMs);

  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(accessPlugin, { guards: () => guards });
  await app.register(errorHandlerPlugin);
  await app.register(languagePlugin);
  await app.register(securityPlugin, { corsOrigins: [], https: false });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(csrfPlugin, { secure: false });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Debesis API', version: 'test' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });

  const activity = createActivityService({ queries: createActivityQueries(database.db) });
  const usersQueries = createUsersQueries(database.db);
  const authQueries = createAuthQueries(database.db);
  const auth = createAuthService({
    users: usersQueries,
    queries: authQueries,
    tokens: createAccessTokens(JWT_SECRET),
    limiter: createRateLimiter({ queries: createRateLimitQueries(database.db) }),
    activity,
    sendMail: async () => undefined,
    queuePasswordReset: async () => undefined,
    publicUrl: PUBLIC_URL,
  });
  // No node calls these routes.
  const guards = accessGuards(auth, { authenticate: () => Promise.reject(unauthorized()) });
  const oauthWith = (settings: Record<string, string>) =>
    createOAuthService({
      queries: createOAuthQueries(database.db),
      providers: createOAuthProviders(oauthEnvironmentSchema.parse(settings)),
      users: usersQueries,
      sessions: authQueries,
      auth,
      activity,
      publicUrl: PUBLIC_URL,
      now: shifted,
    });
  const oauth = oauthWith(env);
  const users = createUsersService({ queries: usersQueries, activity });

  await app.register(
    async (api) => {
      await api.register(authRoutes, { prefix: '/auth', auth, trustProxy: false });
      await api.register(oauthRoutes, { prefix: '/auth/oauth', oauth, secureCookies: false });
      await api.register(usersRoutes, { prefix: '/users', users });
    },
    { prefix: '/api/v1' },
  );
  await app.ready();

  return {
    app,
    database,
    oauth,
    oauthWith,
    users: usersQueries,
    advance(ms) {
      offsetMs += ms;
    },
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}

let counter = 0;
/** A unique address for one test. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${counter}-${Date.now()}@example.lt`;
}

/** An owner created directly (as registration would leave them), optionally with a password. */
export async function createOwner(
  ctx: OAuthTestContext,
  values: { email: string; emailVerified: boolean; password?: string; active?: boolean },
): Promise<UserWithSettings> {
  const user = await ctx.users.create(
    {
      email: values.email,
      passwordHash: values.password ? await hashPassword(values.password) : null,
      firstName: 'Ona',
      lastName: 'Onaitė',
      emailVerified: values.emailVerified,
      active: values.active ?? true,
    },
    'en',
  );
  return user;
}

interface StoredCookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

export interface Hop {
  url: URL;
  status: number;
  location: string | null;
}

/**
 * Follows redirects like a browser: a cookie jar per origin and path, requests to PUBLIC_URL
 * answered by the app (inject), every other origin over real HTTP.
 */
export class TestBrowser {
  private cookies: StoredCookie[] = [];
  readonly hops: Hop[] = [];

  constructor(
    private readonly app: App,
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(url: URL): string | undefined {
    const matching = this.cookies.filter(
      (cookie) => cookie.origin === url.origin && url.pathname.startsWith(cookie.path),
    );
    return matching.length
      ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
      : undefined;
  }

  private store(url: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const attribute = (key: string) =>
        attributes.find((entry) => entry.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? '/';
      const maxAge = attribute('max-age');
      const expires = attribute('expires');
      this.cookies = this.cookies.filter(
        (cookie) => !(cookie.origin === url.origin && cookie.name === name && cookie.path === path),
      );
      const gone =
        (maxAge !== undefined && Number(maxAge) <= 0) ||
        (expires !== undefined && new Date(expires).getTime() <= Date.now());
      if (!gone) this.cookies.push({ origin: url.origin, name, value, path });
    }
  }

  /** The value of a cookie this browser holds for the app. */
  appCookie(name: string): string | undefined {
    return this.cookies.find((cookie) => cookie.origin === PUBLIC_URL && cookie.name === name)?.value;
  }

  async request(
    url: URL,
    init: { method?: 'GET' | 'POST'; body?: unknown } = {},
  ): Promise<{ status: number; location: string | null; body: string }> {
    const cookie = this.cookieHeader(url);
    const headers: Record<string, string> = { ...this.headers, ...(cookie ? { cookie } : {}) };
    if (url.origin === PUBLIC_URL) {
      const response = await this.app.inject({
        method: init.method ?? 'GET',
        url: `${url.pathname}${url.search}`,
        headers,
        ...(init.body !== undefined ? { payload: init.body as Record<string, unknown> } : {}),
      });
      const setCookie = response.headers['set-cookie'];
      this.store(url, setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]);
      const location = response.headers.location;
      return {
        status: response.statusCode,
        location: typeof location === 'string' ? location : null,
        body: response.body,
      };
    }
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    this.store(url, response.headers.getSetCookie());
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    };
  }

  /** Follows redirects from `start` until `stop(url)` says the browser has arrived. */
  async follow(start: string | URL, stop: (url: URL) => boolean, maxHops = 20): Promise<URL> {
    let url = new URL(start, PUBLIC_URL);
    for (let hop = 0; hop < maxHops; hop += 1) {
      if (stop(url)) return url;
      const response = await this.request(url);
      this.hops.push({ url, status: response.status, location: response.location });
      if (response.status < 300 || response.status >= 400 || !response.location) {
        throw new Error(
          `${url.href} answered ${response.status} without a redirect: ${response.body.slice(0, 300)}`,
        );
      }
      url = new URL(response.location, url);
    }
    throw new Error(`more than ${maxHops} redirects from ${String(start)}`);
  }

  /** Runs a sign-in from the start URL to the web app's page (callback or error). */
  signIn(provider: string, redirect?: string): Promise<URL> {
    const query = redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`;
    return this.follow(
      `/api/v1/auth/oauth/${provider}/start${query}`,
      (url) => url.origin === PUBLIC_URL && url.pathname.startsWith('/auth/oauth/'),
    );
  }

  async exchange(code: string): Promise<{ status: number; body: LoginResponse & { detail?: string } }> {
    const response = await this.request(new URL('/api/v1/auth/oauth/exchange', PUBLIC_URL), {
      method: 'POST',
      body: { code },
    });
    return {
      status: response.status,
      body: JSON.parse(response.body) as LoginResponse & { detail?: string },
    };
  }
}
