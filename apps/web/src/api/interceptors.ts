// What every request carries (spec §7), and what happens when a session expires (spec §4).
import { CLIENT_TIMING, CSRF_HEADER, LANGUAGE_HEADER } from '@debesis/contract';
import { isAxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { sleep } from '../auth/clock.ts';
import { loginNavigation } from '../auth/navigation.ts';
import { refreshTokens } from '../auth/refresh.ts';
import { clearTokens, getAccessToken } from '../auth/session.ts';
import { currentLanguage } from '../i18n/language.ts';
import { bearerOverride, isOwnerToken } from './bearer.ts';
import { ensureCsrfToken } from './csrf.ts';

const UNSAFE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The request time-out (spec §9: 10 s) as an abort signal rather than axios' `timeout`: a signal
 * behaves the same in every adapter (XHR, fetch) and in the test server, which ignores XHR's own
 * time-out. `toApiError` recognises the TimeoutError reason and reports `timeout`.
 */
export function installDeadline(http: AxiosInstance, timeoutMs: number): void {
  http.interceptors.request.use(
    (config: InternalAxiosRequestConfig & { callerSignal?: AbortSignal | null }) => {
      const deadline = AbortSignal.timeout(timeoutMs);
      // A replayed request (after a refresh) gets a fresh deadline, still bound to its caller.
      config.callerSignal ??= (config.signal as AbortSignal | undefined) ?? null;
      const own = config.callerSignal;
      config.signal = own ? AbortSignal.any([own, deadline]) : deadline;
      return config;
    },
  );
}

export function installRequestHeaders(http: AxiosInstance): void {
  http.interceptors.request.use(async (config) => {
    const token = bearerOverride() ?? getAccessToken();
    if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
    config.headers.set(LANGUAGE_HEADER, currentLanguage());
    if (UNSAFE_METHODS.has((config.method ?? 'get').toLowerCase())) {
      config.headers.set(CSRF_HEADER, await ensureCsrfToken(http));
    }
    return config;
  });
}

/** The request config as the session handler sees it: how often this request was replayed. */
interface SessionRequestConfig extends InternalAxiosRequestConfig {
  sessionReplays?: number;
}

/** Spec §4, §9: one refresh per request, so one replay; a request is never replayed twice. */
export const MAX_SESSION_REPLAYS = 1;

/**
 * Spec §4: login, register and refresh never trigger a refresh (nor logout, which ends it); nor
 * the Linux-user portal's sign-in, whose refusal is the portal's, not the owner's session's.
 */
const EXCLUDED_PATHS = [
  '/auth/login',
  '/auth/register',
  '/auth/refresh',
  '/auth/logout',
  '/auth/linux-user/login',
];

function isExcluded(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0] ?? '';
  return EXCLUDED_PATHS.some((excluded) => path.endsWith(excluded));
}

function bearerSent(config: InternalAxiosRequestConfig): string | null {
  const header = config.headers.get('Authorization');
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/** Ends a session the server no longer accepts: tokens cleared, login page (spec §4, §8). */
async function endSession(): Promise<void> {
  const toLogin = loginNavigation();
  await clearTokens();
  toLogin();
}

/**
 * The refresh-and-replay rule (spec §4, §8, §9), all of it:
 *
 * 1. A 401 to an authenticated call (one that carried a bearer token) gets one refresh; login,
 *    register, refresh and logout are excluded and their 401 goes to the caller.
 * 2. The refresh's answer decides (refresh.ts):
 *    - new tokens: the request is replayed with them;
 *    - no refresh token stored, a refusal (any 4xx but 408 and 429) or an answer without tokens:
 *      the spec's failure: session cleared, login page, the 401 to the caller;
 *    - no answer: a network failure, a time-out, 408, 429 or any 5xx (`refreshFailureOutcome`):
 *      the tokens are kept and the request is replayed as it was.
 * 3. A request is replayed at most once (MAX_SESSION_REPLAYS), CLIENT_TIMING.replayDelayMs after
 *    the refresh. Whatever the replay gets is the caller's answer; a replay refused with 401 again
 *    is the spec's failure (session cleared, login page), never a second refresh or replay.
 * 4. Concurrent 401s share one refresh, and a request that left before a refresh finished is
 *    replayed with the new token without refreshing again (still once).
 */
export function installSessionRefresh(http: AxiosInstance): void {
  http.interceptors.response.use(undefined, async (error: unknown) => {
    if (!isAxiosError(error) || error.response?.status !== 401 || !error.config) throw error;
    const config: SessionRequestConfig = error.config;
    const sentToken = bearerSent(config);
    // A subuser's or a Linux user's token has no refresh: its area handles the 401 itself.
    if (sentToken === null || !isOwnerToken(sentToken) || isExcluded(config.url)) throw error;
    const replays = config.sessionReplays ?? 0;
    if (replays >= MAX_SESSION_REPLAYS) {
      await endSession();
      throw error;
    }
    config.sessionReplays = replays + 1;

    const current = getAccessToken();
    const refreshedMeanwhile = current !== null && current !== sentToken;
    if (!refreshedMeanwhile) {
      const outcome = await refreshTokens(http);
      if (outcome === 'no_refresh_token' || outcome === 'rejected') {
        await endSession();
        throw error;
      }
    }
    await sleep(CLIENT_TIMING.replayDelayMs);
    // The header interceptor puts whatever token is stored now.
    config.headers.delete('Authorization');
    return http.request(config);
  });
}
