// Trading the refresh token for new tokens (spec §4, §7). The server rotates the refresh token
// and treats a reused one as theft (it revokes the session), so there is never more than one
// refresh at a time: callers arriving while one runs share its outcome, and tabs take turns
// through a Web Lock, each checking first whether another tab has just done it.
import { isAxiosError, type AxiosInstance } from 'axios';
import { z } from 'zod';
import { getRefreshToken, storeTokens } from './session.ts';

export const REFRESH_PATH = '/api/v1/auth/refresh';

/**
 * - `refreshed`: new tokens are stored (by this call or by another tab meanwhile);
 * - `no_refresh_token`: nothing to refresh with;
 * - `rejected`: the server answered and refused (or answered without tokens);
 * - `unavailable`: no usable answer (see `refreshFailureOutcome`): the tokens are untouched.
 */
export type RefreshOutcome = 'refreshed' | 'no_refresh_token' | 'rejected' | 'unavailable';

/**
 * Statuses that say nothing about the refresh token: the request timed out (408), was throttled
 * (429) or met a server or proxy failure (5xx). The spec names only "no server response" as the
 * case to replay in; these count as that too, since ending a session because the server was
 * briefly unwell would sign people out for nothing. Every other 4xx is the server refusing the
 * token.
 */
export function isNoAnswerStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * What a failed refresh means. `status` is the HTTP status of the answer, or null when none came
 * (network failure, time-out, abort): null and the no-answer statuses are `unavailable`, the
 * rest `rejected`.
 */
export function refreshFailureOutcome(status: number | null): 'rejected' | 'unavailable' {
  return status === null || isNoAnswerStatus(status) ? 'unavailable' : 'rejected';
}

/** Spec §7: the answer carries access_token and optionally a new refresh_token. */
const refreshAnswerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
});

const LOCK_NAME = 'debesis:token-refresh';

let inFlight: Promise<RefreshOutcome> | null = null;
let refreshCount = 0;

/** How many refresh calls reached the server since start (tests and diagnostics). */
export function refreshCallCount(): number {
  return refreshCount;
}

export function refreshTokens(http: AxiosInstance): Promise<RefreshOutcome> {
  inFlight ??= refreshAcrossTabs(http).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function refreshAcrossTabs(http: AxiosInstance): Promise<RefreshOutcome> {
  const before = getRefreshToken();
  if (!before) return 'no_refresh_token';
  return withTabLock(async () => {
    // Another tab refreshed (or logged out) while this one waited for the lock.
    const now = getRefreshToken();
    if (now !== before) return now ? 'refreshed' : 'no_refresh_token';
    return refreshWith(http, before);
  });
}

/** Forgets a refresh in progress (tests start each case clean). */
export function resetRefreshState(): void {
  inFlight = null;
  refreshCount = 0;
}

function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return task();
  // The lock is held until the task's promise settles.
  return locks.request(LOCK_NAME, task) as Promise<T>;
}

async function refreshWith(http: AxiosInstance, refreshToken: string): Promise<RefreshOutcome> {
  refreshCount += 1;
  let data: unknown;
  try {
    const response = await http.post<unknown>(REFRESH_PATH, { refresh_token: refreshToken });
    data = response.data;
  } catch (error) {
    return refreshFailureOutcome(isAxiosError(error) && error.response ? error.response.status : null);
  }
  const tokens = refreshAnswerSchema.safeParse(data);
  if (!tokens.success) return 'rejected';
  await storeTokens({
    accessToken: tokens.data.access_token,
    refreshToken: tokens.data.refresh_token ?? refreshToken,
  });
  return 'refreshed';
}
