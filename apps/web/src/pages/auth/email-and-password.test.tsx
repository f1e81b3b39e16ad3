// Verify email, forgotten password and password reset (spec §2, §7, §8).
import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { tokenAnswer, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('verify email', () => {
  it('verifies the token from the link once and offers to sign in', async () => {
    const tokens: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/verify-email', async ({ request }) => {
        tokens.push(await request.json());
        return HttpResponse.json({ message: 'Email verified' });
      }),
    );
    renderApp('/auth/verify-email?token=abc123');

    expect(await screen.findByTestId('verify-email-success')).toBeTruthy();
    expect(screen.getByTestId('verify-email-sign-in').getAttribute('href')).toBe('/auth/login');
    expect(tokens).toEqual([{ token: 'abc123' }]);
  });

  it('says what the server said, such as a password still to be chosen from the mailed link', async () => {
    const message =
      'Your email address is verified. It was registered more than once with different passwords, so none was kept: we sent you a link to choose your password.';
    server.use(http.post('/api/v1/auth/verify-email', () => HttpResponse.json({ message })));
    renderApp('/auth/verify-email?token=abc123');

    expect((await screen.findByTestId('verify-email-success-message')).textContent).toBe(message);
  });

  it('shows the spec message when the link is invalid or expired, in both languages', async () => {
    server.use(
      http.post('/api/v1/auth/verify-email', () =>
        HttpResponse.json({ detail: 'verification_link_invalid', message: 'x' }, { status: 400 }),
      ),
    );
    renderApp('/auth/verify-email?token=old');

    expect((await screen.findByTestId('verify-email-error')).textContent).toBe(
      'Failed to verify your email. The verification link may have expired or is invalid.',
    );
    await changeLanguage('lt');
    await waitFor(() =>
      expect(screen.getByTestId('verify-email-error').textContent).toBe(
        'Nepavyko patvirtinti el. pašto. Patvirtinimo nuoroda gali būti pasibaigusi arba netinkama.',
      ),
    );
    // A new link can be asked for right there.
    expect(screen.getByTestId('verify-email-email')).toBeTruthy();
  });

  it('without a token: says where the link went and sends it again', async () => {
    const resent: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/resend-verification', async ({ request }) => {
        resent.push(await request.json());
        return HttpResponse.json({ message: 'If the address needs it, a link was sent.' });
      }),
    );
    renderApp('/auth/verify-email', { email: 'ona@example.lt' });

    expect((await screen.findByTestId('verify-email-sent-to')).textContent).toBe(
      'We sent a verification link to ona@example.lt. Open it to activate your account.',
    );
    await userEvent.click(screen.getByTestId('verify-email-resend'));

    expect(await screen.findByTestId('verify-email-resent')).toBeTruthy();
    expect(resent).toEqual([{ email: 'ona@example.lt' }]);
  });

  it('asks for the address when it does not know it, and reports throttling', async () => {
    server.use(
      http.post('/api/v1/auth/resend-verification', () =>
        HttpResponse.json(
          { detail: 'too_many_attempts', message: 'Too many attempts. Please wait a moment and try again.' },
          { status: 429, headers: { 'Retry-After': '60' } },
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp('/auth/verify-email');

    await user.click(await screen.findByTestId('verify-email-resend'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    await user.type(screen.getByTestId('verify-email-email'), 'ona@example.lt');
    await user.click(screen.getByTestId('verify-email-resend'));

    expect((await screen.findByTestId('verify-email-resend-error')).textContent).toBe(
      'Too many attempts. Please wait a moment and try again. Try again in 1 minute.',
    );
  });
});

describe('forgot password', () => {
  it('gives the same answer whether or not the account exists', async () => {
    const asked: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/request-password-reset', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    const user = userEvent.setup();
    renderApp('/auth/forgot-password');

    await user.type(await screen.findByTestId('forgot-password-email'), 'nobody@example.lt');
    await user.click(screen.getByTestId('forgot-password-submit'));

    expect((await screen.findByTestId('forgot-password-sent')).textContent).toContain(
      'If an account exists for nobody@example.lt, we have sent it a link to reset the password.',
    );
    expect(asked).toEqual([{ email: 'nobody@example.lt' }]);
  });

  it('checks the address first', async () => {
    const user = userEvent.setup();
    renderApp('/auth/forgot-password');

    await user.type(await screen.findByTestId('forgot-password-email'), 'nobody@');
    await user.click(screen.getByTestId('forgot-password-submit'));

    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
  });
});

describe('reset password', () => {
  it('sets the new password, keeps the tokens and lands signed in on the dashboard', async () => {
    const received: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/reset-password', async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json(tokenAnswer('fresh-access', 'fresh-refresh'));
      }),
      userHandler(),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/auth/reset-password?token=reset-1');

    await user.type(await screen.findByTestId('reset-password-password'), 'NewSecret1');
    await user.type(screen.getByTestId('reset-password-confirm'), 'NewSecret1');
    await user.click(screen.getByTestId('reset-password-submit'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/services'));
    expect(received).toEqual([{ token: 'reset-1', password: 'NewSecret1' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('fresh-access');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('fresh-refresh');
  });

  it('checks the password rules and the confirmation', async () => {
    const user = userEvent.setup();
    renderApp('/auth/reset-password?token=reset-1');

    await user.type(await screen.findByTestId('reset-password-password'), 'weakpass');
    await user.type(screen.getByTestId('reset-password-confirm'), 'different');
    await user.click(screen.getByTestId('reset-password-submit'));

    expect(await screen.findByText('Password must contain an uppercase letter')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
  });

  it('shows the spec message for an invalid or expired link, with the way to a new one', async () => {
    server.use(
      http.post('/api/v1/auth/reset-password', () =>
        HttpResponse.json({ detail: 'reset_link_invalid', message: 'x' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/auth/reset-password?token=used');

    await user.type(await screen.findByTestId('reset-password-password'), 'NewSecret1');
    await user.type(screen.getByTestId('reset-password-confirm'), 'NewSecret1');
    await user.click(screen.getByTestId('reset-password-submit'));

    expect((await screen.findByTestId('reset-password-error')).textContent).toContain(
      'Failed to reset password. The link may have expired or is invalid.',
    );
    expect(screen.getByTestId('reset-password-request-new').getAttribute('href')).toBe(
      '/auth/forgot-password',
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('explains that the page needs the emailed link when there is no token', async () => {
    renderApp('/auth/reset-password');

    expect(await screen.findByTestId('reset-password-missing-token')).toBeTruthy();
  });
});
