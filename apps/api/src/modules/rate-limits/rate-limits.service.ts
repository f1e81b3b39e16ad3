// Counting limits kept in PostgreSQL, so every API process sees the same counts (an in-memory
// limiter would give each process its own allowance). A limit is a number of events per window
// for one subject (an email, an IP address); going over answers 429 `too_many_attempts` with
// Retry-After.
//
// `take` counts and decides under a lock, so requests arriving together cannot all see the
// same "one left" and all pass (17 failed sign-ins got through a limit of 5 that way).
import { MANUAL_SNAPSHOT_INTERVAL_SECONDS, type ErrorCode } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import type { RateLimitCounter, RateLimitQueries } from './rate-limits.queries.ts';

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
  /** The 429's code when this limit is the one used up (too_many_attempts unless said). */
  refusal?: ErrorCode;
}

/** Every limit of the product in one place. */
export const LIMITS = {
  // Guesses at a secret (a password, a 2FA code): see `guessLimits`. The tight limit is per
  // account AND address; the account's own is a ceiling ten times higher.
  loginFailuresPerAccountAndIp: { bucket: 'login-failure:account-ip', max: 5, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { bucket: 'login-failure:account', max: 50, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { bucket: 'login-failure:ip', max: 20, windowMs: 15 * 60_000 },
  passwordResetPerAccount: { bucket: 'password-reset:account', max: 3, windowMs: 60 * 60_000 },
  passwordResetPerIp: { bucket: 'password-reset:ip', max: 10, windowMs: 60 * 60_000 },
  verificationPerAccount: { bucket: 'verification:account', max: 3, windowMs: 60 * 60_000 },
  verificationPerIp: { bucket: 'verification:ip', max: 10, windowMs: 60 * 60_000 },
  // Settings: a wrong current password (change password or email), and links to a new address.
  passwordCheckFailuresPerAccount: { bucket: 'password-check:account', max: 5, windowMs: 15 * 60_000 },
  emailChangePerAccount: { bucket: 'email-change:account', max: 3, windowMs: 60 * 60_000 },
  // Every registration from one address counts, whatever it answers: `email_registered` (the
  // spec's answer for a verified address) would otherwise tell a script which addresses have
  // accounts, as fast as it could ask. Generous enough for an office behind one address.
  registrationsPerIp: {
    bucket: 'registration:ip',
    max: 20,
    windowMs: 60 * 60_000,
    refusal: 'too_many_registrations',
  },
  contactPerIp: { bucket: 'contact:ip', max: 5, windowMs: 60 * 60_000 },
  contactPerEmail: { bucket: 'contact:email', max: 3, windowMs: 60 * 60_000 },
  // A visitor clicking through the whole site sends a few events a minute; a script, many more.
  analyticsPerIp: { bucket: 'analytics:ip', max: 60, windowMs: 60_000 },
  // A share link's password: guessed at from many addresses, or from one at many links.
  sharePasswordFailuresPerLinkAndIp: { bucket: 'share-password:link-ip', max: 10, windowMs: 15 * 60_000 },
  sharePasswordFailuresPerLink: { bucket: 'share-password:link', max: 100, windowMs: 15 * 60_000 },
  sharePasswordFailuresPerIp: { bucket: 'share-password:ip', max: 20, windowMs: 15 * 60_000 },
  // A VPN config link's token: random and used once, so guessing is all a flood could be.
  vpnConfigLinkPerIp: { bucket: 'vpn-config-link:ip', max: 30, windowMs: 60_000 },
  // A snapshot on demand (issue 37): one a minute per service; the schedule takes the rest.
  manualSnapshotPerService: {
    bucket: 'snapshot:service',
    max: 1,
    windowMs: MANUAL_SNAPSHOT_INTERVAL_SECONDS * 1000,
    refusal: 'snapshot_too_soon',
  },
} as const satisfies Record<string, Limit>;

/** The three limits on guesses at one kind of secret. */
export interface GuessLimits {
  /** Failures at one account from one address: the tight limit, which locks out only that address. */
  perSubjectAndSource: Limit;
  /** Failures at one account from anywhere: a ceiling a guesser spread over many addresses meets. */
  perSubject: Limit;
  /** Failures from one address at any accounts. */
  perSource: Limit;
}

export const SIGN_IN_GUESSES: GuessLimits = {
  perSubjectAndSource: LIMITS.loginFailuresPerAccountAndIp,
  perSubject: LIMITS.loginFailuresPerAccount,
  perSource: LIMITS.loginFailuresPerIp,
};

export const SHARE_PASSWORD_GUESSES: GuessLimits = {
  perSubjectAndSource: LIMITS.sharePasswordFailuresPerLinkAndIp,
  perSubject: LIMITS.sharePasswordFailuresPerLink,
  perSource: LIMITS.sharePasswordFailuresPerIp,
};

/** The subject of `perSubjectAndSource`: forgiven (cleared) when that address gets in. */
export function subjectFromSource(subject: string, source: string | null): string {
  return `${subject} from ${source ?? 'unknown'}`;
}

/**
 * What one guess at `subject`'s secret from `source` counts against (OWASP ASVS 2.2.1). A count
 * per account alone let five wrong passwords from anywhere lock the owner out for 15 minutes,
 * right password or not; counted per account and address, a guesser locks out only the address
 * it guesses from. The account's ceiling still slows a guesser spread over many addresses; an
 * address the account has signed in from before (`knownSource`) is not held by it, so even
 * then the owner gets in from home.
 */
export function guessLimits(
  limits: GuessLimits,
  subject: string,
  source: string | null,
  options: { knownSource?: boolean } = {},
): Array<[Limit, string]> {
  const address = source ?? 'unknown';
  return [
    [limits.perSubjectAndSource, subjectFromSource(subject, source)],
    ...(options.knownSource ? [] : [[limits.perSubject, subject] as [Limit, string]]),
    [limits.perSource, address],
  ];
}

/** What `take` counted, so that it can be taken back. */
export interface TakenEvents {
  ids: number[];
}

/** Events older than this are pruned; longer than the longest window. */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

export function createRateLimiter(deps: { queries: RateLimitQueries; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function retryAfterSeconds(
    limit: Limit,
    subject: string,
    counter: RateLimitCounter = deps.queries,
  ): Promise<number | null> {
    const at = now();
    const stats = await counter.windowStats(limit.bucket, subject, new Date(at.getTime() - limit.windowMs));
    if (stats.count < limit.max || !stats.oldest) return null;
    return Math.max(1, Math.ceil((stats.oldest.getTime() + limit.windowMs - at.getTime()) / 1000));
  }

  function tooMany(retryAfter: number, limit?: Limit): AppError {
    return new AppError(limit?.refusal ?? 'too_many_attempts', {
      headers: { 'retry-after': String(retryAfter) },
      extra: { retry_after: retryAfter },
    });
  }

  return {
    /**
     * Counts one event against each limit, or throws 429 (counting nothing) when any is used up:
     * checked and recorded as one step, so concurrent callers are counted one after another.
     * The answer names the events, for `release` when the attempt turns out not to count (a
     * sign-in that succeeds is no failure).
     */
    async take(checks: Array<[Limit, string]>): Promise<TakenEvents> {
      const keys = checks.map(([limit, subject]) => ({ bucket: limit.bucket, subject }));
      type Decision = { ids: number[]; retryAfter: null } | { ids: null; retryAfter: number; limit: Limit };
      const taken = await deps.queries.whileLocked(keys, async (counter): Promise<Decision> => {
        for (const [limit, subject] of checks) {
          const retryAfter = await retryAfterSeconds(limit, subject, counter);
          if (retryAfter !== null) return { ids: null, retryAfter, limit };
        }
        const at = now();
        const ids: number[] = [];
        for (const [limit, subject] of checks) ids.push(await counter.insert(limit.bucket, subject, at));
        return { ids, retryAfter: null };
      });
      if (taken.ids === null) throw tooMany(taken.retryAfter, taken.limit);
      return { ids: taken.ids };
    },
    /** Takes back the events `take` counted. */
    async release(taken: TakenEvents): Promise<void> {
      await deps.queries.deleteEvents(taken.ids);
    },
    /**
     * Throws 429 when any of the limits is used up for its subject. With `record` after it, two
     * requests at once can both pass: where that matters, use `take`.
     */
    async assertAllowed(checks: Array<[Limit, string]>): Promise<void> {
      for (const [limit, subject] of checks) {
        const retryAfter = await retryAfterSeconds(limit, subject);
        if (retryAfter !== null) throw tooMany(retryAfter, limit);
      }
    },
    async record(checks: Array<[Limit, string]>): Promise<void> {
      const at = now();
      for (const [limit, subject] of checks) await deps.queries.insert(limit.bucket, subject, at);
    },
    async clear(limit: Limit, subject: string): Promise<void> {
      await deps.queries.clear(limit.bucket, subject);
    },
    async prune(): Promise<void> {
      await deps.queries.pruneBefore(new Date(now().getTime() - RATE_LIMIT_RETENTION_MS));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
