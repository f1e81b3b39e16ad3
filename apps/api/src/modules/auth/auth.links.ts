// Mailed single-use links: email verification and password reset. The API mails verification
// links itself; reset links are mailed by the `auth.password-reset` job, so that asking for one
// does the same work whether or not the address has an account (see `requestPasswordReset`).
import type { MailMessage } from '../../mail/mailer.ts';
import type { UsersQueries, UserWithSettings } from '../users/users.queries.ts';
import { passwordResetMail, verificationMail } from './auth.mail.ts';
import type { AuthQueries, EmailTokenPurpose } from './auth.queries.ts';
import { hashOpaqueToken, newOpaqueToken, RESET_PASSWORD_TTL_MS, VERIFY_EMAIL_TTL_MS } from './tokens.ts';

export interface AuthLinkDependencies {
  users: Pick<UsersQueries, 'findByEmail'>;
  queries: Pick<AuthQueries, 'expireEmailTokens' | 'insertEmailToken'>;
  /** Queues a mail for delivery (the worker sends it). */
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  now?: () => Date;
}

export function createAuthLinks(deps: AuthLinkDependencies) {
  const now = deps.now ?? (() => new Date());

  /** Mails a new link; it replaces the older links of the same purpose. */
  async function mailLink(user: UserWithSettings, purpose: EmailTokenPurpose): Promise<void> {
    const at = now();
    await deps.queries.expireEmailTokens(user.id, purpose, at);
    const token = newOpaqueToken();
    const ttl = purpose === 'verify_email' ? VERIFY_EMAIL_TTL_MS : RESET_PASSWORD_TTL_MS;
    const tokenId = await deps.queries.insertEmailToken({
      userId: user.id,
      purpose,
      tokenHash: hashOpaqueToken(token),
      expiresAt: new Date(at.getTime() + ttl),
    });
    const page = purpose === 'verify_email' ? 'verify-email' : 'reset-password';
    const mail = {
      id: `${purpose}-${tokenId}`,
      to: user.email,
      firstName: user.firstName,
      link: `${deps.publicUrl}/auth/${page}?token=${encodeURIComponent(token)}`,
      language: user.settings.language,
    };
    await deps.sendMail(purpose === 'verify_email' ? verificationMail(mail) : passwordResetMail(mail));
  }

  return {
    mailLink,
    /**
     * The `auth.password-reset` job: a reset link for the active account of `email`, if any.
     * Run twice, it mails a second link that replaces the first: harmless.
     */
    async mailPasswordReset(email: string): Promise<void> {
      const user = await deps.users.findByEmail(email);
      if (user?.active) await mailLink(user, 'reset_password');
    },
  };
}

export type AuthLinks = ReturnType<typeof createAuthLinks>;
