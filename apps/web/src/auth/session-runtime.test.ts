// Spec §4 and §9: the session state machine, user loading with its retries, the refresh timer and
// logout, on fake timers.
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { makeJwt, makeUser, tokenAnswer } from '../test/fixtures.ts';
import { server } from '../test/server.ts';
import { recordSessionNavigation, settle, until, useSessionFakeTimers } from '../test/timing.ts';
import { getThemeState } from '../theme/theme.ts';
import { logout, startSession } from './session-runtime.ts';
import { bootSession, getSessionState } from './session.ts';

const MINUTE = 60_000;

async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

function countUserLoads(answer: () => Response) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/v1/users/me', () => {
      calls.count += 1;
      return answer();
    }),
  );
  return calls;
}

function countRefreshes(answer: (refreshToken: string) => Response) {
  const calls = { count: 0, bodies: [] as unknown[] };
  server.use(
    http.post('/api/v1/auth/refresh', async ({ request }) => {
      calls.count += 1;
      const body = (await request.json()) as { refresh_token: string };
      calls.bodies.push(body);
      return answer(body.refresh_token);
    }),
  );
  return calls;
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('session start', () => {
  it('treats a visitor without stored tokens as logged out and asks the server nothing', async () => {
    bootSession();
    await settle();

    expect(getSessionState()).toEqual({ status: 'logged_out', user: null, failure: null });
  });

  it('goes from loading to authenticated, keeps the user id and lets the server settings win', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
    const user = makeUser({ id: 'user-42', theme: 'dark', language: 'lt' });
    const loads = countUserLoads(() => HttpResponse.json(user));
    // Applying the server's choices must not send them back (no PUT /settings/ is described).

    bootSession();
    expect(getSessionState().status).toBe('loading');
    await until(() => getSessionState().status === 'authenticated', 'authenticated');

    expect(getSessionState().user).toEqual(user);
    expect(loads.count).toBe(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBe('user-42');
    expect(getThemeState().theme).toBe('dark');
    expect(i18n.language).toBe('lt');
    await settle();
  });
});

describe('loading the user', () => {
  beforeEach(() => {
    useSessionFakeTimers();
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
  });

  it('retries after 1, 2 and 3 seconds, then fails with the tokens kept', async () => {
    const loads = countUserLoads(() =>
      HttpResponse.json({ detail: 'server_error', message: 'x' }, { status: 500 }),
    );

    const started = startSession();
    await until(() => loads.count === 1, 'first load');
    await settle();

    await expectLoadsAfter(loads, 1_000, 2);
    await expectLoadsAfter(loads, 2_000, 3);
    await expectLoadsAfter(loads, 3_000, 4);

    expect(await started).toEqual({ status: 'failed', user: null, failure: 'load_failed' });
    // No fourth retry.
    await advance(10_000);
    expect(loads.count).toBe(4);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access');
  });

  it('recovers when a retry succeeds', async () => {
    let attempt = 0;
    countUserLoads(() => {
      attempt += 1;
      return attempt < 3 ? HttpResponse.error() : HttpResponse.json(makeUser());
    });

    const started = startSession();
    await until(() => attempt === 1, 'first load');
    await settle();
    await advance(1_000);
    await until(() => attempt === 2, 'second load');
    await settle();
    await advance(2_000);

    expect((await started).status).toBe('authenticated');
    expect(attempt).toBe(3);
  });

  it.each([403, 401])('clears the tokens and fails at once on %i', async (status) => {
    recordSessionNavigation();
    // The 401 first goes through the refresh handler; the server refuses that refresh too.
    countRefreshes(() =>
      HttpResponse.json({ detail: 'invalid_refresh_token', message: 'x' }, { status: 401 }),
    );
    const loads = countUserLoads(() => HttpResponse.json({ detail: 'forbidden', message: 'x' }, { status }));

    const started = startSession();
    await until(() => loads.count === 1, 'load');
    await settle();
    await advance(500);

    expect(await started).toEqual({ status: 'failed', user: null, failure: 'unauthorized' });
    expect(loads.count).toBe(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });

  async function expectLoadsAfter(loads: { count: number }, wait: number, expected: number): Promise<void> {
    await advance(wait - 1);
    expect(loads.count, `not before ${wait} ms`).toBe(expected - 1);
    await advance(1);
    await until(() => loads.count === expected, `load ${expected}`);
    await settle();
  }
});

describe('refresh timer', () => {
  beforeEach(() => {
    useSessionFakeTimers();
  });

  it('refreshes only once less than 5 minutes are left, checking every 4 minutes', async () => {
    const start = Date.now();
    // 12 minutes: checks at 0 (12 left), 4 (8 left) do nothing; the one at 8 (4 left) refreshes.
    window.localStorage.setItem(STORAGE_KEYS.accessToken, makeJwt(start + 12 * MINUTE));
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh-1');
    countUserLoads(() => HttpResponse.json(makeUser()));
    let issued = 1;
    const refreshes = countRefreshes(() => {
      issued += 1;
      // Each new access token lives 15 minutes from when it is issued.
      return HttpResponse.json(tokenAnswer(makeJwt(Date.now() + 15 * MINUTE), `refresh-${issued}`));
    });

    await startSession();
    expect(refreshes.count).toBe(0);

    await advance(8 * MINUTE - 1);
    expect(refreshes.count).toBe(0);
    await advance(1);
    await until(() => refreshes.count === 1, 'first refresh');
    await settle();
    await advance(100);
    expect(refreshes.bodies[0]).toEqual({ refresh_token: 'refresh-1' });
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');

    // New token expires at 8 + 15 = 23 min: checks at 12 (11 left) and 16 (7 left) wait, 20 (3 left) refreshes.
    await advance(12 * MINUTE - 100 - 1);
    expect(refreshes.count).toBe(1);
    await advance(1);
    await until(() => refreshes.count === 2, 'second refresh');
    expect(refreshes.bodies[1]).toEqual({ refresh_token: 'refresh-2' });
  });

  it('does not refresh a token with more than 5 minutes left', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, makeJwt(Date.now() + 60 * MINUTE));
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
    countUserLoads(() => HttpResponse.json(makeUser()));
    const refreshes = countRefreshes(() => HttpResponse.json(tokenAnswer('x', 'y')));

    await startSession();
    await advance(52 * MINUTE);
    await settle();

    expect(refreshes.count).toBe(0);
  });

  it('ends the session when the server refuses the timed refresh', async () => {
    const navigations = recordSessionNavigation('/dashboard/billing');
    window.localStorage.setItem(STORAGE_KEYS.accessToken, makeJwt(Date.now() + 6 * MINUTE));
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'stolen');
    countUserLoads(() => HttpResponse.json(makeUser()));
    countRefreshes(() =>
      HttpResponse.json({ detail: 'invalid_refresh_token', message: 'x' }, { status: 401 }),
    );

    await startSession();
    await advance(4 * MINUTE);
    await until(() => getSessionState().status === 'logged_out', 'logged out');
    await advance(100);

    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(navigations).toEqual([
      { to: '/auth/login', options: { replace: true, state: { from: '/dashboard/billing' } } },
    ]);
  });
});

describe('logout', () => {
  it('tells the server, forgets tokens, user id and selected plan, and opens the login page', async () => {
    document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
    const navigations = recordSessionNavigation('/dashboard/settings');
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
    window.localStorage.setItem(STORAGE_KEYS.userId, 'user-1');
    window.localStorage.setItem(STORAGE_KEYS.selectedPlan, '{"product_id":1}');
    window.localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    window.localStorage.setItem(STORAGE_KEYS.language, 'lt');
    let received: { body: unknown; authorization: string | null } | null = null;
    server.use(
      http.post('/api/v1/auth/logout', async ({ request }) => {
        received = { body: await request.json(), authorization: request.headers.get('authorization') };
        return HttpResponse.json({ message: 'Signed out' });
      }),
    );

    await logout();
    await until(() => received !== null, 'logout call');

    expect(received).toEqual({ body: { refresh_token: 'refresh' }, authorization: 'Bearer access' });
    for (const key of ['accessToken', 'refreshToken', 'userId', 'selectedPlan'] as const) {
      expect(window.localStorage.getItem(STORAGE_KEYS[key]), key).toBeNull();
    }
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBe('lt');
    expect(getSessionState().status).toBe('logged_out');
    expect(navigations).toEqual([{ to: '/auth/login', options: { replace: true } }]);
  });

  it('logs out locally even when the server cannot be reached', async () => {
    document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
    recordSessionNavigation();
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
    server.use(http.post('/api/v1/auth/logout', () => HttpResponse.error()));

    await logout();
    await settle();

    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(getSessionState().status).toBe('logged_out');
  });
});
