// What every request carries (spec §7), and what happens when a session expires (spec §4).
import { CLIENT_TIMING, CSRF_HEADER, LANGUAGE_HEADER } from '@debesis/contract';
import { isAxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { sleep } from '../auth/clock.ts';
import { loginNavigation } from '../auth/navigation.ts';
import { refreshTokens } from '../auth/refresh.ts';
import { clearTokens, getAccessToken } from '../auth/session.ts';
import { currentLanguage } from '../i18n/language.ts';
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
    const token = getAccessToken();
    if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
    config.headers.set(LANGUAGE_HEADER, currentLanguage());
    if (UNSAFE_METHODS.has((config.method ?? 'get').toLowerCase())) {
      config.headers.set(CSRF_HEADER, await ensureCsrfToken(http));
    }
    return config;
  });
}

/** The request config as the session handler sees it: whether this request already had its refresh. */
interface SessionRequestConfig extends InternalAxiosRequestConfig {
  sessionRetried?: boolean;
}

/** Spec §4: login, register and refresh never trigger a refresh (nor logout, which ends it). */
const EXCLUDED_PATHS = ['/auth/login', '/auth/register', '/auth/refresh', '/auth/logout'];

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
 * Spec §4 and §8: a 401 to an authenticated call (one that carried a bearer token) gets one
 * refresh, then the request is replayed after CLIENT_TIMING.replayDelayMs with the new token.
 *
 * - no refresh token stored, or the server refuses the refresh: session cleared, login page;
 * - the refresh got no answer (network): the original request is replayed as it was;
 * - a replay that is refused again ends the session (one refresh per request);
 * - concurrent 401s share one refresh (refresh.ts), and a request that left before a refresh
 *   finished is replayed with the new token without refreshing again;
 * - login, register, refresh and logout are excluded.
 */
export function installSessionRefresh(http: AxiosInstance): void {
  http.interceptors.response.use(undefined, async (error: unknown) => {
    if (!isAxiosError(error) || error.response?.status !== 401 || !error.config) throw error;
    const config: SessionRequestConfig = error.config;
    const sentToken = bearerSent(config);
    if (sentToken === null || isExcluded(config.url)) throw error;
    if (config.sessionRetried) {
      await endSession();
      throw error;
    }
    config.sessionRetried = true;

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
