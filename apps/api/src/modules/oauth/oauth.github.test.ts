// Sign-in with GitHub (plain OAuth 2.0 + its REST API) against a fake GitHub on 127.0.0.1 that
// checks client, redirect URI and PKCE the way GitHub does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@debesis/contract';
import {
  startFakeGitHub,
  type FakeGitHub,
  type FakeGitHubAccount,
} from '../../../../../scripts/lib/local-oidc-provider.ts';
import {
  callbackUri,
  CLIENT_ID,
  CLIENT_SECRET,
  createOAuthTestContext,
  PUBLIC_URL,
  TestBrowser,
  uniqueEmail,
  type OAuthTestContext,
} from './oauth.test-support.ts';

let nextId = 1000;
function githubAccount(overrides: Partial<FakeGitHubAccount> = {}): FakeGitHubAccount {
  nextId += 1;
  const email = uniqueEmail('github');
  return {
    id: nextId,
    login: `octo${nextId}`,
    name: 'Petras Petraitis',
    email: null,
    emails: [{ email, primary: true, verified: true }],
    ...overrides,
  };
}

describe('OAuth sign-in with GitHub', () => {
  let github: FakeGitHub;
  let ctx: OAuthTestContext;

  beforeAll(async () => {
    github = await startFakeGitHub({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [callbackUri('github')],
      account: githubAccount(),
    });
    ctx = await createOAuthTestContext({
      OAUTH_GITHUB_CLIENT_ID: CLIENT_ID,
      OAUTH_GITHUB_CLIENT_SECRET: CLIENT_SECRET,
      OAUTH_GITHUB_BASE_URL: github.baseUrl,
      OAUTH_GITHUB_API_URL: github.apiUrl,
    });
  });
  afterAll(async () => {
    await ctx.close();
    await github.stop();
  });
  beforeEach(() => {
    github.setDecision('consent');
  });

  async function signIn(): Promise<{ landed: URL; user?: User }> {
    const browser = new TestBrowser(ctx.app);
    const landed = await browser.signIn('github');
    if (landed.pathname !== '/auth/oauth/callback') return { landed };
    const exchange = await browser.exchange(landed.searchParams.get('code') ?? '');
    expect(exchange.status).toBe(200);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${exchange.body.access_token}` },
    });
    return { landed, user: me.json<User>() };
  }

  it('asks GitHub for the profile and addresses with state and an S256 challenge (no nonce)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/oauth/github/start' });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${github.baseUrl}/login/oauth/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: callbackUri('github'),
      scope: 'read:user user:email',
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeNull();
  });

  it('creates an account from the primary verified address, not the public profile address', async () => {
    const account = githubAccount({ email: 'public-profile@example.lt', name: 'Petras Petraitis' });
    github.setAccount(account);
    const { landed, user } = await signIn();
    expect(landed.origin).toBe(PUBLIC_URL);
    expect(user).toMatchObject({
      email: account.emails[0]?.email,
      first_name: 'Petras',
      last_name: 'Petraitis',
      email_verified: true,
      has_password: false,
    });
    const { rows } = await ctx.database.executeSql(
      'select provider, subject from oauth_identities where user_id = $1',
      [user?.id],
    );
    expect(rows).toEqual([{ provider: 'github', subject: String(account.id) }]);

    const again = await signIn();
    expect(again.user?.id).toBe(user?.id);
    expect(again.user?.login_count).toBe(2);
  });

  it('falls back to the login when GitHub has no name', async () => {
    const account = githubAccount({ name: null });
    github.setAccount(account);
    const { user } = await signIn();
    expect(user).toMatchObject({ first_name: account.login, last_name: '' });
  });

  it('refuses when the primary address is not verified, even with another verified one', async () => {
    github.setAccount(
      githubAccount({
        emails: [
          { email: uniqueEmail('primary'), primary: true, verified: false },
          { email: uniqueEmail('secondary'), primary: false, verified: true },
        ],
      }),
    );
    const { landed } = await signIn();
    expect(landed.pathname).toBe('/auth/oauth/error');
    expect(landed.searchParams.get('reason')).toBe('oauth_email_unverified');
    expect(landed.searchParams.get('provider')).toBe('github');
  });

  it('refuses when GitHub shares no address', async () => {
    github.setAccount(githubAccount({ emails: [] }));
    const { landed } = await signIn();
    expect(landed.searchParams.get('reason')).toBe('oauth_email_missing');
  });

  it('says oauth_denied when the person cancels', async () => {
    github.setAccount(githubAccount());
    github.setDecision('deny');
    const { landed } = await signIn();
    expect(landed.searchParams.get('reason')).toBe('oauth_denied');
  });

  it('fails the exchange when the PKCE verifier does not match', async () => {
    github.setAccount(githubAccount());
    const browser = new TestBrowser(ctx.app);
    const callback = await browser.follow(
      '/api/v1/auth/oauth/github/start',
      (url) => url.origin === PUBLIC_URL && url.pathname.endsWith('/callback'),
    );
    await ctx.database.executeSql(`update oauth_states set code_verifier = $1 where provider = 'github'`, [
      'another-verifier-that-is-long-enough-0123456789abcdefghijk',
    ]);
    const landed = await browser.follow(callback, (url) => url.pathname.startsWith('/auth/oauth/'));
    expect(landed.searchParams.get('reason')).toBe('oauth_failed');
  });
});
