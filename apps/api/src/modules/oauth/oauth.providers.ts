// The protocol side of OAuth sign-in, through openid-client: building the authorization URL and
// turning a callback into a verified identity. Google and Microsoft are OpenID Connect (ID token
// checked for issuer, audience, expiry, signature and nonce); GitHub is plain OAuth 2.0, whose
// identity comes from its REST API. Every provider uses `state` and PKCE (S256).
import * as client from 'openid-client';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@debesis/contract';
import { isLoopbackHttp, type OAuthEnvironment } from './oauth.config.ts';

/** Who the provider says signed in. `emailVerified` is the provider's word, per its own rules. */
export interface OAuthIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string | null;
}

export interface CallbackChecks {
  /** The callback URL as the provider sent the browser to it (redirect URI + query). */
  callbackUrl: URL;
  expectedState: string;
  codeVerifier: string;
  nonce: string | null;
}

export interface OAuthProviderClient {
  id: OAuthProvider;
  name: string;
  /** OpenID Connect providers get a nonce and return an ID token; GitHub does not. */
  usesNonce: boolean;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /** Trades the code (with the PKCE verifier) for tokens and reads the identity; throws on any failure. */
  identify(checks: CallbackChecks): Promise<OAuthIdentity>;
}

export interface OAuthProviderRegistry {
  /** The client of an enabled provider; undefined for disabled or unknown ids. */
  get(id: string): OAuthProviderClient | undefined;
  list(): Array<{ id: OAuthProvider; name: string; enabled: boolean }>;
}

const NAMES: Record<OAuthProvider, string> = { google: 'Google', github: 'GitHub', microsoft: 'Microsoft' };

/** Seconds any single call to a provider may take. */
const TIMEOUT_S = 10;

/**
 * The tenant of personal Microsoft accounts (outlook.com, hotmail.com…). Microsoft itself owns
 * and verifies those addresses; for work and school tenants see `microsoftEmailVerified`.
 */
const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

function stringClaim(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function execute(url: string): Array<(config: client.Configuration) => void> {
  return isLoopbackHttp(url) ? [client.allowInsecureRequests] : [];
}

/**
 * Microsoft sends no `email_verified`, and a work or school tenant's admin can set any address
 * on a user. An address counts as verified only for personal accounts, or when the tenant proves
 * it owns the address's domain (the `xms_edov` optional claim, which the app registration must
 * request), or when a provider that sends `email_verified` (a local test provider) says so.
 */
export function microsoftEmailVerified(claims: Record<string, unknown>): boolean {
  return isTrue(claims.email_verified) || isTrue(claims.xms_edov) || claims.tid === MICROSOFT_CONSUMER_TENANT;
}

function oidcProvider(options: {
  id: 'google' | 'microsoft';
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailVerified: (claims: Record<string, unknown>) => boolean;
}): OAuthProviderClient {
  // Discovered once and kept; a failed discovery is tried again on the next sign-in.
  let configuration: Promise<client.Configuration> | undefined;
  function configure(): Promise<client.Configuration> {
    configuration ??= client
      .discovery(new URL(options.issuer), options.clientId, options.clientSecret, undefined, {
        execute: execute(options.issuer),
        timeout: TIMEOUT_S,
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  }

  return {
    id: options.id,
    name: NAMES[options.id],
    usesNonce: true,

    async authorizationUrl(request) {
      const config = await configure();
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state: request.state,
        nonce: request.nonce ?? '',
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
      });
    },

    async identify(checks) {
      const config = await configure();
      if (!checks.nonce) throw new Error('an OpenID Connect sign-in needs its nonce');
      const tokens = await client.authorizationCodeGrant(config, checks.callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.expectedState,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('the provider returned no ID token');
      let claims: Record<string, unknown> = { ...idToken };
      // Some providers put the profile in the ID token (Google), others only at the userinfo
      // endpoint; the ID token wins where both speak, since only it is signed.
      if (!stringClaim(claims.email) && config.serverMetadata().userinfo_endpoint) {
        const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
        claims = { ...userinfo, ...claims };
      }
      const email = stringClaim(claims.email);
      return {
        subject: idToken.sub,
        email: email?.toLowerCase() ?? null,
        emailVerified: email !== null && options.emailVerified(claims),
        givenName: stringClaim(claims.given_name),
        familyName: stringClaim(claims.family_name),
        name: stringClaim(claims.name),
      };
    },
  };
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

function githubProvider(options: {
  baseUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}): OAuthProviderClient {
  const config = new client.Configuration(
    {
      issuer: options.baseUrl,
      authorization_endpoint: `${options.baseUrl}/login/oauth/authorize`,
      token_endpoint: `${options.baseUrl}/login/oauth/access_token`,
    },
    options.clientId,
    options.clientSecret,
  );
  config.timeout = TIMEOUT_S;
  for (const step of new Set([...execute(options.baseUrl), ...execute(options.apiUrl)])) step(config);

  async function api<T>(accessToken: string, path: string): Promise<T> {
    const response = await client.fetchProtectedResource(
      config,
      accessToken,
      new URL(`${options.apiUrl}${path}`),
      'GET',
      undefined,
      new Headers({
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'Debesis',
      }),
    );
    if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  return {
    id: 'github',
    name: NAMES.github,
    usesNonce: false,

    async authorizationUrl(request) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: 'read:user user:email',
        state: request.state,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        allow_signup: 'true',
      });
    },

    async identify(checks) {
      const tokens = await client.authorizationCodeGrant(config, checks.callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.expectedState,
      });
      const user = await api<{ id?: unknown; login?: unknown; name?: unknown }>(tokens.access_token, '/user');
      if (typeof user.id !== 'number' && typeof user.id !== 'string') {
        throw new Error('GitHub returned a user without an id');
      }
      // The profile's public `email` may be any address the user typed; only /user/emails says
      // which address is primary and whether GitHub verified it.
      const emails = await api<GitHubEmail[]>(tokens.access_token, '/user/emails');
      const list = Array.isArray(emails) ? emails : [];
      const primary = list.find((entry) => entry.primary);
      const email = stringClaim(primary?.email);
      const name = stringClaim(user.name) ?? stringClaim(user.login);
      return {
        subject: String(user.id),
        email: email?.toLowerCase() ?? null,
        emailVerified: email !== null && primary?.verified === true,
        givenName: null,
        familyName: null,
        name,
      };
    },
  };
}

/** The three providers as configured; those without a client id and secret are disabled. */
export function createOAuthProviders(env: OAuthEnvironment): OAuthProviderRegistry {
  const clients = new Map<OAuthProvider, OAuthProviderClient>();
  if (env.OAUTH_GOOGLE_CLIENT_ID && env.OAUTH_GOOGLE_CLIENT_SECRET) {
    clients.set(
      'google',
      oidcProvider({
        id: 'google',
        issuer: env.OAUTH_GOOGLE_ISSUER,
        clientId: env.OAUTH_GOOGLE_CLIENT_ID,
        clientSecret: env.OAUTH_GOOGLE_CLIENT_SECRET,
        emailVerified: (claims) => isTrue(claims.email_verified),
      }),
    );
  }
  if (env.OAUTH_GITHUB_CLIENT_ID && env.OAUTH_GITHUB_CLIENT_SECRET) {
    clients.set(
      'github',
      githubProvider({
        baseUrl: env.OAUTH_GITHUB_BASE_URL,
        apiUrl: env.OAUTH_GITHUB_API_URL,
        clientId: env.OAUTH_GITHUB_CLIENT_ID,
        clientSecret: env.OAUTH_GITHUB_CLIENT_SECRET,
      }),
    );
  }
  if (env.OAUTH_MICROSOFT_CLIENT_ID && env.OAUTH_MICROSOFT_CLIENT_SECRET) {
    clients.set(
      'microsoft',
      oidcProvider({
        id: 'microsoft',
        issuer: env.OAUTH_MICROSOFT_ISSUER,
        clientId: env.OAUTH_MICROSOFT_CLIENT_ID,
        clientSecret: env.OAUTH_MICROSOFT_CLIENT_SECRET,
        emailVerified: microsoftEmailVerified,
      }),
    );
  }
  return {
    get: (id) => clients.get(id as OAuthProvider),
    list: () => OAUTH_PROVIDERS.map((id) => ({ id, name: NAMES[id], enabled: clients.has(id) })),
  };
}
