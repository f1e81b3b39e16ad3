// Sign-in with Google, GitHub and Microsoft. Owns the flow around the protocol: the single-use
// state (with the PKCE verifier and nonce) kept between start and callback, the choice of account
// for a provider identity (linked identity → same verified email → new account), and the
// one-time code the web app trades for tokens. Tokens come from the auth service's
// `startSession`, so an OAuth sign-in obeys the same rules and leaves the same history as any
// other. Browser redirects carry only stable reason codes, never tokens or provider messages.
import * as client from 'openid-client';
import type { LoginResponse, OAuthProvider } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { AuthQueries } from '../auth/auth.queries.ts';
import type { AuthService, ClientMeta } from '../auth/auth.service.ts';
import { hashOpaqueToken, newOpaqueToken } from '../auth/tokens.ts';
import type { UsersQueries, UserWithSettings } from '../users/users.queries.ts';
import type { OAuthQueries } from './oauth.queries.ts';
import type { OAuthIdentity, OAuthProviderRegistry } from './oauth.providers.ts';

export const STATE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_TTL_MS = 60_000;
export const DEFAULT_REDIRECT = '/dashboard/services';
/** Where the web app shows a failed sign-in, and where it finishes a good one. */
export const ERROR_PAGE = '/auth/oauth/error';
export const CALLBACK_PAGE = '/auth/oauth/callback';
/** Mounted by app.ts under /api/v1 with this prefix; the provider sends the browser back here. */
export const ROUTE_PREFIX = '/auth/oauth';

/** Stable codes the error page receives in `reason`; each has a text in the contract catalogue. */
export type OAuthFailureReason =
  | 'oauth_failed'
  | 'oauth_denied'
  | 'oauth_state_invalid'
  | 'oauth_email_unverified'
  | 'oauth_email_missing'
  | 'oauth_provider_disabled'
  | 'account_disabled';

/** Where to send the browser; a failure also says why, for the log. */
export type OAuthRedirect =
  | { ok: true; location: string }
  | { ok: false; location: string; reason: OAuthFailureReason; provider: string; cause?: unknown };

class OAuthFailure extends Error {
  constructor(
    readonly reason: OAuthFailureReason,
    /** What went wrong underneath, for the log only. */
    readonly source?: unknown,
  ) {
    super(reason);
  }
}

/**
 * The path to return to after signing in: a same-site path ("/…"), never "//host" or "/\host"
 * (which browsers treat as another site), never a URL; anything else gives the default.
 */
export function safeRedirectPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 1024) return DEFAULT_REDIRECT;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!value.startsWith('/') || /^\/[/\\]|[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_REDIRECT;
  const base = 'http://debesis.invalid';
  const parsed = new URL(value, base);
  if (parsed.origin !== base) return DEFAULT_REDIRECT;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** First and last name from the provider, with fallbacks, since our users always have both. */
export function namesFrom(identity: Pick<OAuthIdentity, 'givenName' | 'familyName' | 'name'>, email: string) {
  const parts = identity.name?.split(/\s+/).filter(Boolean) ?? [];
  const firstName = identity.givenName ?? parts[0] ?? email.split('@')[0] ?? email;
  const lastName = identity.familyName ?? parts.slice(1).join(' ');
  return { firstName: firstName.slice(0, 100), lastName: lastName.slice(0, 100) };
}

function errorLocation(reason: OAuthFailureReason, provider: string): string {
  const params = new URLSearchParams({ reason });
  // Only a plausible id is echoed; the page shows it as text, but junk has no reason to travel.
  if (/^[a-z0-9-]{1,32}$/.test(provider)) params.set('provider', provider);
  return `${ERROR_PAGE}?${params.toString()}`;
}

export interface OAuthDependencies {
  queries: OAuthQueries;
  providers: OAuthProviderRegistry;
  users: Pick<UsersQueries, 'findByEmail' | 'findById' | 'create' | 'update'>;
  /** Ends the sessions of an account whose address was never proven (see `linkByEmail`). */
  sessions: Pick<AuthQueries, 'revokeAllSessions'>;
  auth: Pick<AuthService, 'startSession'>;
  activity: Pick<ActivityService, 'record'>;
  /** The API's public base URL; redirect URIs registered at the providers derive from it. */
  publicUrl: string;
  now?: () => Date;
}

export function createOAuthService(deps: OAuthDependencies) {
  const now = deps.now ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');

  /** The redirect URI to register at each provider. */
  function redirectUri(provider: OAuthProvider): string {
    return `${publicUrl}/api/v1${ROUTE_PREFIX}/${provider}/callback`;
  }

  async function linkIdentity(
    provider: OAuthProvider,
    identity: OAuthIdentity & { email: string },
    user: UserWithSettings,
    meta: ClientMeta,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await deps.queries.insertIdentity({
      provider,
      subject: identity.subject,
      userId: user.id,
      email: identity.email,
      createdAt: now(),
    });
    await deps.activity.record({
      accountId: user.id,
      action: 'OAuth identity linked',
      tone: 'success',
      ip: meta.ip,
      details: { provider, email: identity.email, ...extra },
    });
  }

  /**
   * An account already holds the provider's (verified) address. If we never verified it
   * ourselves, whoever registered it may not own it (someone can register a victim's address
   * first and wait): the provider has now proven the owner, so the address becomes verified,
   * the unproven password is removed (the owner can set one by a reset) and its sessions end.
   */
  async function linkByEmail(
    provider: OAuthProvider,
    identity: OAuthIdentity & { email: string },
    existing: UserWithSettings,
    meta: ClientMeta,
  ): Promise<UserWithSettings> {
    if (!existing.active) throw new OAuthFailure('account_disabled');
    const at = now();
    const unproven = !existing.emailVerified;
    if (unproven) {
      await deps.users.update(existing.id, { emailVerified: true, emailVerifiedAt: at, passwordHash: null });
      await deps.sessions.revokeAllSessions(existing.id, 'email_proven_by_oauth', at);
    }
    await linkIdentity(
      provider,
      identity,
      existing,
      meta,
      unproven ? { email_verified_by_provider: true, password_removed: existing.passwordHash !== null } : {},
    );
    return (await deps.users.findById(existing.id)) ?? existing;
  }

  /** The account a provider identity signs in to: linked, linked now by verified email, or new. */
  async function resolveUser(
    provider: OAuthProvider,
    identity: OAuthIdentity,
    meta: ClientMeta,
  ): Promise<UserWithSettings> {
    const linked = await deps.queries.findIdentity(provider, identity.subject);
    const linkedUser = linked ? await deps.users.findById(linked.userId) : undefined;
    if (linkedUser) {
      if (!linkedUser.active) throw new OAuthFailure('account_disabled');
      return linkedUser;
    }

    if (!identity.email) throw new OAuthFailure('oauth_email_missing');
    if (!identity.emailVerified) throw new OAuthFailure('oauth_email_unverified');
    const verified = { ...identity, email: identity.email };

    const existing = await deps.users.findByEmail(verified.email);
    if (existing) return linkByEmail(provider, verified, existing, meta);

    const at = now();
    const user = await deps.users.create(
      {
        email: verified.email,
        passwordHash: null,
        ...namesFrom(identity, verified.email),
        emailVerified: true,
        emailVerifiedAt: at,
      },
      meta.language,
    );
    await deps.activity.record({
      accountId: user.id,
      action: 'account created',
      tone: 'success',
      ip: meta.ip,
      details: { account_type: user.accountType, method: `oauth:${provider}` },
    });
    await linkIdentity(provider, verified, user, meta);
    return user;
  }

  return {
    redirectUri,

    providers() {
      return { providers: deps.providers.list() };
    },

    /**
     * Begins a sign-in: remembers state, PKCE verifier, nonce and where to return, bound to this
     * browser (`binding` is the value of its binding cookie), and sends it to the provider.
     */
    async start(providerId: string, redirect: unknown, binding: string): Promise<OAuthRedirect> {
      const provider = deps.providers.get(providerId);
      if (!provider) {
        const reason = 'oauth_provider_disabled';
        return { ok: false, location: errorLocation(reason, providerId), reason, provider: providerId };
      }
      try {
        const at = now();
        await deps.queries.deleteExpiredStates(at);
        const state = client.randomState();
        const codeVerifier = client.randomPKCECodeVerifier();
        const nonce = provider.usesNonce ? client.randomNonce() : null;
        const url = await provider.authorizationUrl({
          redirectUri: redirectUri(provider.id),
          state,
          codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier),
          nonce,
        });
        await deps.queries.insertState({
          stateHash: hashOpaqueToken(state),
          provider: provider.id,
          codeVerifier,
          nonce,
          redirectPath: safeRedirectPath(redirect),
          bindingHash: hashOpaqueToken(binding),
          expiresAt: new Date(at.getTime() + STATE_TTL_MS),
          createdAt: at,
        });
        return { ok: true, location: url.href };
      } catch (cause) {
        const reason = 'oauth_failed';
        return {
          ok: false,
          location: errorLocation(reason, provider.id),
          reason,
          provider: provider.id,
          cause,
        };
      }
    },

    /**
     * Finishes a sign-in when the provider sends the browser back. `query` is the callback's raw
     * query string, passed on untouched to the protocol checks. On success the browser goes to
     * the web app's callback page with a one-time code; on failure to its error page.
     */
    async callback(
      providerId: string,
      query: string,
      binding: string | undefined,
      meta: ClientMeta,
    ): Promise<OAuthRedirect> {
      const provider = deps.providers.get(providerId);
      if (!provider) {
        const reason = 'oauth_provider_disabled';
        return { ok: false, location: errorLocation(reason, providerId), reason, provider: providerId };
      }
      try {
        const params = new URLSearchParams(query);
        const state = params.get('state');
        const at = now();
        const row = state ? await deps.queries.takeState(hashOpaqueToken(state)) : undefined;
        if (
          !state ||
          !row ||
          row.provider !== provider.id ||
          row.expiresAt <= at ||
          !binding ||
          hashOpaqueToken(binding) !== row.bindingHash
        ) {
          throw new OAuthFailure('oauth_state_invalid');
        }
        const error = params.get('error');
        if (error) {
          throw new OAuthFailure(error === 'access_denied' ? 'oauth_denied' : 'oauth_failed', {
            error,
            error_description: params.get('error_description')?.slice(0, 300),
          });
        }

        let identity: OAuthIdentity;
        try {
          identity = await provider.identify({
            callbackUrl: new URL(`${redirectUri(provider.id)}?${query}`),
            expectedState: state,
            codeVerifier: row.codeVerifier,
            nonce: row.nonce,
          });
        } catch (cause) {
          throw new OAuthFailure('oauth_failed', cause);
        }

        const user = await resolveUser(provider.id, identity, meta);
        await deps.queries.deleteSpentLoginCodes(at);
        const code = newOpaqueToken();
        await deps.queries.insertLoginCode({
          codeHash: hashOpaqueToken(code),
          userId: user.id,
          provider: provider.id,
          bindingHash: row.bindingHash,
          expiresAt: new Date(now().getTime() + LOGIN_CODE_TTL_MS),
          createdAt: now(),
        });
        const next = new URLSearchParams({ code, redirect: row.redirectPath });
        return { ok: true, location: `${CALLBACK_PAGE}?${next.toString()}` };
      } catch (caught) {
        const failure = caught instanceof OAuthFailure ? caught : new OAuthFailure('oauth_failed', caught);
        return {
          ok: false,
          location: errorLocation(failure.reason, provider.id),
          reason: failure.reason,
          provider: provider.id,
          cause: failure.source,
        };
      }
    },

    /** Trades a one-time code from the callback (in the browser that started) for tokens. */
    async exchange(code: string, binding: string | undefined, meta: ClientMeta): Promise<LoginResponse> {
      if (!binding) throw new AppError('oauth_failed');
      const used = await deps.queries.useLoginCode(hashOpaqueToken(code), hashOpaqueToken(binding), now());
      if (!used) throw new AppError('oauth_failed');
      const user = await deps.users.findById(used.userId);
      if (!user) throw new AppError('oauth_failed');
      if (!user.active) throw new AppError('account_disabled');
      return deps.auth.startSession(user, `oauth:${used.provider}`, meta);
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
