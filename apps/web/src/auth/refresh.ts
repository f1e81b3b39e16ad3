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
 * - `unavailable`: no usable answer (network, time-out, 5xx, 429): the tokens are untouched.
 */
export type RefreshOutcome = 'refreshed' | 'no_refresh_token' | 'rejected' | 'unavailable';

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

function isRejection(status: number): boolean {
  // A 4xx is the server refusing this refresh token; 408 and 429 are about timing, not the token.
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

async function refreshWith(http: AxiosInstance, refreshToken: string): Promise<RefreshOutcome> {
  refreshCount += 1;
  let data: unknown;
  try {
    const response = await http.post<unknown>(REFRESH_PATH, { refresh_token: refreshToken });
    data = response.data;
  } catch (error) {
    if (isAxiosError(error) && error.response) {
      return isRejection(error.response.status) ? 'rejected' : 'unavailable';
    }
    return 'unavailable';
  }
  const tokens = refreshAnswerSchema.safeParse(data);
  if (!tokens.success) return 'rejected';
  await storeTokens({
    accessToken: tokens.data.access_token,
    refreshToken: tokens.data.refresh_token ?? refreshToken,
  });
  return 'refreshed';
}
