// The theme a visitor chose before signing up survives the account's first sign-in (issue 13);
// later sign-ins take the account's.
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, settingsOf } from '../test/fixtures.ts';
import { server } from '../test/server.ts';
import { getThemeState, setTheme } from '../theme/theme.ts';
import { signIn } from './session-runtime.ts';
import { getSessionState } from './session.ts';

function account(loginCount: number) {
  const user = makeUser({ theme: 'light', login_count: loginCount });
  const puts: unknown[] = [];
  server.use(
    http.get('/api/v1/users/me', () => HttpResponse.json(user)),
    http.put('/api/v1/settings/', async ({ request }) => {
      const patch = (await request.json()) as { theme: 'dark' };
      puts.push(patch);
      return HttpResponse.json({ ...settingsOf(user), ...patch });
    }),
  );
  return puts;
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  // Chosen with the header toggle before there was an account.
  setTheme('dark', 'user');
});

describe('the theme through sign-in', () => {
  it('keeps the theme chosen before sign-up at the first sign-in, and saves it to the account', async () => {
    const puts = account(1);

    const user = await signIn({ access_token: 'access', refresh_token: 'refresh' });

    expect(getThemeState().theme).toBe('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    expect(user.theme).toBe('dark');
    expect(getSessionState().user?.theme).toBe('dark');
    await expect.poll(() => puts).toEqual([{ theme: 'dark' }]);
  });

  it('takes the account’s theme at later sign-ins, without sending anything back', async () => {
    const puts = account(4);

    await signIn({ access_token: 'access', refresh_token: 'refresh' });

    expect(getThemeState().theme).toBe('light');
    expect(puts).toEqual([]);
  });
});
