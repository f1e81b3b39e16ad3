// Counting limits kept in PostgreSQL, so every API process sees the same counts (an in-memory
// limiter would give each process its own allowance). A limit is a number of events per window
// for one subject (an email, an IP address); going over answers 429 `too_many_attempts` with
// Retry-After.
import { AppError } from '../../http/app-error.ts';
import type { RateLimitQueries } from './rate-limits.queries.ts';

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

/** Every limit of the product in one place. */
export const LIMITS = {
  loginFailuresPerAccount: { bucket: 'login-failure:account', max: 5, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { bucket: 'login-failure:ip', max: 20, windowMs: 15 * 60_000 },
  passwordResetPerAccount: { bucket: 'password-reset:account', max: 3, windowMs: 60 * 60_000 },
  passwordResetPerIp: { bucket: 'password-reset:ip', max: 10, windowMs: 60 * 60_000 },
  verificationPerAccount: { bucket: 'verification:account', max: 3, windowMs: 60 * 60_000 },
  verificationPerIp: { bucket: 'verification:ip', max: 10, windowMs: 60 * 60_000 },
  contactPerIp: { bucket: 'contact:ip', max: 5, windowMs: 60 * 60_000 },
  contactPerEmail: { bucket: 'contact:email', max: 3, windowMs: 60 * 60_000 },
  // A visitor clicking through the whole site sends a few events a minute; a script, many more.
  analyticsPerIp: { bucket: 'analytics:ip', max: 60, windowMs: 60_000 },
} as const satisfies Record<string, Limit>;

/** Events older than this are pruned; longer than the longest window. */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

export function createRateLimiter(deps: { queries: RateLimitQueries; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function retryAfterSeconds(limit: Limit, subject: string): Promise<number | null> {
    const at = now();
    const stats = await deps.queries.windowStats(
      limit.bucket,
      subject,
      new Date(at.getTime() - limit.windowMs),
    );
    if (stats.count < limit.max || !stats.oldest) return null;
    return Math.max(1, Math.ceil((stats.oldest.getTime() + limit.windowMs - at.getTime()) / 1000));
  }

  return {
    /** Throws 429 when any of the limits is used up for its subject. */
    async assertAllowed(checks: Array<[Limit, string]>): Promise<void> {
      for (const [limit, subject] of checks) {
        const retryAfter = await retryAfterSeconds(limit, subject);
        if (retryAfter !== null) {
          throw new AppError('too_many_attempts', {
            headers: { 'retry-after': String(retryAfter) },
            extra: { retry_after: retryAfter },
          });
        }
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
