// What every request carries (spec §7), and the place for what happens when a session expires.
import { CSRF_HEADER, LANGUAGE_HEADER } from '@debesis/contract';
import type { AxiosInstance } from 'axios';
import { getAccessToken } from '../auth/session.ts';
import { currentLanguage } from '../i18n/language.ts';
import { ensureCsrfToken } from './csrf.ts';

const UNSAFE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The request time-out (spec §9: 10 s) as an abort signal rather than axios' `timeout`: a signal
 * behaves the same in every adapter (XHR, fetch) and in the test server, which ignores XHR's own
 * time-out. `toApiError` recognises the TimeoutError reason and reports `timeout`.
 */
export function installDeadline(http: AxiosInstance, timeoutMs: number): void {
  http.interceptors.request.use((config) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const own = config.signal as AbortSignal | undefined;
    config.signal = own ? AbortSignal.any([own, deadline]) : deadline;
    return config;
  });
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

/**
 * Spec §4 and §8: on a 401 to an authenticated call, refresh once with the stored refresh token
 * (POST /api/v1/auth/refresh), wait CLIENT_TIMING.replayDelayMs and replay the request; without
 * a refresh token or when the refresh is refused, clear the session and go to /auth/login; a
 * refresh lost to the network replays the original; login, register and refresh are excluded.
 *
 * The accounts issue adds that response interceptor here. Until then a 401 reaches the caller
 * as an ApiError with status 401 and detail `unauthorized`.
 */
export function installSessionRefresh(_http: AxiosInstance): void {
  // Intentionally empty until the accounts issue.
}
