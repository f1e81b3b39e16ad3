// OAuth sign-in against a real OpenID Provider on 127.0.0.1 (oidc-provider), through the API's
// routes: nothing is mocked. Google is the provider with claims in the ID token; Microsoft is a
// second provider that gives its claims only at the userinfo endpoint.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@debesis/contract';
import { login, sessionBeforeVerification } from '../../test/factories.ts';
import {
  startLocalOidcProvider,
  type LocalOidcAccount,
  type LocalOidcProvider,
} from '../../../../../scripts/lib/local-oidc-provider.ts';
import {
  callbackUri,
  CLIENT_ID,
  CLIENT_SECRET,
  createOAuthTestContext,
  createOwner,
  JWT_SECRET,
  PUBLIC_URL,
  TestBrowser,
  uniqueEmail,
  type OAuthTestContext,
} from './oauth.test-support.ts';

const PASSWORD = 'Correct-Horse-7';

function account(overrides: Partial<LocalOidcAccount> = {}): LocalOidcAccount {
  return {
    sub: randomUUID(),
    email: uniqueEmail('oidc'),
    email_verified: true,
    given_name: 'Jonas',
    family_name: 'Jonaitis',
    name: 'Jonas Jonaitis',
    ...overrides,
  };
}

function reason(url: URL): { path: string; reason: string | null; provider: string | null } {
  return {
    path: url.pathname,
    reason: url.searchParams.get('reason'),
    provider: url.searchParams.get('provider'),
  };
}

describe('OAuth sign-in with OpenID Connect providers', () => {
  let google: LocalOidcProvider;
  let microsoft: LocalOidcProvider;
  let ctx: OAuthTestContext;

  beforeAll(async () => {
    google = await startLocalOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUri('google')],
      account: account(),
    });
    microsoft = await startLocalOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUri('microsoft')],
      account: account(),
      claimsInIdToken: false,
    });
    ctx = await createOAuthTestContext({
      OAUTH_GOOGLE_CLIENT_ID: CLIENT_ID,
      OAUTH_GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      OAUTH_GOOGLE_ISSUER: google.issuer,
      OAUTH_MICROSOFT_CLIENT_ID: CLIENT_ID,
      OAUTH_MICROSOFT_CLIENT_SECRET: CLIENT_SECRET,
      OAUTH_MICROSOFT_ISSUER: microsoft.issuer,
    });
  });
  afterAll(async () => {
    await ctx.close();
    await google.stop();
    await microsoft.stop();
  });
  beforeEach(() => {
    google.setDecision('consent');
    microsoft.setDecision('consent');
  });

  async function me(accessToken: string): Promise<User> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json<User>();
  }

  /** A full sign-in in a new browser; returns where it landed and the exchange's answer. */
  async function signInAndExchange(provider: 'google' | 'microsoft', headers: Record<string, string> = {}) {
    const browser = new TestBrowser(ctx.app, headers);
    const landed = await browser.signIn(provider);
    expect(landed.pathname, landed.href).toBe('/auth/oauth/callback');
    const exchange = await browser.exchange(landed.searchParams.get('code') ?? '');
    expect(exchange.status).toBe(200);
    return { browser, landed, tokens: exchange.body };
  }

  async function scalar<T>(text: string, values: unknown[]): Promise<T | undefined> {
    const { rows } = await ctx.database.executeSql(text, values);
    return rows[0] ? (Object.values(rows[0])[0] as T) : undefined;
  }

  it('lists the three providers with their enabled flags', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/oauth/providers' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      providers: [
        { id: 'google', name: 'Google', enabled: true },
        { id: 'github', name: 'GitHub', enabled: false },
        { id: 'microsoft', name: 'Microsoft', enabled: true },
      ],
    });
  });

  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge, bound to a cookie', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/oauth/google/start' });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string);
    expect(location.origin).toBe(google.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: callbackUri('google'),
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{40,}$/);
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const cookie = response.cookies.find((entry) => entry.name === 'oauth_binding');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1/auth/oauth' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('creates a verified account without a password for a new person, and its tokens work', async () => {
    const person = account({ given_name: 'Rūta', family_name: 'Rūtaitė', name: 'Rūta Rūtaitė' });
    google.setAccount(person);
    const { browser, landed, tokens } = await signInAndExchange('google', { 'accept-language': 'lt' });

    expect(landed.origin).toBe(PUBLIC_URL);
    expect([...landed.searchParams.keys()].sort()).toEqual(['code', 'redirect']);
    expect(landed.searchParams.get('redirect')).toBe('/dashboard/services');
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: expect.any(Number) as number });
    // No token ever travelled in a URL.
    for (const hop of browser.hops) {
      expect(hop.url.href).not.toContain(tokens.access_token);
      expect(hop.url.href).not.toContain(tokens.refresh_token);
      expect(hop.url.searchParams.has('access_token')).toBe(false);
    }

    const user = await me(tokens.access_token);
    expect(user).toMatchObject({
      email: person.email,
      first_name: 'Rūta',
      last_name: 'Rūtaitė',
      email_verified: true,
      has_password: false,
      active: true,
      account_type: 'personal',
      login_count: 1,
      language: 'lt',
    });
    expect(await scalar('select method from login_history where user_id = $1', [user.id])).toBe(
      'oauth:google',
    );
    const actions = await ctx.database.executeSql(
      'select action from activity_events where account_id = $1 order by created_at',
      [user.id],
    );
    expect(actions.rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(['account created', 'OAuth identity linked', 'user logged in']),
    );
    // The code is spent and the binding cookie cleared.
    expect(browser.appCookie('oauth_binding')).toBeUndefined();
  });

  it('signs the same provider account in to the same user again, even after its address changed', async () => {
    const person = account();
    google.setAccount(person);
    const first = await signInAndExchange('google');
    const firstUser = await me(first.tokens.access_token);

    google.setAccount({ ...person, email: uniqueEmail('changed') });
    const second = await signInAndExchange('google');
    const secondUser = await me(second.tokens.access_token);

    expect(secondUser.id).toBe(firstUser.id);
    expect(secondUser.email).toBe(person.email);
    expect(secondUser.login_count).toBe(2);
    expect(
      await scalar<number>('select count(*)::int from oauth_identities where user_id = $1', [firstUser.id]),
    ).toBe(1);
  });

  it('links to an existing account with the same verified address and keeps its password', async () => {
    const email = uniqueEmail('existing');
    const owner = await createOwner(ctx, { email, emailVerified: true, password: PASSWORD });
    google.setAccount(account({ email: email.toUpperCase() }));

    const { tokens } = await signInAndExchange('google');
    const user = await me(tokens.access_token);
    expect(user).toMatchObject({ id: owner.id, first_name: 'Ona', has_password: true, email_verified: true });
    expect(
      await scalar<string>(
        `select action from activity_events where account_id = $1 and action = 'OAuth identity linked'`,
        [owner.id],
      ),
    ).toBe('OAuth identity linked');
    expect(await scalar<string>('select email from oauth_identities where user_id = $1', [owner.id])).toBe(
      email,
    );

    expect((await login(ctx, email, PASSWORD)).statusCode).toBe(200);
  });

  it('takes an unproven registration of the address for its proven owner: verified, password and sessions gone', async () => {
    const email = uniqueEmail('squatted');
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        email,
        password: PASSWORD,
        firstName: 'Kitas',
        lastName: 'Žmogus',
        accountType: 'personal',
        country: 'LT',
      },
    });
    expect(registered.statusCode).toBe(201);
    const squatter = registered.json<{ user: User; token: null }>();
    // Registration opens no session; one from an older version must end all the same.
    const session = await sessionBeforeVerification(
      { database: ctx.database, jwtSecret: JWT_SECRET },
      squatter.user.id,
    );
    expect((await me(session.access_token)).email_verified).toBe(false);

    google.setAccount(account({ email }));
    const { tokens } = await signInAndExchange('google');
    const user = await me(tokens.access_token);
    expect(user).toMatchObject({ id: squatter.user.id, email_verified: true, has_password: false });

    const squatterCall = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(squatterCall.statusCode).toBe(401);
    expect((await login(ctx, email, PASSWORD)).statusCode).toBe(401);
  });

  it('refuses an address the provider has not verified, and links nothing', async () => {
    const email = uniqueEmail('unverified');
    const owner = await createOwner(ctx, { email, emailVerified: true, password: PASSWORD });
    google.setAccount(account({ email, email_verified: false }));

    const landed = await new TestBrowser(ctx.app).signIn('google');
    expect(reason(landed)).toEqual({
      path: '/auth/oauth/error',
      reason: 'oauth_email_unverified',
      provider: 'google',
    });
    expect(
      await scalar<number>('select count(*)::int from oauth_identities where user_id = $1', [owner.id]),
    ).toBe(0);

    const stranger = account({ email_verified: false });
    google.setAccount(stranger);
    expect(reason(await new TestBrowser(ctx.app).signIn('google')).reason).toBe('oauth_email_unverified');
    expect(await ctx.users.findByEmail(stranger.email)).toBeUndefined();
  });

  it('refuses a disabled account, linked or found by address', async () => {
    const email = uniqueEmail('disabled');
    await createOwner(ctx, { email, emailVerified: true, active: false });
    google.setAccount(account({ email }));
    expect(reason(await new TestBrowser(ctx.app).signIn('google')).reason).toBe('account_disabled');

    const person = account();
    google.setAccount(person);
    const { tokens } = await signInAndExchange('google');
    const user = await me(tokens.access_token);
    await ctx.users.update(user.id, { active: false });
    expect(reason(await new TestBrowser(ctx.app).signIn('google'))).toEqual({
      path: '/auth/oauth/error',
      reason: 'account_disabled',
      provider: 'google',
    });
  });

  describe('state', () => {
    /** Runs the flow up to (not into) the app's callback; returns the browser and the callback URL. */
    async function untilCallback(provider: 'google' | 'microsoft' = 'google') {
      google.setAccount(account());
      const browser = new TestBrowser(ctx.app);
      const callback = await browser.follow(
        `/api/v1/auth/oauth/${provider}/start`,
        (url) => url.origin === PUBLIC_URL && url.pathname.endsWith('/callback'),
      );
      return { browser, callback };
    }

    it('is single use: the same callback a second time is refused', async () => {
      const { browser, callback } = await untilCallback();
      const first = await browser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(first.pathname).toBe('/auth/oauth/callback');
      const again = await browser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(again)).toEqual({
        path: '/auth/oauth/error',
        reason: 'oauth_state_invalid',
        provider: 'google',
      });
    });

    it('must be one the API issued', async () => {
      const { browser, callback } = await untilCallback();
      const forged = new URL(callback);
      forged.searchParams.set('state', 'a-state-nobody-issued-0123456789abcdefghijklmn');
      const landed = await browser.follow(forged, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(landed).reason).toBe('oauth_state_invalid');
      const missing = new URL(callback);
      missing.searchParams.delete('state');
      const landedToo = await browser.follow(missing, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(landedToo).reason).toBe('oauth_state_invalid');
    });

    it('expires after ten minutes', async () => {
      const { browser, callback } = await untilCallback();
      ctx.advance(10 * 60_000 + 1000);
      try {
        const landed = await browser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
        expect(reason(landed).reason).toBe('oauth_state_invalid');
      } finally {
        ctx.advance(-(10 * 60_000 + 1000));
      }
    });

    it('belongs to the provider it was made for', async () => {
      const { browser, callback } = await untilCallback('google');
      const elsewhere = new URL(callback.href.replace('/google/callback', '/microsoft/callback'));
      const landed = await browser.follow(elsewhere, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(landed)).toEqual({
        path: '/auth/oauth/error',
        reason: 'oauth_state_invalid',
        provider: 'microsoft',
      });
    });

    it('belongs to the browser that started: a callback opened in another browser is refused', async () => {
      const { callback } = await untilCallback();
      const otherBrowser = new TestBrowser(ctx.app);
      const landed = await otherBrowser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(landed).reason).toBe('oauth_state_invalid');
    });
  });

  describe('PKCE', () => {
    it('is required by the provider: an authorization request without a challenge is refused', async () => {
      const authorize = new URL(`${google.issuer}/auth`);
      authorize.search = new URLSearchParams({
        client_id: CLIENT_ID,
        redirect_uri: callbackUri('google'),
        response_type: 'code',
        scope: 'openid email',
        state: 'some-state',
        nonce: 'some-nonce',
      }).toString();
      const response = await fetch(authorize, { redirect: 'manual' });
      const location = new URL(response.headers.get('location') ?? '', google.issuer);
      expect(location.href.startsWith(callbackUri('google'))).toBe(true);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    });

    it('binds the code to the verifier: with another verifier the exchange fails', async () => {
      google.setAccount(account());
      const browser = new TestBrowser(ctx.app);
      const callback = await browser.follow(
        '/api/v1/auth/oauth/google/start',
        (url) => url.origin === PUBLIC_URL && url.pathname.endsWith('/callback'),
      );
      await ctx.database.executeSql(`update oauth_states set code_verifier = $1 where provider = 'google'`, [
        'another-verifier-that-is-long-enough-0123456789abcdefghijk',
      ]);
      const landed = await browser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
      expect(reason(landed).reason).toBe('oauth_failed');
    });
  });

  it('says oauth_denied when the person cancels at the provider', async () => {
    google.setAccount(account());
    google.setDecision('deny');
    const landed = await new TestBrowser(ctx.app).signIn('google');
    expect(reason(landed)).toEqual({ path: '/auth/oauth/error', reason: 'oauth_denied', provider: 'google' });
  });

  describe('exchange', () => {
    async function codeFor() {
      google.setAccount(account());
      const browser = new TestBrowser(ctx.app);
      const landed = await browser.signIn('google');
      return { browser, code: landed.searchParams.get('code') ?? '' };
    }

    it('works once', async () => {
      const { browser, code } = await codeFor();
      expect((await browser.exchange(code)).status).toBe(200);
      const again = await browser.exchange(code);
      expect(again.status).toBe(400);
      expect(again.body.detail).toBe('oauth_failed');
    });

    it('expires after 60 seconds', async () => {
      const { browser, code } = await codeFor();
      ctx.advance(61_000);
      try {
        const late = await browser.exchange(code);
        expect(late.status).toBe(400);
        expect(late.body.detail).toBe('oauth_failed');
      } finally {
        ctx.advance(-61_000);
      }
    });

    it('works only in the browser that signed in', async () => {
      const { browser, code } = await codeFor();
      const elsewhere = await new TestBrowser(ctx.app).exchange(code);
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.detail).toBe('oauth_failed');
      // The attempt did not spend it.
      expect((await browser.exchange(code)).status).toBe(200);
    });

    it('refuses unknown codes and malformed bodies', async () => {
      const browser = new TestBrowser(ctx.app);
      expect((await browser.exchange('no-such-code')).body.detail).toBe('oauth_failed');
      const empty = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/oauth/exchange', payload: {} });
      expect(empty.statusCode).toBe(422);
    });

    it('refuses an account disabled between callback and exchange', async () => {
      const person = account();
      google.setAccount(person);
      const browser = new TestBrowser(ctx.app);
      const landed = await browser.signIn('google');
      const user = await ctx.users.findByEmail(person.email);
      await ctx.users.update(user?.id ?? '', { active: false });
      const response = await browser.exchange(landed.searchParams.get('code') ?? '');
      expect(response.status).toBe(403);
      expect(response.body.detail).toBe('account_disabled');
    });
  });

  it('sends disabled and unknown providers to the error page', async () => {
    for (const provider of ['github', 'myspace']) {
      for (const step of ['start', 'callback?code=x&state=y']) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/auth/oauth/${provider}/${step}`,
        });
        expect(response.statusCode).toBe(302);
        expect(response.headers.location).toBe(
          `/auth/oauth/error?reason=oauth_provider_disabled&provider=${provider}`,
        );
      }
    }
    const junk = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/oauth/%3Cscript%3E/start' });
    expect(junk.headers.location).toBe('/auth/oauth/error?reason=oauth_provider_disabled');
  });

  it('sends the browser to the error page when the provider cannot be reached', async () => {
    const closedPort = new URL(google.issuer);
    closedPort.port = '9';
    const unreachable = ctx.oauthWith({
      OAUTH_GOOGLE_CLIENT_ID: CLIENT_ID,
      OAUTH_GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      OAUTH_GOOGLE_ISSUER: closedPort.href,
    });
    const result = await unreachable.start('google', '/dashboard', 'a'.repeat(43));
    expect(result).toMatchObject({
      ok: false,
      reason: 'oauth_failed',
      location: '/auth/oauth/error?reason=oauth_failed&provider=google',
    });
  });

  it('returns only to same-site paths', async () => {
    const cases: Array<[string, string]> = [
      ['//evil.example', '/dashboard/services'],
      ['https://evil.example/dashboard', '/dashboard/services'],
      ['/\\evil.example', '/dashboard/services'],
      ['javascript:alert(1)', '/dashboard/services'],
      ['dashboard/billing', '/dashboard/services'],
      ['/dashboard/billing?page=2', '/dashboard/billing?page=2'],
    ];
    for (const [redirect, expected] of cases) {
      google.setAccount(account());
      const landed = await new TestBrowser(ctx.app).signIn('google', redirect);
      expect(landed.pathname, redirect).toBe('/auth/oauth/callback');
      expect(landed.searchParams.get('redirect'), redirect).toBe(expected);
    }
  });

  it('signs in with a provider that gives its claims only at the userinfo endpoint (Microsoft)', async () => {
    const person = account({ given_name: 'Eglė', family_name: 'Eglaitė' });
    microsoft.setAccount(person);
    const { tokens } = await signInAndExchange('microsoft');
    const user = await me(tokens.access_token);
    expect(user).toMatchObject({ email: person.email, first_name: 'Eglė', last_name: 'Eglaitė' });
    expect(await scalar('select method from login_history where user_id = $1', [user.id])).toBe(
      'oauth:microsoft',
    );
  });

  it('answers junk with a redirect or a 4xx error, never a 500', async () => {
    const toErrorPage = [
      '/api/v1/auth/oauth/google/callback?page=-1&skip=%FF&x[y][z]=1&state=%FF&state=b',
      '/api/v1/auth/oauth/google/callback?error=%FF&error_description=' + 'x'.repeat(5000),
      '/api/v1/auth/oauth/not-a-valid-id%00/start',
      '/api/v1/auth/oauth/not-a-valid-id%00/callback',
    ];
    for (const url of toErrorPage) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toMatch(/^\/auth\/oauth\/error\?reason=oauth_/);
    }
    // An unusable return path is ignored, not refused.
    const start = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/oauth/google/start?redirect=%FF&redirect=/a',
    });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toContain(google.issuer);
    for (const payload of ['{"code": ', 'null', '[1,2]', '{"code": 5}', `{"code": "${'x'.repeat(600)}"}`]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/oauth/exchange',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, payload).toBeLessThan(500);
      expect(response.json<{ detail: string }>().detail, payload).toBeTruthy();
    }
  });

  it('describes its routes in the OpenAPI document', () => {
    const document = ctx.app.swagger() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/auth/oauth/providers',
        '/api/v1/auth/oauth/{provider}/start',
        '/api/v1/auth/oauth/{provider}/callback',
        '/api/v1/auth/oauth/exchange',
      ]),
    );
  });
});
