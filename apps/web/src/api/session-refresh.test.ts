// Spec §4, §8, §9: a 401 to an authenticated call → one refresh → replay, with its three
// outcomes, the 100 ms waits, the exclusions, one shared refresh for concurrent 401s, and the
// rule for a refresh that gets no usable answer (5xx, 408, 429, network): replay once, then the
// spec's failure.
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { getSessionState, setSessionState } from '../auth/session.ts';
import { makeUser, tokenAnswer } from '../test/fixtures.ts';
import { server } from '../test/server.ts';
import { recordSessionNavigation, settle, until, useSessionFakeTimers } from '../test/timing.ts';
import { ApiError, createApiClient } from './client.ts';

const okSchema = z.object({ ok: z.literal(true), token: z.string().nullable() });

/** A protected request whose failure is its answer, for the tests where it fails. */
const askOrFail = () =>
  createApiClient()
    .get('/api/v1/things', okSchema)
    .catch((error: unknown) => error);

interface Calls {
  protected: (string | null)[];
  refresh: unknown[];
}

/**
 * A protected resource accepting only `validToken`, and a refresh endpoint answering `refresh`.
 * Both record what they received.
 */
function fakeApi(options: { validToken: string; refresh: () => Response }): Calls {
  const calls: Calls = { protected: [], refresh: [] };
  server.use(
    http.get('/api/v1/things', ({ request }) => {
      const authorization = request.headers.get('authorization');
      calls.protected.push(authorization);
      return authorization === `Bearer ${options.validToken}`
        ? HttpResponse.json({ ok: true, token: authorization })
        : HttpResponse.json({ detail: 'unauthorized', message: 'Please sign in.' }, { status: 401 });
    }),
    http.post('/api/v1/auth/refresh', async ({ request }) => {
      calls.refresh.push(await request.json());
      return options.refresh();
    }),
  );
  return calls;
}

const refused = () =>
  HttpResponse.json({ detail: 'invalid_refresh_token', message: 'Session ended.' }, { status: 401 });

async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  useSessionFakeTimers();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  window.localStorage.setItem(STORAGE_KEYS.accessToken, 'old-access');
  window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'old-refresh');
  window.localStorage.setItem(STORAGE_KEYS.userId, 'user-1');
  window.localStorage.setItem(STORAGE_KEYS.selectedPlan, '{"product_id":1}');
  setSessionState({ status: 'authenticated', user: makeUser(), failure: null });
});

describe('401 → refresh → replay', () => {
  it('refreshes once and replays with the new token after the 100 ms waits', async () => {
    const calls = fakeApi({
      validToken: 'new-access',
      refresh: () => HttpResponse.json(tokenAnswer('new-access', 'new-refresh')),
    });

    const answer = createApiClient().get('/api/v1/things', okSchema);
    await until(() => window.localStorage.getItem(STORAGE_KEYS.accessToken) === 'new-access', 'new token');
    await settle();

    expect(calls.refresh).toEqual([{ refresh_token: 'old-refresh' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('new-refresh');
    // 100 ms after the token is set, then 100 ms before the replay.
    await advance(199);
    await settle();
    expect(calls.protected).toEqual(['Bearer old-access']);
    await advance(1);

    expect(await answer).toEqual({ ok: true, token: 'Bearer new-access' });
    expect(calls.protected).toEqual(['Bearer old-access', 'Bearer new-access']);
    expect(getSessionState().status).toBe('authenticated');
  });

  it('clears the session and opens the login page when no refresh token is stored', async () => {
    const navigations = recordSessionNavigation('/dashboard/billing');
    window.localStorage.removeItem(STORAGE_KEYS.refreshToken);
    const calls = fakeApi({ validToken: 'never', refresh: () => HttpResponse.json({}) });

    const answer = askOrFail();
    await until(() => getSessionState().status === 'logged_out', 'logged out');
    await advance(100);

    expect(await answer).toMatchObject({ status: 401 });
    expect(calls.refresh).toEqual([]);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    expect(navigations).toEqual([
      { to: '/auth/login', options: { replace: true, state: { from: '/dashboard/billing' } } },
    ]);
  });

  it('clears the session and opens the login page when the server refuses the refresh', async () => {
    const navigations = recordSessionNavigation();
    const calls = fakeApi({ validToken: 'never', refresh: refused });

    const answer = askOrFail();
    await until(() => getSessionState().status === 'logged_out', 'logged out');
    await advance(100);

    const error = await answer;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, detail: 'unauthorized' });
    expect(calls.refresh).toHaveLength(1);
    expect(calls.protected).toHaveLength(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    // A session that ran out keeps the plan being bought; only logout forgets it.
    expect(window.localStorage.getItem(STORAGE_KEYS.selectedPlan)).not.toBeNull();
    expect(navigations.map(({ to }) => to)).toEqual(['/auth/login']);
  });

  it('replays the original request when the refresh gets no answer from the server', async () => {
    let first = true;
    const calls: (string | null)[] = [];
    server.use(
      http.get('/api/v1/things', ({ request }) => {
        calls.push(request.headers.get('authorization'));
        // The first attempt met a passing 401 (e.g. a proxy); the replay goes through.
        if (first) {
          first = false;
          return HttpResponse.json({ detail: 'unauthorized', message: 'x' }, { status: 401 });
        }
        return HttpResponse.json({ ok: true, token: request.headers.get('authorization') });
      }),
      http.post('/api/v1/auth/refresh', () => HttpResponse.error()),
    );

    const answer = createApiClient().get('/api/v1/things', okSchema);
    await until(() => calls.length === 1, 'first call');
    await settle();
    await advance(99);
    await settle();
    expect(calls).toHaveLength(1);
    await advance(1);

    expect(await answer).toEqual({ ok: true, token: 'Bearer old-access' });
    expect(calls).toEqual(['Bearer old-access', 'Bearer old-access']);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('old-refresh');
    expect(getSessionState().status).toBe('authenticated');
  });

  it('ends the session when the replay is refused again: one refresh per request', async () => {
    const navigations = recordSessionNavigation();
    // The refresh works, but the server still refuses the new token.
    const calls = fakeApi({
      validToken: 'never',
      refresh: () => HttpResponse.json(tokenAnswer('new-access', 'new-refresh')),
    });

    const answer = askOrFail();
    await until(() => calls.refresh.length === 1, 'refresh');
    await settle();
    await advance(200);
    await until(() => getSessionState().status === 'logged_out', 'logged out');
    await advance(100);

    expect(await answer).toMatchObject({ status: 401 });
    expect(calls.refresh).toHaveLength(1);
    expect(calls.protected).toEqual(['Bearer old-access', 'Bearer new-access']);
    expect(navigations.map(({ to }) => to)).toEqual(['/auth/login']);
  });

  it('shares one refresh between concurrent 401s and replays them all', async () => {
    const calls = fakeApi({
      validToken: 'new-access',
      refresh: () => HttpResponse.json(tokenAnswer('new-access', 'new-refresh')),
    });
    const client = createApiClient();

    const answers = Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => client.get('/api/v1/things', okSchema, { params: { name } })),
    );
    await until(() => calls.refresh.length === 1 && calls.protected.length === 4, 'all 401s and the refresh');
    await settle();
    await advance(200);

    expect((await answers).map((answer) => answer.token)).toEqual(Array(4).fill('Bearer new-access'));
    expect(calls.refresh).toHaveLength(1);
    expect(calls.protected.filter((token) => token === 'Bearer old-access')).toHaveLength(4);
  });

  it('replays without refreshing again a request that left before the refresh finished', async () => {
    const calls = fakeApi({
      validToken: 'new-access',
      refresh: () => HttpResponse.json(tokenAnswer('new-access', 'new-refresh')),
    });
    const client = createApiClient();

    const first = client.get('/api/v1/things', okSchema, { params: { n: 1 } });
    await until(() => calls.refresh.length === 1, 'refresh');
    await settle();
    await advance(200);
    await first;
    // A request still carrying the old token comes back 401 after the refresh is done.
    const late = client.get('/api/v1/things', okSchema, { headers: { Authorization: 'Bearer old-access' } });
    await until(() => calls.protected.length === 3, 'late call');
    await settle();
    await advance(100);

    expect((await late).token).toBe('Bearer new-access');
    expect(calls.refresh).toHaveLength(1);
  });
});

describe('a refresh with no usable answer: replay once, then the spec’s failure', () => {
  /** A protected call refused `refusals` times, then answered; a refresh answered by `refresh`. */
  function flakyApi(options: { refusals: number; refresh: () => Response; replay?: () => Response }) {
    const calls = { protected: [] as (string | null)[], refresh: 0 };
    server.use(
      http.get('/api/v1/things', ({ request }) => {
        const authorization = request.headers.get('authorization');
        calls.protected.push(authorization);
        if (calls.protected.length <= options.refusals) {
          return HttpResponse.json({ detail: 'unauthorized', message: 'Please sign in.' }, { status: 401 });
        }
        return options.replay?.() ?? HttpResponse.json({ ok: true, token: authorization });
      }),
      http.post('/api/v1/auth/refresh', () => {
        calls.refresh += 1;
        return options.refresh();
      }),
    );
    return calls;
  }

  const status = (code: number) => () =>
    HttpResponse.json({ detail: 'server_error', message: 'Try later.' }, { status: code });

  it.each([500, 502, 503, 504, 408, 429])(
    'a refresh answered %i counts as no answer: tokens kept, the request replayed once as it was',
    async (code) => {
      const calls = flakyApi({ refusals: 1, refresh: status(code) });

      const answer = createApiClient().get('/api/v1/things', okSchema);
      await until(() => calls.refresh === 1, 'refresh');
      await settle();
      await advance(100);

      expect(await answer).toEqual({ ok: true, token: 'Bearer old-access' });
      expect(calls.protected).toEqual(['Bearer old-access', 'Bearer old-access']);
      expect(calls.refresh).toBe(1);
      expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('old-access');
      expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('old-refresh');
      expect(getSessionState().status).toBe('authenticated');
    },
  );

  it.each([503, 429])(
    'after a refresh answered %i, a replay refused again is the spec’s failure: no second refresh or replay, login page',
    async (code) => {
      const navigations = recordSessionNavigation('/dashboard/billing');
      const calls = flakyApi({ refusals: 5, refresh: status(code) });

      const answer = askOrFail();
      await until(() => calls.refresh === 1, 'refresh');
      await settle();
      await advance(100);
      await until(() => getSessionState().status === 'logged_out', 'logged out');
      await advance(100);

      expect(await answer).toMatchObject({ status: 401, detail: 'unauthorized' });
      expect(calls.protected).toHaveLength(2);
      expect(calls.refresh).toBe(1);
      expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
      expect(navigations).toEqual([
        { to: '/auth/login', options: { replace: true, state: { from: '/dashboard/billing' } } },
      ]);
    },
  );

  it('a replay that fails otherwise is the caller’s answer, and the session stays', async () => {
    const calls = flakyApi({ refusals: 1, refresh: status(503), replay: status(503) });

    const answer = askOrFail();
    await until(() => calls.refresh === 1, 'refresh');
    await settle();
    await advance(100);

    expect(await answer).toMatchObject({ status: 503 });
    expect(calls.protected).toHaveLength(2);
    expect(calls.refresh).toBe(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('old-refresh');
    expect(getSessionState().status).toBe('authenticated');
  });

  it('a refresh refused with another 4xx is no hiccup: the spec’s failure at once, no replay', async () => {
    const navigations = recordSessionNavigation();
    const calls = flakyApi({
      refusals: 5,
      refresh: () => HttpResponse.json({ detail: 'validation_error', message: 'x' }, { status: 422 }),
    });

    const answer = askOrFail();
    await until(() => getSessionState().status === 'logged_out', 'logged out');
    await advance(100);

    expect(await answer).toMatchObject({ status: 401 });
    expect(calls.protected).toHaveLength(1);
    expect(navigations.map(({ to }) => to)).toEqual(['/auth/login']);
  });
});

describe('calls that never trigger a refresh', () => {
  it.each([
    ['login', '/api/v1/auth/login'],
    ['register', '/api/v1/auth/register'],
    ['refresh', '/api/v1/auth/refresh'],
  ])('%s: a 401 goes straight to the caller', async (_name, path) => {
    let refreshes = 0;
    server.use(
      http.post(path, () =>
        HttpResponse.json({ detail: 'invalid_credentials', message: 'No.' }, { status: 401 }),
      ),
    );
    if (path !== '/api/v1/auth/refresh') {
      server.use(
        http.post('/api/v1/auth/refresh', () => {
          refreshes += 1;
          return HttpResponse.json(tokenAnswer('x', 'y'));
        }),
      );
    }

    const error = await createApiClient()
      .post(path, { a: 1 }, z.unknown())
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 401, detail: 'invalid_credentials' });
    expect(refreshes).toBe(0);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('old-access');
    expect(getSessionState().status).toBe('authenticated');
  });

  it('a 401 to a call made without a token is only reported', async () => {
    window.localStorage.clear();
    server.use(
      http.get('/api/v1/things', () =>
        HttpResponse.json({ detail: 'unauthorized', message: 'x' }, { status: 401 }),
      ),
    );

    const error = await createApiClient()
      .get('/api/v1/things', okSchema)
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 401 });
  });
});
