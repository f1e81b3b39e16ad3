// The working half of the session (spec §4, §9): loading the user with its retries, the refresh
// timer, signing in, logging out, and keeping the theme and language in step with the server.
// Loaded on demand by session.ts, so pages without a session never download the API client.
import {
  CLIENT_TIMING,
  messageResponseSchema,
  settingsSchema,
  userSchema,
  type Settings,
  type User,
} from '@debesis/contract';
import { api, isApiError } from '../api/client.ts';
import { changeLanguage, onLanguageChoiceChange } from '../i18n/language.ts';
import { onThemeChoiceChange, setTheme, storedThemeChoice, type Theme } from '../theme/theme.ts';
import { sessionClock, sleep, type TimerId } from './clock.ts';
import { tokenExpiresAt } from './jwt.ts';
import { currentNavigator, LOGIN_ROUTE, loginNavigation } from './navigation.ts';
import { refreshTokens } from './refresh.ts';
import {
  clearSession,
  clearTokens,
  getAccessToken,
  getRefreshToken,
  getSessionState,
  hasStoredTokens,
  sessionAuthenticated,
  sessionFailed,
  sessionLoading,
  setSessionState,
  storeTokens,
  subscribeSession,
  updateSessionUser,
  type SessionState,
} from './session.ts';

export const USER_PATH = '/api/v1/users/me';
export const LOGOUT_PATH = '/api/v1/auth/logout';
export const SETTINGS_PATH = '/api/v1/settings/';

// ── user loading ─────────────────────────────────────────────────────────────────────────────

/** Bumped whenever a session starts or ends, so a load that outlived its session is dropped. */
let generation = 0;
let starting: Promise<SessionState> | null = null;

/**
 * Starts (or restarts) the session from the stored tokens: refresh timer on, one expiry check,
 * then the user. Concurrent callers share one start. Resolves with the state it ended in.
 */
export function startSession(): Promise<SessionState> {
  starting ??= runStart().finally(() => {
    starting = null;
  });
  return starting;
}

async function runStart(): Promise<SessionState> {
  if (!hasStoredTokens()) {
    setSessionState({ status: 'logged_out', user: null, failure: null });
    return getSessionState();
  }
  generation += 1;
  const mine = generation;
  if (getSessionState().status !== 'authenticated') setSessionState(sessionLoading());
  startRefreshTimer();
  await checkTokenExpiry();
  if (mine !== generation || !hasStoredTokens()) return getSessionState();
  await loadUser(mine);
  return getSessionState();
}

/**
 * GET /users/me, retried up to CLIENT_TIMING.userLoadRetryDelaysMs.length times with those waits
 * (1, 2, 3 s). A 401 or 403 is an answer, not a hiccup: tokens cleared, session failed.
 */
async function loadUser(mine: number): Promise<void> {
  const delays = CLIENT_TIMING.userLoadRetryDelaysMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const user = await api.get(USER_PATH, userSchema);
      if (mine !== generation) return;
      const applied = await applyServerPreferences(user);
      if (mine !== generation) return;
      setSessionState(sessionAuthenticated(applied));
      return;
    } catch (error) {
      if (isApiError(error) && (error.status === 401 || error.status === 403)) {
        // The 401 handler may have ended the session already; unless a new one has begun since,
        // this one is over: tokens cleared, session failed.
        if (mine !== generation && hasStoredTokens()) return;
        stopRefreshTimer();
        await clearTokens(sessionFailed('unauthorized'));
        return;
      }
      if (mine !== generation) return;
      const wait = delays[attempt];
      if (wait === undefined) {
        setSessionState(sessionFailed('load_failed'));
        return;
      }
      await sleep(wait);
      if (mine !== generation) return;
    }
  }
}

// ── refresh timer ────────────────────────────────────────────────────────────────────────────

let refreshTimer: TimerId | null = null;

function startRefreshTimer(): void {
  stopRefreshTimer();
  refreshTimer = sessionClock().setInterval(() => void checkTokenExpiry(), CLIENT_TIMING.refreshCheckEveryMs);
}

function stopRefreshTimer(): void {
  if (refreshTimer !== null) sessionClock().clearInterval(refreshTimer);
  refreshTimer = null;
}

/**
 * Spec §4: refresh when the access token has less than 5 minutes left. A token that does not
 * say when it expires is left to the 401 handler. A refused refresh ends the session; one that
 * got no answer is tried again at the next check.
 */
export async function checkTokenExpiry(): Promise<void> {
  const token = getAccessToken();
  if (!token) return;
  const expiresAt = tokenExpiresAt(token);
  if (expiresAt === null) return;
  if (expiresAt - sessionClock().now() >= CLIENT_TIMING.refreshWhenExpiresWithinMs) return;
  if (!getRefreshToken()) return;
  const outcome = await refreshTokens(api.http);
  if (outcome === 'rejected') {
    const toLogin = loginNavigation();
    stopRefreshTimer();
    generation += 1;
    await clearTokens();
    toLogin();
  }
}

// Whatever ends the session (logout here, a refused refresh in the 401 handler, another tab)
// also stops the timer and drops loads in flight.
subscribeSession(() => {
  const { status } = getSessionState();
  if (status === 'logged_out' || (status === 'failed' && !hasStoredTokens())) {
    stopRefreshTimer();
    generation += 1;
  }
});

// ── signing in and out ───────────────────────────────────────────────────────────────────────

export interface IssuedTokens {
  access_token: string;
  refresh_token?: string | undefined;
}

/** The theme this device showed when a sign-in began; read once, by the user load it starts. */
let themeBeforeSignIn: Theme | null = null;

/** The user could not be loaded after signing in: 'Failed to load user data'. */
export class UserLoadError extends Error {
  override readonly name = 'UserLoadError';
}

/**
 * Finishes any sign-in (password, OAuth, password reset): keeps the tokens, loads the user (the
 * server's theme and language win) and resolves with them. Throws UserLoadError otherwise.
 */
export async function signIn(tokens: IssuedTokens): Promise<User> {
  themeBeforeSignIn = storedThemeChoice();
  await storeTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
  setSessionState(sessionLoading());
  const state = await startSession();
  if (state.status === 'authenticated' && state.user) return state.user;
  throw new UserLoadError();
}

/**
 * Spec §4: tells the server (best effort, the answer is not awaited), forgets tokens, stored user
 * id and selected plan, and opens the login page.
 */
export async function logout(): Promise<void> {
  const navigate = currentNavigator();
  const accessToken = getAccessToken();
  const refreshToken = getRefreshToken();
  if (accessToken && refreshToken) {
    api
      .post(LOGOUT_PATH, { refresh_token: refreshToken }, messageResponseSchema, {
        headers: { Authorization: `Bearer ${accessToken}` },
      })
      .catch(() => undefined);
  }
  stopRefreshTimer();
  generation += 1;
  await clearSession();
  navigate(LOGIN_ROUTE, { replace: true });
}

// ── theme and language ───────────────────────────────────────────────────────────────────────

/**
 * Spec §3: on sign-in the server's settings win, applied without sending them back; except at the
 * account's first sign-in, where the theme chosen here before signing up is kept and saved to the
 * account (until then the account has only the default, which nobody chose). The language needs no
 * such rule: registration already stored the one on screen. Returns the user as applied, once the
 * language's texts are in (they download on a switch), so the signed-in pages never show in the
 * old language first.
 */
async function applyServerPreferences(user: User): Promise<User> {
  const chosenBefore = themeBeforeSignIn;
  themeBeforeSignIn = null;
  if (user.login_count <= 1 && chosenBefore !== null && chosenBefore !== user.theme) {
    setTheme(chosenBefore, 'server');
    saveSettings({ theme: chosenBefore }).catch(() => undefined);
    await changeLanguage(user.language, 'server').catch(() => undefined);
    return { ...user, theme: chosenBefore };
  }
  setTheme(user.theme, 'server');
  await changeLanguage(user.language, 'server').catch(() => undefined);
  return user;
}

/** PUT /settings/ and keeps the signed-in user in step with the answer. */
export async function saveSettings(
  patch: Partial<Omit<Settings, 'notifications'>> & {
    notifications?: Partial<Settings['notifications']>;
  },
): Promise<Settings> {
  const settings = await api.put(SETTINGS_PATH, patch, settingsSchema);
  const { user } = getSessionState();
  if (user) {
    updateSessionUser({
      ...user,
      theme: settings.theme,
      language: settings.language,
      notification_email: settings.notifications.email,
      notification_browser: settings.notifications.browser,
    });
  }
  return settings;
}

function syncWhenSignedIn(patch: Parameters<typeof saveSettings>[0]): void {
  if (getSessionState().status !== 'authenticated') return;
  // The choice is already applied and stored locally; the server catches up when it can.
  saveSettings(patch).catch(() => undefined);
}

// A change the visitor makes (header toggles) while signed in goes to the server; changes that
// came from the server, another tab or the settings page (which saves itself) do not.
onThemeChoiceChange((theme, source) => {
  if (source === 'user') syncWhenSignedIn({ theme });
});
onLanguageChoiceChange((language, source) => {
  if (source === 'user') syncWhenSignedIn({ language });
});

/** Stops timers and forgets loads in flight (tests start each case clean). */
export function resetSessionRuntime(): void {
  stopRefreshTimer();
  themeBeforeSignIn = null;
  generation += 1;
  starting = null;
}
