import type * as Contract from '@debesis/contract';
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse, type JsonBodyType } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSessionClock, systemClock } from '../../auth/clock.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, tokenAnswer, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(await screen.findByTestId('login-email'), email);
  if (password) await user.type(screen.getByTestId('login-password'), password);
  await user.click(screen.getByTestId('login-submit'));
}

// Subusers have not shipped: the page offers their sign-in only once SHIPPED_FEATURES says so.
const features = vi.hoisted(() => ({ all: false }));
vi.mock('@debesis/contract', async (importOriginal) => {
  const contract = await importOriginal<typeof Contract>();
  return {
    ...contract,
    get SHIPPED_FEATURES() {
      return features.all ? contract.FEATURES : contract.SHIPPED_FEATURES;
    },
  };
});

function answerLogin(status: number, body: JsonBodyType, headers: Record<string, string> = {}) {
  server.use(http.post('/api/v1/auth/login', () => HttpResponse.json(body, { status, headers })));
}

describe('login page', () => {
  beforeEach(() => {
    document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  });

  it('checks the fields before calling the server', async () => {
    renderApp('/auth/login');
    await fillAndSubmit('not-an-email', '');

    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('posts the form-encoded password grant, keeps the tokens, loads the user and returns to where the visitor was', async () => {
    let received: URLSearchParams | null = null;
    let contentType: string | null = null;
    server.use(
      http.post('/api/v1/auth/login', async ({ request }) => {
        contentType = request.headers.get('content-type');
        received = new URLSearchParams(await request.text());
        return HttpResponse.json(tokenAnswer('access', 'refresh'));
      }),
      userHandler(makeUser({ id: 'user-7', first_name: 'Ona', last_name: 'Petraitė' })),
    );
    const { router } = renderApp('/dashboard/billing');
    await screen.findByRole('heading', { name: 'Sign in' });

    await fillAndSubmit('ona@example.lt', 'Secret123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/billing'));
    expect(contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(received ?? [])).toEqual({
      username: 'ona@example.lt',
      password: 'Secret123',
      grant_type: 'password',
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh');
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBe('user-7');
    expect((await screen.findByTestId('header-user-name')).textContent).toContain('Ona Petraitė');
  });

  it('goes to the services list when nobody sent the visitor here', async () => {
    answerLogin(200, tokenAnswer('access', 'refresh'));
    server.use(userHandler());
    const { router } = renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/services'));
  });

  it.each([
    ['invalid_credentials', 401, {}, 'Invalid email or password'],
    ['account_disabled', 403, {}, 'Your account has been disabled. Please contact support.'],
    ['server_error', 500, {}, 'Server error. Please try again later'],
    ['some_new_code', 400, {}, 'What the server said.'],
    [
      'too_many_attempts',
      429,
      { 'Retry-After': '900' },
      'Too many attempts. Please wait a moment and try again. Try again in 15 minutes.',
    ],
  ])('shows the spec message for %s', async (detail, status, headers, expected) => {
    const message =
      detail === 'too_many_attempts'
        ? 'Too many attempts. Please wait a moment and try again.'
        : 'What the server said.';
    answerLogin(status, { detail, message }, headers);
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByTestId('login-error')).textContent).toBe(expected);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('shows the messages in Lithuanian', async () => {
    await changeLanguage('lt');
    answerLogin(401, { detail: 'invalid_credentials', message: 'x' });
    renderApp('/auth/login');

    await fillAndSubmit('ne-el-pastas', '');
    expect(await screen.findByText('Įveskite teisingą el. pašto adresą')).toBeTruthy();
    expect(screen.getByText('Šis laukas privalomas')).toBeTruthy();

    await userEvent.clear(screen.getByTestId('login-email'));
    await fillAndSubmit('ona@example.lt', 'Secret123');
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Neteisingas el. paštas arba slaptažodis',
    );
  });

  it('sends an unverified address to verify-email with a message and the email', async () => {
    answerLogin(403, { detail: 'email_not_verified', message: 'x' });
    const { router } = renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/verify-email'));
    expect((await screen.findByTestId('verify-email-message')).textContent).toBe(
      'Please verify your email address before signing in.',
    );
    expect(screen.getByTestId('verify-email-sent-to').textContent).toContain('ona@example.lt');
  });

  it('says the token response is invalid when the answer carries no tokens', async () => {
    answerLogin(200, { ok: true });
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByTestId('login-error')).textContent).toBe('Invalid token response');
  });

  it('says the server failed for a bare 500', async () => {
    server.use(http.post('/api/v1/auth/login', () => new HttpResponse(null, { status: 500 })));
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Server error. Please try again later',
    );
  });

  it('says "Failed to load user data" when the user cannot be loaded after signing in', async () => {
    answerLogin(200, tokenAnswer('access', 'refresh'));
    server.use(
      http.get('/api/v1/users/me', () =>
        HttpResponse.json({ detail: 'server_error', message: 'x' }, { status: 500 }),
      ),
    );
    const restore = setSessionClock({ ...systemClock, setTimeout: (callback) => setTimeout(callback, 0) });
    try {
      const { router } = renderApp('/auth/login');
      await fillAndSubmit('ona@example.lt', 'Secret123');

      expect((await screen.findByTestId('login-error')).textContent).toBe('Failed to load user data');
      expect(router.state.location.pathname).toBe('/auth/login');
    } finally {
      restore();
    }
  });

  it('shows the notice and the email other pages pass along', async () => {
    renderApp('/auth/login', { notice: 'email_registered', email: 'ona@example.lt' });

    expect((await screen.findByTestId('login-notice')).textContent).toBe(
      'This email is already registered and verified. Please sign in instead.',
    );
    expect(screen.getByTestId<HTMLInputElement>('login-email').value).toBe('ona@example.lt');
  });

  it('offers only the enabled OAuth providers, returning to where the visitor was going', async () => {
    server.use(
      http.get('/api/v1/auth/oauth/providers', () =>
        HttpResponse.json({
          providers: [
            { id: 'google', name: 'Google', enabled: true },
            { id: 'github', name: 'GitHub', enabled: false },
            { id: 'microsoft', name: 'Microsoft', enabled: true },
          ],
        }),
      ),
    );
    renderApp('/auth/login', { from: '/dashboard/billing' });

    const google = await screen.findByTestId('oauth-google');
    expect(google.getAttribute('href')).toBe(
      '/api/v1/auth/oauth/google/start?redirect=%2Fdashboard%2Fbilling',
    );
    expect(google.textContent).toBe('Continue with Google');
    expect(screen.getByTestId('oauth-microsoft')).toBeTruthy();
    expect(screen.queryByTestId('oauth-github')).toBeNull();
  });
});

describe('subuser sign-in', () => {
  beforeEach(() => {
    document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
    features.all = true;
  });
  afterEach(() => {
    features.all = false;
  });

  it('is offered beside the owner’s sign-in now that subusers have shipped', async () => {
    features.all = false;
    renderApp('/auth/login');
    await screen.findByTestId('login-email');
    expect(screen.getByTestId('login-subuser-toggle')).toBeTruthy();
  });

  async function fillSubuser(fields: {
    username?: string;
    serviceId?: string;
    password?: string;
    code?: string;
  }) {
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('login-subuser-toggle'));
    if (fields.username) await user.type(screen.getByTestId('subuser-username'), fields.username);
    if (fields.serviceId) await user.type(screen.getByTestId('subuser-service-id'), fields.serviceId);
    if (fields.password) await user.type(screen.getByTestId('subuser-password'), fields.password);
    if (fields.code) await user.type(screen.getByTestId('subuser-two-factor'), fields.code);
    await user.click(screen.getByTestId('subuser-remember'));
    await user.click(screen.getByTestId('subuser-login-submit'));
  }

  it('switches to username, service ID, 2FA code and remember me, and checks them', async () => {
    renderApp('/auth/login');

    await fillSubuser({ password: 'x', code: '123' });

    expect(screen.getByTestId('login-subuser-toggle').getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByTestId('login-email')).toBeNull();
    expect(screen.getByTestId('subuser-username-error').textContent).toBe('This field is required');
    expect(screen.getByTestId('subuser-service-id-error').textContent).toBe('This field is required');
    expect(screen.getByTestId('subuser-two-factor-error').textContent).toBe(
      'Enter the 6-digit code from your authenticator app, or a backup code',
    );
  });

  it('signs in: keeps the subuser’s token apart from the owner’s and opens the subuser’s backups', async () => {
    let received: unknown = null;
    const serviceId = '6a2940b2-876d-449e-b9b4-a21cbc36dc65';
    server.use(
      http.post('/api/v1/subusers/auth/login', async ({ request }) => {
        received = await request.json();
        return HttpResponse.json({
          access_token: 'sus_token-of-the-subuser',
          token_type: 'bearer',
          expires_at: '2030-01-01T00:00:00.000Z',
          subuser: {
            id: 'b1',
            username: 'subuser-backup',
            service_id: serviceId,
            service_name: 'Office',
            two_factor_enabled: true,
            expires_at: '2030-01-01T00:00:00.000Z',
          },
        });
      }),
      // The area opens and asks who is signed in; the answer is not this test's.
      http.get('/api/v1/subusers/auth/me', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    renderApp('/auth/login');

    await fillSubuser({ username: 'backup', serviceId: 'svc-12', password: 'Secret123', code: '123456' });

    expect(await screen.findByText('Opening your backups…')).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEYS.subuserToken)).toBe('sus_token-of-the-subuser');
    expect(received).toMatchObject({
      service_id: 'svc-12',
      username: 'backup',
      password: 'Secret123',
      two_factor_code: '123456',
      remember_me: true,
      device_name: expect.any(String) as unknown,
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it.each([
    ['two_factor_required', 'Two-factor authentication is required'],
    ['invalid_verification_code', 'Invalid verification code'],
  ])('shows the message for %s', async (detail, expected) => {
    server.use(
      http.post('/api/v1/subusers/auth/login', () =>
        HttpResponse.json({ detail, message: 'x' }, { status: 401 }),
      ),
    );
    renderApp('/auth/login');

    await fillSubuser({ username: 'backup', serviceId: 'svc-12', password: 'Secret123' });

    expect((await screen.findByTestId('subuser-login-error')).textContent).toBe(expected);
  });
});
