// Settings self-service: profile, email change, password change, sessions, and the page the
// email-change link opens.
import { CSRF_COOKIE, type AccountSession, type User } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, settingsOf, storeSession } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

const THIS_SESSION: AccountSession = {
  id: '11111111-1111-4111-8111-111111111111',
  current: true,
  method: 'password',
  ip: '127.0.0.1',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  browser: 'Firefox',
  os: 'Linux',
  created_at: '2026-03-01T08:00:00.000Z',
  last_used_at: new Date().toISOString(),
};
const PHONE_SESSION: AccountSession = {
  id: '22222222-2222-4222-8222-222222222222',
  current: false,
  method: 'password',
  ip: '192.0.2.44',
  user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1',
  browser: 'Safari',
  os: 'iOS',
  created_at: '2026-02-20T18:30:00.000Z',
  last_used_at: '2026-02-21T07:00:00.000Z',
};

interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

/** A signed-in owner whose API records every change it is asked for. */
function signedIn(options: { user?: User; sessions?: AccountSession[] } = {}) {
  storeSession();
  let user = options.user ?? makeUser();
  let sessions = options.sessions ?? [THIS_SESSION, PHONE_SESSION];
  const calls: Recorded[] = [];
  const record = async (request: Request) => {
    const path = new URL(request.url).pathname;
    const body = request.method === 'DELETE' ? null : ((await request.json()) as Record<string, unknown>);
    calls.push({ method: request.method, path, body });
    return body ?? {};
  };
  server.use(
    http.get('/api/v1/users/me', () => HttpResponse.json(user)),
    http.put('/api/v1/users/me', async ({ request }) => {
      const body = await record(request);
      user = { ...user, ...(body as Partial<User>) };
      return HttpResponse.json(user);
    }),
    http.get('/api/v1/settings/', () => HttpResponse.json(settingsOf(user))),
    http.get('/api/v1/auth/sessions', () => HttpResponse.json({ sessions })),
    http.delete('/api/v1/auth/sessions/:id', async ({ request, params }) => {
      await record(request);
      sessions = sessions.filter((session) => session.id !== params.id);
      return HttpResponse.json({ message: 'The session is signed out.' });
    }),
    http.post('/api/v1/auth/change-password', async ({ request }) => {
      await record(request);
      sessions = sessions.filter((session) => session.current);
      return HttpResponse.json({ message: 'Your password is changed.' });
    }),
    http.post('/api/v1/auth/change-email', async ({ request }) => {
      const body = await record(request);
      return HttpResponse.json({
        message: 'sent',
        new_email: String(body.new_email).toLowerCase(),
        expires_at: '2026-03-02T08:00:00.000Z',
      });
    }),
  );
  return calls;
}

const fieldRefusal = (detail: string, field: string, message: string, status = 422) =>
  HttpResponse.json({ detail, message, errors: [{ field, code: detail, message }] }, { status });

async function openSettings() {
  renderApp('/dashboard/settings');
  await screen.findByTestId('settings-profile-form');
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('settings: profile', () => {
  it('edits the name, phone and address and saves them to the account', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    await user.clear(screen.getByTestId('settings-first-name'));
    await user.type(screen.getByTestId('settings-first-name'), 'Rūta');
    await user.type(screen.getByTestId('settings-phone'), '+370 600 00000');
    await user.type(screen.getByTestId('settings-street'), 'Gedimino pr. 1');
    await user.type(screen.getByTestId('settings-city'), 'Vilnius');
    await user.type(screen.getByTestId('settings-postal-code'), 'LT-01103');
    await user.click(screen.getByTestId('settings-profile-save'));

    expect(await screen.findByTestId('settings-profile-saved')).toBeTruthy();
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/v1/users/me',
        body: {
          first_name: 'Rūta',
          last_name: 'Petraitė',
          phone: '+370 600 00000',
          address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: 'LT-01103' },
        },
      },
    ]);
    // The header follows the saved name.
    await waitFor(() => expect(screen.getByTestId('header-user-name').textContent).toContain('Rūta'));
  });

  it('checks the name before sending anything', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    await user.clear(screen.getByTestId('settings-last-name'));
    await user.click(screen.getByTestId('settings-profile-save'));

    expect((await screen.findByTestId('settings-last-name-error')).textContent).toBe(
      'This field is required',
    );
    expect(calls).toEqual([]);
  });

  it('refuses a phone that is not one, on its field, and sends nothing', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    await user.type(screen.getByTestId('settings-phone'), 'abc');
    await user.click(screen.getByTestId('settings-profile-save'));

    expect((await screen.findByTestId('settings-phone-error')).textContent).toBe(
      'Enter a phone number: 6 to 20 digits, with spaces, +, - or parentheses if you like',
    );
    expect(calls).toEqual([]);
  });
});

describe('settings: email address', () => {
  it('asks for a link to the new address with the current password, and says the address changes when it is opened', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    await user.type(screen.getByTestId('settings-new-email'), 'Naujas@Example.LT');
    await user.type(screen.getByTestId('settings-email-password'), 'Correct-Horse-7');
    await user.click(screen.getByTestId('settings-email-submit'));

    const sent = await screen.findByTestId('settings-email-sent');
    expect(sent.textContent).toContain('We sent a link to naujas@example.lt');
    expect(sent.textContent).toContain('until then you keep signing in with ona@example.lt');
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/auth/change-email',
        body: { new_email: 'Naujas@Example.LT', current_password: 'Correct-Horse-7' },
      },
    ]);
    // Nothing changed yet.
    expect(screen.getByTestId('settings-account-email').textContent).toBe('ona@example.lt');
  });

  it('puts a wrong password and a taken address on their fields', async () => {
    signedIn();
    const user = userEvent.setup();
    await openSettings();
    server.use(
      http.post('/api/v1/auth/change-email', () =>
        fieldRefusal('invalid_current_password', 'current_password', 'The current password is not right'),
      ),
    );
    await user.type(screen.getByTestId('settings-new-email'), 'naujas@example.lt');
    await user.type(screen.getByTestId('settings-email-password'), 'Wrong-1a');
    await user.click(screen.getByTestId('settings-email-submit'));
    expect((await screen.findByTestId('settings-email-password-error')).textContent).toBe(
      'The current password is not right',
    );

    server.use(
      http.post('/api/v1/auth/change-email', () =>
        fieldRefusal(
          'email_taken',
          'new_email',
          'This email address is already used by another account',
          409,
        ),
      ),
    );
    await user.click(screen.getByTestId('settings-email-submit'));
    expect((await screen.findByTestId('settings-new-email-error')).textContent).toBe(
      'This email address is already used by another account',
    );
    expect(screen.queryByTestId('settings-email-sent')).toBeNull();
  });

  it('tells an account without a password how to get one first', async () => {
    signedIn({ user: makeUser({ has_password: false }) });
    await openSettings();

    expect(screen.getByTestId('settings-email-no-password').textContent).toContain('Forgot password?');
    expect(screen.queryByTestId('settings-email-form')).toBeNull();
    expect(screen.queryByTestId('settings-password-form')).toBeNull();
  });
});

describe('settings: password', () => {
  it('changes the password with the current one and shows that other sessions ended', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();
    expect(await screen.findByTestId(`settings-session-${PHONE_SESSION.id}`)).toBeTruthy();

    await user.type(screen.getByTestId('settings-current-password'), 'Correct-Horse-7');
    await user.type(screen.getByTestId('settings-new-password'), 'Battery-Staple-9');
    await user.type(screen.getByTestId('settings-confirm-password'), 'Battery-Staple-9');
    await user.click(screen.getByTestId('settings-password-submit'));

    expect((await screen.findByTestId('settings-password-changed')).textContent).toBe(
      'Your password is changed. Every other session was signed out.',
    );
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/auth/change-password',
        body: { current_password: 'Correct-Horse-7', new_password: 'Battery-Staple-9' },
      },
    ]);
    expect(screen.getByTestId<HTMLInputElement>('settings-current-password').value).toBe('');
    // The sessions list is read again: only this one is left.
    await waitFor(() => expect(screen.queryByTestId(`settings-session-${PHONE_SESSION.id}`)).toBeNull());
    expect(screen.getByTestId('settings-sessions-only')).toBeTruthy();
  });

  it('checks the rules and the confirmation before sending, and shows a wrong current password on its field', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    await user.type(screen.getByTestId('settings-current-password'), 'Wrong-1a');
    await user.type(screen.getByTestId('settings-new-password'), 'Battery-Staple-9');
    await user.type(screen.getByTestId('settings-confirm-password'), 'Battery-Staple-8');
    await user.click(screen.getByTestId('settings-password-submit'));
    expect((await screen.findByTestId('settings-confirm-password-error')).textContent).toBe(
      'Passwords do not match',
    );
    expect(calls).toEqual([]);

    server.use(
      http.post('/api/v1/auth/change-password', () =>
        fieldRefusal('invalid_current_password', 'current_password', 'The current password is not right'),
      ),
    );
    await user.clear(screen.getByTestId('settings-confirm-password'));
    await user.type(screen.getByTestId('settings-confirm-password'), 'Battery-Staple-9');
    await user.click(screen.getByTestId('settings-password-submit'));
    expect((await screen.findByTestId('settings-current-password-error')).textContent).toBe(
      'The current password is not right',
    );
    expect(screen.queryByTestId('settings-password-changed')).toBeNull();
  });
});

describe('settings: sessions', () => {
  it('lists each session with its device, IP and times, this one marked and the others signed out one by one', async () => {
    const calls = signedIn();
    const user = userEvent.setup();
    await openSettings();

    const mine = await screen.findByTestId(`settings-session-${THIS_SESSION.id}`);
    expect(mine.textContent).toContain('Firefox on Linux');
    expect(mine.textContent).toContain('This session');
    expect(mine.textContent).toContain('127.0.0.1');
    expect(mine.textContent).toContain('just now');
    expect(within(mine).queryByRole('button')).toBeNull();
    const phone = screen.getByTestId(`settings-session-${PHONE_SESSION.id}`);
    expect(phone.textContent).toContain('Safari on iOS');
    expect(phone.textContent).toContain('192.0.2.44');
    expect(phone.textContent).toContain('Feb 20, 2026');
    expect(phone.textContent).not.toContain('This session');

    await user.click(within(phone).getByRole('button', { name: 'Sign out: Safari on iOS' }));

    expect(await screen.findByTestId('settings-session-signed-out')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId(`settings-session-${PHONE_SESSION.id}`)).toBeNull());
    expect(calls).toEqual([
      { method: 'DELETE', path: `/api/v1/auth/sessions/${PHONE_SESSION.id}`, body: null },
    ]);
  });

  it('says when a session could not be signed out', async () => {
    signedIn();
    server.use(
      http.delete('/api/v1/auth/sessions/:id', () =>
        HttpResponse.json(
          { detail: 'session_not_found', message: 'This session has already ended or does not exist.' },
          { status: 404 },
        ),
      ),
    );
    const user = userEvent.setup();
    await openSettings();

    await user.click(await screen.findByTestId(`settings-session-sign-out-${PHONE_SESSION.id}`));

    expect((await screen.findByTestId('settings-session-error')).textContent).toBe(
      'This session has already ended or does not exist.',
    );
  });
});

describe('the email-change link', () => {
  it('confirms the new address with the token from the link', async () => {
    const posted: unknown[] = [];
    server.use(
      http.post('/api/v1/auth/confirm-email-change', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({
          email: 'naujas@example.lt',
          message: 'Your account now uses naujas@example.lt. Sign in with this address from now on.',
        });
      }),
    );

    renderApp('/auth/confirm-email?token=abc123');

    expect((await screen.findByTestId('confirm-email-message')).textContent).toBe(
      'Your account now uses naujas@example.lt. Sign in with this address from now on.',
    );
    expect(posted).toEqual([{ token: 'abc123' }]);
    expect(screen.getByTestId('confirm-email-next').getAttribute('href')).toBe('/auth/login');
  });

  it('says why a used or expired link changed nothing', async () => {
    server.use(
      http.post('/api/v1/auth/confirm-email-change', () =>
        HttpResponse.json(
          {
            detail: 'email_change_link_invalid',
            message:
              'Failed to change your email. The link may have expired, been used already or been replaced by a newer one.',
          },
          { status: 400 },
        ),
      ),
    );

    renderApp('/auth/confirm-email?token=used');

    expect(await screen.findByTestId('confirm-email-failed')).toBeTruthy();
    expect(screen.getByTestId('confirm-email-error').textContent).toContain('The link may have expired');
  });
});
