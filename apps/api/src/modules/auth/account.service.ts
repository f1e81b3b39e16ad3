// Self-service on an owner's credentials and sign-ins, from Settings: change the password (the
// current one required; every other session ends), change the email address (the new address
// is set only when the link mailed to it is opened; the old address is told), list the live
// sessions and end any one of them. Nothing here can move an account to another person without
// both the password and the new mailbox.
import type {
  AccountSession,
  ChangeEmailRequest,
  ChangeEmailResponse,
  ChangePasswordRequest,
  ConfirmEmailChangeResponse,
  Language,
} from '@debesis/contract';
import { EMAIL_CHANGE_LINK_TTL_HOURS, isUuid } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import { sqlStateOf } from '../../http/error-handler.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { UsersQueries, UserWithSettings } from '../users/users.queries.ts';
import {
  emailChangedMail,
  emailChangeMail,
  emailChangeRequestedMail,
  passwordChangedMail,
} from './auth.mail.ts';
import { accountMessage } from './auth.messages.ts';
import type { AuthQueries } from './auth.queries.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashOpaqueToken, newOpaqueToken, REFRESH_TOKEN_TTL_MS } from './tokens.ts';
import { describeUserAgent } from './user-agent.ts';

export const EMAIL_CHANGE_TTL_MS = EMAIL_CHANGE_LINK_TTL_HOURS * 60 * 60_000;

export interface AccountDependencies {
  users: Pick<UsersQueries, 'findByEmail' | 'findById' | 'update'>;
  queries: Pick<
    AuthQueries,
    | 'expireEmailTokens'
    | 'findEmailToken'
    | 'insertEmailToken'
    | 'listLiveSessions'
    | 'markEmailTokenUsed'
    | 'revokeOtherSessions'
    | 'revokeSessionOf'
  >;
  limiter: RateLimiter;
  activity: Pick<ActivityService, 'record'>;
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  now?: () => Date;
}

/** Who is asking: the signed-in owner, the session they ask from, and where from. */
export interface AccountCaller {
  userId: string;
  sessionId: string;
  ip: string | null;
  language: Language;
}

export function createAccountService(deps: AccountDependencies) {
  const now = deps.now ?? (() => new Date());
  const contactUrl = `${deps.publicUrl}/contact`;

  async function owner(userId: string): Promise<UserWithSettings> {
    const user = await deps.users.findById(userId);
    if (!user?.active) throw new AppError('unauthorized');
    return user;
  }

  /**
   * The current password proves that the person at the keyboard is the owner, not someone who
   * found a signed-in browser. Wrong guesses count like failed sign-ins (5 in 15 minutes), and
   * a guess counts before it is checked, so parallel guesses cannot all slip in.
   */
  async function checkCurrentPassword(user: UserWithSettings, password: string): Promise<void> {
    if (user.passwordHash === null) throw new AppError('password_not_set');
    const attempt = await deps.limiter.take([[LIMITS.passwordCheckFailuresPerAccount, user.id]]);
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new AppError('invalid_current_password', {
        fieldErrors: [{ field: 'current_password', code: 'invalid_current_password' }],
      });
    }
    await deps.limiter.release(attempt);
  }

  return {
    async changePassword(caller: AccountCaller, input: ChangePasswordRequest): Promise<{ message: string }> {
      const user = await owner(caller.userId);
      await checkCurrentPassword(user, input.current_password);
      const at = now();
      await deps.users.update(user.id, { passwordHash: await hashPassword(input.new_password) });
      // Whoever else held a session (or a link) got it with the old password: all of it ends.
      const ended = await deps.queries.revokeOtherSessions(user.id, caller.sessionId, 'password_changed', at);
      await deps.queries.expireEmailTokens(user.id, 'reset_password', at);
      await deps.queries.expireEmailTokens(user.id, 'change_email', at);
      await deps.activity.record({
        accountId: user.id,
        action: 'password changed',
        tone: 'info',
        ip: caller.ip,
        details: { sessions_ended: ended },
      });
      await deps.sendMail(
        passwordChangedMail({
          id: `password-changed-${user.id}-${at.getTime()}`,
          to: user.email,
          firstName: user.firstName,
          language: user.settings.language,
          contactUrl,
        }),
      );
      return { message: accountMessage('password_changed', caller.language) };
    },

    async requestEmailChange(caller: AccountCaller, input: ChangeEmailRequest): Promise<ChangeEmailResponse> {
      const user = await owner(caller.userId);
      const newEmail = input.new_email.toLowerCase();
      if (newEmail === user.email) {
        throw new AppError('same_email', { fieldErrors: [{ field: 'new_email', code: 'same_email' }] });
      }
      await checkCurrentPassword(user, input.current_password);
      // Registration already says whether an address has an account, so saying it here tells
      // nobody anything new; waiting for a link that can never work would.
      if (await deps.users.findByEmail(newEmail)) {
        throw new AppError('email_taken', { fieldErrors: [{ field: 'new_email', code: 'email_taken' }] });
      }
      await deps.limiter.take([[LIMITS.emailChangePerAccount, user.id]]);
      const at = now();
      // One pending change at a time: a newer request replaces the older link.
      await deps.queries.expireEmailTokens(user.id, 'change_email', at);
      const token = newOpaqueToken();
      const expiresAt = new Date(at.getTime() + EMAIL_CHANGE_TTL_MS);
      const tokenId = await deps.queries.insertEmailToken({
        userId: user.id,
        purpose: 'change_email',
        tokenHash: hashOpaqueToken(token),
        expiresAt,
        newEmail,
      });
      await deps.sendMail(
        emailChangeMail({
          id: `change_email-${tokenId}`,
          to: newEmail,
          firstName: user.firstName,
          link: `${deps.publicUrl}/auth/confirm-email?token=${encodeURIComponent(token)}`,
          language: user.settings.language,
        }),
      );
      await deps.sendMail(
        emailChangeRequestedMail({
          id: `change_email-requested-${tokenId}`,
          to: user.email,
          firstName: user.firstName,
          language: user.settings.language,
          contactUrl,
          newEmail,
        }),
      );
      await deps.activity.record({
        accountId: user.id,
        action: 'email change requested',
        tone: 'info',
        ip: caller.ip,
        details: { new_email: newEmail },
      });
      return {
        message: accountMessage('email_change_sent', caller.language, { email: newEmail }),
        new_email: newEmail,
        expires_at: expiresAt.toISOString(),
      };
    },

    /**
     * Opening the link proves the new mailbox; the password was proven when it was asked for.
     * No session is needed (the link may be opened on a phone). Single-use, expiring, and
     * refused when the address has meanwhile got an account of its own.
     */
    async confirmEmailChange(
      token: string,
      meta: { ip: string | null; language: Language },
    ): Promise<ConfirmEmailChangeResponse> {
      const invalid = new AppError('email_change_link_invalid');
      const row = await deps.queries.findEmailToken(hashOpaqueToken(token), 'change_email');
      const at = now();
      if (!row?.newEmail || row.usedAt || row.expiresAt <= at) throw invalid;
      const user = await deps.users.findById(row.userId);
      if (!user?.active) throw invalid;
      const taken = new AppError('email_taken');
      if (await deps.users.findByEmail(row.newEmail)) throw taken;
      if (!(await deps.queries.markEmailTokenUsed(row.id, at))) throw invalid;
      const oldEmail = user.email;
      try {
        // The new address is proven by this very link, so the account stays verified.
        await deps.users.update(user.id, { email: row.newEmail, emailVerified: true, emailVerifiedAt: at });
      } catch (error) {
        // Registered a moment ago by someone else: the unique index decides.
        if (sqlStateOf(error) === '23505') throw taken;
        throw error;
      }
      // Links mailed to the old address no longer belong to the account's mailbox.
      await deps.queries.expireEmailTokens(user.id, 'reset_password', at);
      await deps.queries.expireEmailTokens(user.id, 'verify_email', at);
      await deps.activity.record({
        accountId: user.id,
        action: 'email changed',
        tone: 'info',
        ip: meta.ip,
        details: { new_email: row.newEmail },
      });
      await deps.sendMail(
        emailChangedMail({
          id: `email-changed-${row.id}`,
          to: oldEmail,
          firstName: user.firstName,
          language: user.settings.language,
          contactUrl,
          newEmail: row.newEmail,
        }),
      );
      return {
        message: accountMessage('email_changed', meta.language, { email: row.newEmail }),
        email: row.newEmail,
      };
    },

    /** The account's live sessions, the caller's own marked. */
    async listSessions(caller: Pick<AccountCaller, 'userId' | 'sessionId'>): Promise<AccountSession[]> {
      const usedSince = new Date(now().getTime() - REFRESH_TOKEN_TTL_MS);
      const rows = await deps.queries.listLiveSessions(caller.userId, usedSince);
      return rows.map((row) => ({
        id: row.id,
        current: row.id === caller.sessionId,
        method: row.method,
        ip: row.ip,
        user_agent: row.userAgent,
        ...describeUserAgent(row.userAgent),
        created_at: row.createdAt.toISOString(),
        last_used_at: row.lastUsedAt.toISOString(),
      }));
    },

    /**
     * Ends one session of the caller's account at once: its next request is refused (every
     * request looks its session up) and its refresh token no longer works. Another account's
     * session, or one already ended, is not found.
     */
    async endSession(caller: AccountCaller, sessionId: string): Promise<{ message: string }> {
      const ended =
        isUuid(sessionId) &&
        (await deps.queries.revokeSessionOf(caller.userId, sessionId, 'signed_out_from_settings', now()));
      if (!ended) throw new AppError('session_not_found');
      await deps.activity.record({
        accountId: caller.userId,
        action: 'session signed out',
        tone: 'info',
        ip: caller.ip,
        details: { session_id: sessionId },
      });
      return { message: accountMessage('session_ended', caller.language) };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
