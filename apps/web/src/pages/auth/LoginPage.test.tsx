import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(await screen.findByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

function answerLogin(status: number, body: JsonBodyType) {
  server.use(http.post('/api/v1/auth/login', () => HttpResponse.json(body, { status })));
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

  it('posts the form-encoded password grant, keeps the tokens and returns to where the visitor was', async () => {
    let received: URLSearchParams | null = null;
    let contentType: string | null = null;
    server.use(
      http.post('/api/v1/auth/login', async ({ request }) => {
        contentType = request.headers.get('content-type');
        received = new URLSearchParams(await request.text());
        return HttpResponse.json({ access_token: 'access', refresh_token: 'refresh', token_type: 'bearer' });
      }),
    );
    const { router } = renderApp('/dashboard/services');
    await screen.findByRole('heading', { name: 'Sign in' });

    await fillAndSubmit('ona@example.lt', 'Secret123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/services'));
    expect(contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(received ?? [])).toEqual({
      username: 'ona@example.lt',
      password: 'Secret123',
      grant_type: 'password',
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh');
  });

  it.each([
    ['invalid_credentials', 401, 'Invalid email or password'],
    ['email_not_verified', 403, 'Please verify your email address before logging in'],
    ['account_disabled', 403, 'Your account has been disabled. Please contact support.'],
    ['server_error', 500, 'Server error. Please try again later'],
    ['too_many_attempts', 429, 'Too many attempts from the server.'],
  ])('shows the spec message for %s', async (detail, status, expected) => {
    answerLogin(status, { detail, message: 'Too many attempts from the server.' });
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('says the token response is invalid when the answer carries no tokens', async () => {
    answerLogin(200, { ok: true });
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid token response');
  });

  it('falls back to the generic failure text for a bare 500', async () => {
    server.use(http.post('/api/v1/auth/login', () => new HttpResponse(null, { status: 500 })));
    renderApp('/auth/login');

    await fillAndSubmit('ona@example.lt', 'Secret123');

    expect((await screen.findByRole('alert')).textContent).toBe('Server error. Please try again later');
  });
});
