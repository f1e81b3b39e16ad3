import { STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupHandlers, makeProviderSchedule } from '../../test/backup-fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { setCsrfCookie } from '../../test/workspace-fixtures.ts';

const TOKEN = 'sus_the-subusers-token';
let bearers: string[];
let loggedOut: boolean;

beforeEach(() => {
  setCsrfCookie();
  localStorage.setItem(STORAGE_KEYS.subuserToken, TOKEN);
  bearers = [];
  loggedOut = false;
  server.events.on('request:start', ({ request }) => {
    bearers.push(request.headers.get('authorization') ?? '');
  });
  server.use(
    http.get('/api/v1/subusers/auth/me', () =>
      HttpResponse.json({
        id: 'b1',
        username: 'subuser-anna',
        service_id: SERVICE_ID,
        service_name: 'Office',
        two_factor_enabled: true,
        expires_at: '2030-01-01T00:00:00.000Z',
      }),
    ),
    http.post('/api/v1/subusers/auth/logout', () => {
      loggedOut = true;
      return new HttpResponse(null, { status: 204 });
    }),
    ...backupHandlers({ schedules: [makeProviderSchedule()] }),
  );
});

afterEach(() => {
  server.events.removeAllListeners();
});

describe('the subuser area', () => {
  it('shows its service’s backups, every request carrying the subuser’s token and none the owner’s', async () => {
    renderApp('/subuser');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Backups of Office');
    await screen.findByTestId('backup-usage');
    expect(screen.queryByTestId('service-tab-samba')).toBeNull();
    await waitFor(() => expect(bearers.length).toBeGreaterThan(2));
    expect(new Set(bearers.filter(Boolean))).toEqual(new Set([`Bearer ${TOKEN}`]));
  });

  it('signs out: the session ends and its token is forgotten', async () => {
    renderApp('/subuser');
    await userEvent.click(await screen.findByTestId('subuser-sign-out'));
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.subuserToken)).toBeNull());
    expect(loggedOut).toBe(true);
  });

  it('goes back to the sign-in, subuser side, when the session has ended', async () => {
    server.use(
      http.get('/api/v1/subusers/auth/me', () =>
        HttpResponse.json(
          { detail: 'unauthorized', message: 'Please sign in to continue.' },
          { status: 401 },
        ),
      ),
    );
    renderApp('/subuser');
    expect((await screen.findByTestId('login-notice')).textContent).toBe(
      'Your subuser session ended. Please sign in again.',
    );
    expect(localStorage.getItem(STORAGE_KEYS.subuserToken)).toBeNull();
    expect(screen.getByTestId('login-subuser-toggle').getAttribute('aria-pressed')).toBe('true');
  });
});
