// Stand-ins for the OAuth providers, on 127.0.0.1, for tests and browser journeys:
// - `startLocalOidcProvider`: a real OpenID Provider (the `oidc-provider` package, the certified
//   implementation) with one confidential client, PKCE required, and one configurable account.
//   Its interactions sign that account in and consent at once (no form), so a browser or an HTTP
//   client that follows redirects completes the flow; it can also be told to refuse
//   (`access_denied`), as a person pressing "cancel" would.
// - `startFakeGitHub`: GitHub's OAuth endpoints and the two REST calls the API makes
//   (GET /user, GET /user/emails), checking client, redirect URI, state passing and PKCE the way
//   GitHub does.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { Adapter, AdapterPayload, Configuration, InteractionResults } from 'oidc-provider';

export interface LocalOidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

export interface LocalOidcProviderOptions {
  clientId: string;
  clientSecret: string;
  /**
   * Redirect URIs registered for the client. More can be added later with `allowRedirectUri`,
   * when the app's address is known only after the provider's (browser journeys).
   */
  redirectUris: string[];
  account: LocalOidcAccount;
  /** Port to listen on; default: any free one. */
  port?: number;
  /**
   * true (default): profile and email claims are in the ID token, as Google sends them. false:
   * only at the userinfo endpoint, as many providers do.
   */
  claimsInIdToken?: boolean;
}

export type InteractionDecision = 'consent' | 'deny';

export interface LocalOidcProvider {
  /** Issuer identifier, e.g. http://127.0.0.1:41234 (discovery at /.well-known/openid-configuration). */
  issuer: string;
  /** The account the next sign-in gets. */
  setAccount(account: LocalOidcAccount): void;
  /** 'consent' (default) signs in and consents; 'deny' answers `error=access_denied`. */
  setDecision(decision: InteractionDecision): void;
  /** Registers one more redirect URI (when the app's address is known only after the provider's). */
  allowRedirectUri(uri: string): void;
  stop(): Promise<void>;
}

/** The provider's artifacts (sessions, codes, grants), in memory, for one provider's life. */
function memoryAdapter(): new (name: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  return class MemoryAdapter implements Adapter {
    constructor(private readonly name: string) {}
    private key(id: string) {
      return `${this.name}:${id}`;
    }
    private live(key: string): AdapterPayload | undefined {
      const entry = store.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        store.delete(key);
        return undefined;
      }
      return entry.payload;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      store.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.live(this.key(id));
    }
    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return [...store.keys()].map((key) => this.live(key)).find((payload) => payload?.userCode === userCode);
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return [...store.keys()]
        .filter((key) => key.startsWith(`${this.name}:`))
        .map((key) => this.live(key))
        .find((payload) => payload?.uid === uid);
    }
    async consume(id: string): Promise<void> {
      const payload = this.live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startLocalOidcProvider(options: LocalOidcProviderOptions): Promise<LocalOidcProvider> {
  let account = options.account;
  let decision: InteractionDecision = 'consent';
  const extraRedirectUris = new Set<string>();

  // The listening port decides the issuer, which the provider needs at construction: listen
  // first, then route requests to the provider once it exists.
  let handle = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server, options.port ?? 0);
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'local-1' };

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        // oidc-provider wants at least one; a path of its own that nothing will ever redirect to.
        redirect_uris: options.redirectUris.length ? options.redirectUris : [`${issuer}/unregistered`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    // Every authorization request must carry an S256 code challenge.
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    findAccount: (_ctx, sub) =>
      sub === account.sub
        ? {
            accountId: sub,
            claims: () => {
              const { sub: subject, ...claims } = account;
              return { sub: subject, ...claims };
            },
          }
        : undefined,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    adapter: memoryAdapter(),
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    jwks: { keys: [signingKey] },
  };
  // Loaded here, so that importing this file for its constants (the browser journeys) does not.
  const { default: Provider } = await import('oidc-provider');
  const provider = new Provider(issuer, configuration);
  // Exact matching, as for any web client, over the registered URIs and those added later.
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(
    this: { redirectUris?: string[] },
    value: string,
  ) {
    return extraRedirectUris.has(value) || (this.redirectUris ?? []).includes(value);
  };

  /** Signs the configured account in and grants what the client asked for, without a form. */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    let result: InteractionResults;
    if (decision === 'deny') {
      result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
    } else if (details.prompt.name === 'login') {
      result = { login: { accountId: account.sub } };
    } else {
      const accountId = details.session?.accountId ?? account.sub;
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) throw new Error('grant not found');
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      result = { consent: { grantId: await grant.save() } };
    }
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  const providerCallback = provider.callback();
  handle = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : 'interaction failed');
      });
      return;
    }
    void providerCallback(req, res);
  };

  return {
    issuer,
    setAccount(next) {
      account = next;
    },
    setDecision(next) {
      decision = next;
    },
    allowRedirectUri(uri) {
      extraRedirectUris.add(uri);
    },
    stop: () => close(server),
  };
}

export interface FakeGitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: 'public' | 'private' | null;
}

export interface FakeGitHubAccount {
  id: number;
  login: string;
  name: string | null;
  /** The public profile address, which GitHub does not promise is verified. */
  email: string | null;
  emails: FakeGitHubEmail[];
}

export interface FakeGitHub {
  /** What OAUTH_GITHUB_BASE_URL should be (…/login/oauth/authorize, …/login/oauth/access_token). */
  baseUrl: string;
  /** What OAUTH_GITHUB_API_URL should be (…/user, …/user/emails). */
  apiUrl: string;
  setAccount(account: FakeGitHubAccount): void;
  setDecision(decision: InteractionDecision): void;
  stop(): Promise<void>;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  account: FakeGitHubAccount;
  expiresAt: number;
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    const json = JSON.parse(text || '{}') as Record<string, unknown>;
    return new URLSearchParams(
      Object.entries(json).map(([key, value]): [string, string] => [key, String(value)]),
    );
  }
  return new URLSearchParams(text);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function startFakeGitHub(options: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  account: FakeGitHubAccount;
  port?: number;
}): Promise<FakeGitHub> {
  let account = options.account;
  let decision: InteractionDecision = 'consent';
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, FakeGitHubAccount>();

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const params = url.searchParams;
      const redirectUri = params.get('redirect_uri') ?? '';
      if (params.get('client_id') !== options.clientId || !options.redirectUris.includes(redirectUri)) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('The redirect_uri is not associated');
        return;
      }
      const back = new URL(redirectUri);
      const state = params.get('state');
      if (state) back.searchParams.set('state', state);
      const challenge = params.get('code_challenge');
      if (decision === 'deny') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user has denied your application access.');
      } else if (!challenge || params.get('code_challenge_method') !== 'S256') {
        back.searchParams.set('error', 'invalid_request');
        back.searchParams.set('error_description', 'PKCE (S256) is required.');
      } else {
        const code = randomBytes(10).toString('hex');
        codes.set(code, {
          clientId: options.clientId,
          redirectUri,
          challenge,
          account,
          expiresAt: Date.now() + 10 * 60_000,
        });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.href }).end();
      return;
    }

    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const body = await readBody(req);
      const code = body.get('code') ?? '';
      const issued = codes.get(code);
      codes.delete(code);
      const verifier = body.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const valid =
        issued &&
        issued.expiresAt > Date.now() &&
        body.get('client_id') === issued.clientId &&
        body.get('client_secret') === options.clientSecret &&
        body.get('redirect_uri') === issued.redirectUri &&
        challenge === issued.challenge;
      if (!valid) {
        // GitHub answers a bad exchange with 200 and an error body.
        json(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
        return;
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, issued.account);
      json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      return;
    }

    if (req.method === 'GET' && (url.pathname === '/api/user' || url.pathname === '/api/user/emails')) {
      const header = req.headers.authorization ?? '';
      const owner = tokens.get(header.replace(/^(bearer|token) /i, ''));
      if (!owner) {
        json(res, 401, { message: 'Bad credentials' });
        return;
      }
      if (url.pathname === '/api/user') {
        json(res, 200, { id: owner.id, login: owner.login, name: owner.name, email: owner.email });
      } else {
        json(
          res,
          200,
          owner.emails.map((entry) => ({ visibility: null, ...entry })),
        );
      }
      return;
    }
    json(res, 404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { message: 'fake GitHub failed' });
      else res.end();
    });
  });
  const port = await listen(server, options.port ?? 0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    apiUrl: `${baseUrl}/api`,
    setAccount(next) {
      account = next;
    },
    setDecision(next) {
      decision = next;
    },
    stop: () => close(server),
  };
}

/** The client and the person of the browser journeys (e2e/oauth.e2e.ts asserts on them). */
export const E2E_OIDC_CLIENT = {
  clientId: 'debesis-e2e',
  clientSecret: 'debesis-e2e-client-secret-0123456789',
};
export const E2E_OIDC_ACCOUNT: LocalOidcAccount = {
  sub: 'e2e-google-person-1',
  email: 'rasa.e2e@example.lt',
  email_verified: true,
  given_name: 'Rasa',
  family_name: 'Rasaitė',
  name: 'Rasa Rasaitė',
};

/**
 * For the browser journeys' global setup: starts the stand-in for Google, and says what the
 * product's environment needs. Once the product runs, `registerProduct(product.url)` registers
 * its callback; the product's PUBLIC_URL must be that same URL, since redirect URIs derive from it.
 */
export async function startE2eGoogle(): Promise<{
  provider: LocalOidcProvider;
  env: Record<string, string>;
  registerProduct(productUrl: string): void;
}> {
  const provider = await startLocalOidcProvider({
    ...E2E_OIDC_CLIENT,
    redirectUris: [],
    account: E2E_OIDC_ACCOUNT,
  });
  return {
    provider,
    env: {
      OAUTH_GOOGLE_CLIENT_ID: E2E_OIDC_CLIENT.clientId,
      OAUTH_GOOGLE_CLIENT_SECRET: E2E_OIDC_CLIENT.clientSecret,
      OAUTH_GOOGLE_ISSUER: provider.issuer,
    },
    registerProduct(productUrl) {
      provider.allowRedirectUri(`${productUrl.replace(/\/+$/, '')}/api/v1/auth/oauth/google/callback`);
    },
  };
}
