// The end of the OAuth dance (spec §2, §8): the callback trades its one-time code for tokens;
// the error page says what went wrong with which provider.
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { tokenAnswer, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('OAuth callback', () => {
  it('trades the code once, keeps the tokens and continues to the redirect', async () => {
    const codes: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/oauth/exchange', async ({ request }) => {
        codes.push(await request.json());
        return HttpResponse.json(tokenAnswer('oauth-access', 'oauth-refresh'));
      }),
      userHandler(),
    );
    const { router } = renderApp('/auth/oauth/callback?code=one-time&redirect=%2Fdashboard%2Fbilling');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/billing'));
    expect(codes).toEqual([{ code: 'one-time' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('oauth-access');
  });

  it('never follows a redirect to another site', async () => {
    server.use(
      http.post('/api/v1/auth/oauth/exchange', () => HttpResponse.json(tokenAnswer('a', 'r'))),
      userHandler(),
    );
    const { router } = renderApp('/auth/oauth/callback?code=c&redirect=%2F%2Fevil.example');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/services'));
  });

  it('shows the authentication error when the code is refused', async () => {
    server.use(
      http.post('/api/v1/auth/oauth/exchange', () =>
        HttpResponse.json({ detail: 'oauth_failed', message: 'x' }, { status: 400 }),
      ),
    );
    renderApp('/auth/oauth/callback?code=stale');

    expect((await screen.findByTestId('oauth-callback-error')).textContent).toContain(
      'An error occurred during authentication. Please try again.',
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});

describe('OAuth error page', () => {
  it('says what failed with which provider, with the ways back', async () => {
    renderApp('/auth/oauth/error?reason=account_disabled&provider=google');

    expect((await screen.findByTestId('oauth-error-message')).textContent).toContain(
      'An error occurred during authentication. Please try again.',
    );
    expect(screen.getByTestId('oauth-error-provider').textContent).toBe(
      'Signing in with Google failed: Your account has been disabled. Please contact support.',
    );
    expect(screen.getByTestId('oauth-error-sign-in').getAttribute('href')).toBe('/auth/login');
    expect(screen.getByTestId('oauth-error-register').getAttribute('href')).toBe('/auth/register');
  });

  it('copes with an unknown reason and provider, in Lithuanian too', async () => {
    await changeLanguage('lt');
    renderApp('/auth/oauth/error?reason=weird&provider=myspace');

    expect((await screen.findByTestId('oauth-error-provider')).textContent).toBe(
      'Prisijungti nepavyko: tiekėjas neužbaigė prisijungimo.',
    );
    expect(screen.getByTestId('oauth-error-message').textContent).toContain(
      'Autentifikuojant įvyko klaida. Bandykite dar kartą.',
    );
  });
});
