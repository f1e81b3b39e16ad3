// Accounts and sessions: registration, email verification, sign-in, refresh with rotation and
// reuse detection, sign-out, password reset. Tokens are issued only here (OAuth sign-in comes
// through `startSession`), so every way in obeys the same rules.
import type { Language, LoginResponse, RegisterResponse } from '@debesis/contract';
import type { registerRequestSchema } from '@debesis/contract';
import type { z } from 'zod';
import { AppError, unauthorized } from '../../http/app-error.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import {
  guessLimits,
  LIMITS,
  SIGN_IN_GUESSES,
  subjectFromSource,
  type RateLimiter,
} from '../rate-limits/rate-limits.service.ts';
import { assertVatNumber } from '../vies/vat-number.ts';
import { presentUser } from '../users/users.presenter.ts';
import type { UsersQueries, UserWithSettings } from '../users/users.queries.ts';
import { companyFromDetails } from '../users/users.service.ts';
import { createAccountService } from './account.service.ts';
import { createAuthLinks } from './auth.links.ts';
import { authMessage } from './auth.messages.ts';
import type { ActiveSession, AuthQueries, EmailTokenPurpose } from './auth.queries.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  ACCESS_TOKEN_TTL_S,
  hashOpaqueToken,
  newOpaqueToken,
  REFRESH_TOKEN_TTL_MS,
  type AccessClaims,
  type AccessTokens,
} from './tokens.ts';

/** An address the account signed in from within this long is the owner's own (guessLimits). */
const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export interface ClientMeta {
  ip: string | null;
  userAgent: string | null;
  language: Language;
}

export interface Authenticated {
  userId: string;
  sessionId: string;
  emailVerified: boolean;
  /**
   * The account as read with the session, in the same query: a route showing it needs no
   * second read (undefined when its settings row is missing; read it then).
   */
  account?: UserWithSettings | undefined;
}

type ParsedRegistration = z.output<typeof registerRequestSchema>;

export interface AuthDependencies {
  users: Pick<UsersQueries, 'findByEmail' | 'findById' | 'create' | 'update' | 'recordLogin'>;
  queries: AuthQueries;
  tokens: AccessTokens;
  limiter: RateLimiter;
  activity: Pick<ActivityService, 'record'>;
  /** Queues a mail for delivery (the worker sends it). */
  sendMail: (message: MailMessage) => Promise<void>;
  /** Queues the `auth.password-reset` job, which looks the address up and mails the link. */
  queuePasswordReset: (email: string) => Promise<void>;
  publicUrl: string;
  now?: () => Date;
}

export function createAuthService(deps: AuthDependencies) {
  const now = deps.now ?? (() => new Date());
  const { mailLink } = createAuthLinks(deps);

  async function issueTokens(sessionId: string, userId: string): Promise<LoginResponse> {
    const refreshToken = newOpaqueToken();
    await deps.queries.insertRefreshToken({
      sessionId,
      tokenHash: hashOpaqueToken(refreshToken),
      expiresAt: new Date(now().getTime() + REFRESH_TOKEN_TTL_MS),
    });
    return {
      access_token: await deps.tokens.sign({ userId, sessionId }),
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
    };
  }

  /** Opens a session for a user who has proven who they are, and records the sign-in. */
  async function startSession(
    user: UserWithSettings,
    method: string,
    meta: ClientMeta,
  ): Promise<LoginResponse> {
    const at = now();
    const session = await deps.queries.createSession({
      userId: user.id,
      method,
      ip: meta.ip,
      userAgent: meta.userAgent,
      now: at,
    });
    await deps.users.recordLogin(user.id, at);
    await deps.queries.insertLogin({ userId: user.id, method, ip: meta.ip, userAgent: meta.userAgent, at });
    await deps.activity.record({
      accountId: user.id,
      action: 'user logged in',
      tone: 'info',
      ip: meta.ip,
      details: { method },
    });
    return issueTokens(session.id, user.id);
  }

  /** Finds a live, unused link token, or refuses with the purpose's error. */
  async function useEmailToken(token: string, purpose: EmailTokenPurpose) {
    const invalid = new AppError(
      purpose === 'verify_email' ? 'verification_link_invalid' : 'reset_link_invalid',
    );
    const row = await deps.queries.findEmailToken(hashOpaqueToken(token), purpose);
    if (!row) throw invalid;
    return { row, invalid };
  }

  /**
   * What a well-signed, unexpired access token claims, or 401. Not yet a caller: the session it
   * names must still stand (admitSession), as read by authenticate or by a route's own statement
   * (http/access.ts, `sessionReadByRoute`).
   */
  async function claimsOf(accessToken: string): Promise<AccessClaims> {
    const claims = accessToken ? await deps.tokens.verify(accessToken) : null;
    if (!claims) throw unauthorized();
    return claims;
  }

  return {
    startSession,
    /** Password, email and sessions from Settings (account.service.ts). */
    account: createAccountService({ ...deps, now }),

    async register(
      input: ParsedRegistration,
      meta: ClientMeta,
    ): Promise<RegisterResponse & { created: boolean }> {
      const company = input.accountType === 'business' ? input.business_details : undefined;
      assertVatNumber(company?.vat_number, company?.country, 'business_details.vat_number');
      await deps.limiter.take([[LIMITS.registrationsPerIp, meta.ip ?? 'unknown']]);
      const email = input.email.toLowerCase();
      const existing = await deps.users.findByEmail(email);
      if (existing?.emailVerified) {
        throw new AppError('email_registered', { extra: { action: 'login' } });
      }
      // Each registration mails a link; the per-address limit stops anyone from flooding a
      // stranger's inbox by registering their address again and again.
      const mailLimits: Array<[(typeof LIMITS)[keyof typeof LIMITS], string]> = [
        [LIMITS.verificationPerAccount, email],
        [LIMITS.verificationPerIp, meta.ip ?? 'unknown'],
      ];
      if (existing) await deps.limiter.take(mailLimits);
      const business = input.accountType === 'business' && input.business_details;
      const profile = {
        firstName: input.firstName,
        lastName: input.lastName,
        accountType: business ? ('business' as const) : ('personal' as const),
        country: input.country,
        phone: input.phone ?? null,
        address: input.address ?? null,
        company: business ? companyFromDetails(business) : null,
      };

      let user: UserWithSettings;
      if (existing) {
        // Registered before but never verified: the details are updated and a fresh link goes
        // out (the spec's "registration is retried"). Whoever registered before may not own the
        // address, and neither may this caller, so nothing of either outlives the proof: the
        // account's sessions end, and a password other than the one already given is not kept.
        // Two people may be claiming the address; the one who opens the link then chooses a
        // password through a mailed reset link (see `verifyEmail`).
        const samePassword = await verifyPassword(existing.passwordHash, input.password);
        await deps.users.update(existing.id, {
          ...profile,
          passwordHash: samePassword ? existing.passwordHash : null,
        });
        await deps.queries.revokeAllSessions(existing.id, 'registered_again', now());
        user = (await deps.users.findById(existing.id)) ?? existing;
      } else {
        user = await deps.users.create(
          { email, ...profile, passwordHash: await hashPassword(input.password) },
          meta.language,
        );
        await deps.activity.record({
          accountId: user.id,
          action: 'account created',
          tone: 'success',
          ip: meta.ip,
          details: { account_type: profile.accountType },
        });
      }
      await mailLink(user, 'verify_email');
      // No session before the address is proven: one given now would belong to whoever
      // registered, and would become the owner's account the moment the owner verified.
      return { user: presentUser(user), token: null, created: !existing };
    },

    async verifyEmail(token: string, meta: ClientMeta): Promise<{ message: string }> {
      const { row, invalid } = await useEmailToken(token, 'verify_email');
      const user = await deps.users.findById(row.userId);
      if (!user) throw invalid;
      // A second click on a link that already worked is not an error for the person.
      if (row.usedAt) {
        if (user.emailVerified) return { message: authMessage('email_already_verified', meta.language) };
        throw invalid;
      }
      if (row.expiresAt <= now()) throw invalid;
      const at = now();
      if (!(await deps.queries.markEmailTokenUsed(row.id, at))) throw invalid;
      await deps.users.update(user.id, { emailVerified: true, emailVerifiedAt: at });
      // Every session of the account began before its address was proven, so none is the
      // owner's to keep (registration opens none; older versions did). Other links die too.
      await deps.queries.revokeAllSessions(user.id, 'email_verified', at);
      await deps.queries.expireEmailTokens(user.id, 'verify_email', at);
      await deps.activity.record({
        accountId: user.id,
        action: 'email verified',
        tone: 'success',
        ip: meta.ip,
      });
      if (user.passwordHash === null) {
        // Registered more than once with different passwords: the owner, who holds the mailbox,
        // chooses one now.
        await mailLink(user, 'reset_password');
        return { message: authMessage('email_verified_choose_password', meta.language) };
      }
      return { message: authMessage('email_verified', meta.language) };
    },

    async resendVerification(email: string, meta: ClientMeta): Promise<{ message: string }> {
      const subject = email.toLowerCase();
      const limits: Array<[(typeof LIMITS)[keyof typeof LIMITS], string]> = [
        [LIMITS.verificationPerAccount, subject],
        [LIMITS.verificationPerIp, meta.ip ?? 'unknown'],
      ];
      await deps.limiter.take(limits);
      const user = await deps.users.findByEmail(subject);
      if (user && !user.emailVerified && user.active) await mailLink(user, 'verify_email');
      return { message: authMessage('verification_sent', meta.language) };
    },

    async login(username: string, password: string, meta: ClientMeta): Promise<LoginResponse> {
      const email = username.trim().toLowerCase();
      const user = await deps.users.findByEmail(email);
      const knownSource =
        user !== undefined &&
        meta.ip !== null &&
        (await deps.queries.signedInFrom(user.id, meta.ip, new Date(now().getTime() - KNOWN_ADDRESS_MS)));
      // Every attempt counts as a failure from the start, in the same step as the check, so that
      // attempts arriving together cannot all find the limit unused; a right password takes its
      // count back.
      const attempt = await deps.limiter.take(guessLimits(SIGN_IN_GUESSES, email, meta.ip, { knownSource }));

      const passwordOk = await verifyPassword(user?.passwordHash, password);
      if (!user || !passwordOk) throw new AppError('invalid_credentials');
      await deps.limiter.release(attempt);
      // Only someone who knows the password learns the account's state.
      if (!user.active) throw new AppError('account_disabled');
      if (!user.emailVerified) throw new AppError('email_not_verified', { extra: { email: user.email } });
      await deps.limiter.clear(LIMITS.loginFailuresPerAccountAndIp, subjectFromSource(email, meta.ip));
      return startSession(user, 'password', meta);
    },

    async refresh(refreshToken: string): Promise<LoginResponse> {
      const found = await deps.queries.findRefreshToken(hashOpaqueToken(refreshToken));
      const invalid = new AppError('invalid_refresh_token');
      if (!found || found.session.revokedAt) throw invalid;
      const at = now();
      if (found.token.usedAt || !(await deps.queries.markRefreshTokenUsed(found.token.id, at))) {
        // A used token came back: someone holds a copy. End the whole family.
        await deps.queries.revokeSession(found.session.id, 'refresh_token_reuse', at);
        await deps.activity.record({
          accountId: found.session.userId,
          action: 'session revoked: a used refresh token was presented again',
          tone: 'warning',
          details: { session_id: found.session.id },
        });
        throw invalid;
      }
      if (found.token.expiresAt <= at) throw invalid;
      const user = await deps.users.findById(found.session.userId);
      if (!user?.active) {
        await deps.queries.revokeSession(found.session.id, 'account_disabled', at);
        throw invalid;
      }
      await deps.queries.touchSession(found.session.id, at);
      return issueTokens(found.session.id, user.id);
    },

    async logout(sessionId: string, meta: ClientMeta): Promise<{ message: string }> {
      await deps.queries.revokeSession(sessionId, 'logout', now());
      return { message: authMessage('signed_out', meta.language) };
    },

    async requestPasswordReset(email: string, meta: ClientMeta): Promise<{ message: string }> {
      const subject = email.toLowerCase();
      const limits: Array<[(typeof LIMITS)[keyof typeof LIMITS], string]> = [
        [LIMITS.passwordResetPerAccount, subject],
        [LIMITS.passwordResetPerIp, meta.ip ?? 'unknown'],
      ];
      await deps.limiter.take(limits);
      // The same work whether or not the address has an account: the lookup and the mail happen
      // in the job, so the answer's timing says nothing (it took 9.7 ms for an account and
      // 6.3 ms without, when this looked the account up and mailed the link itself).
      await deps.queuePasswordReset(subject);
      return { message: authMessage('reset_sent', meta.language) };
    },

    async resetPassword(token: string, password: string, meta: ClientMeta): Promise<LoginResponse> {
      const { row, invalid } = await useEmailToken(token, 'reset_password');
      const at = now();
      if (row.usedAt || row.expiresAt <= at) throw invalid;
      const user = await deps.users.findById(row.userId);
      if (!user?.active) throw invalid;
      if (!(await deps.queries.markEmailTokenUsed(row.id, at))) throw invalid;
      // The mail reached its owner, so the address is proven too.
      await deps.users.update(user.id, {
        passwordHash: await hashPassword(password),
        ...(user.emailVerified ? {} : { emailVerified: true, emailVerifiedAt: at }),
      });
      await deps.queries.revokeAllSessions(user.id, 'password_reset', at);
      // An email change asked for with the old password dies with it.
      await deps.queries.expireEmailTokens(user.id, 'change_email', at);
      await deps.activity.record({
        accountId: user.id,
        action: 'password changed',
        tone: 'info',
        ip: meta.ip,
      });
      return startSession(user, 'password_reset', meta);
    },

    /**
     * The user behind a bearer access token, or 401. `withAccount`: read the account with the
     * session, for a route that shows it (Authenticated.account).
     */
    async authenticate(accessToken: string, options: { withAccount?: boolean } = {}): Promise<Authenticated> {
      const claims = await claimsOf(accessToken);
      return admitSession(claims, await deps.queries.findActiveSession(claims.sessionId, options));
    },

    claims: claimsOf,
  };
}

/**
 * The caller a token's claims make with the session as read now, or 401: the session must exist,
 * be the token's, not be revoked, and its account be active. Every signed-in request passes here.
 */
export function admitSession(claims: AccessClaims, session: ActiveSession | undefined): Authenticated {
  if (!session || session.revokedAt || !session.active || session.userId !== claims.userId) {
    throw unauthorized();
  }
  return {
    userId: session.userId,
    sessionId: session.sessionId,
    emailVerified: session.emailVerified,
    account: session.account,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
