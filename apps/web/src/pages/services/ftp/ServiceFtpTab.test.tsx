import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../i18n/language.ts';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import {
  ftpHandlers,
  ftpPath,
  makeFtpSettings,
  makeFtpStatus,
  makeFtpUser,
} from '../../../test/ftp-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

const FTP_TAB = `/dashboard/services/${SERVICE_ID}/ftp`;
const ADVANCED_TAB = `/dashboard/services/${SERVICE_ID}/ftp-advanced`;
const BOB = makeFtpUser({ name: 'bob', enabled: false, permissions: 'read_only', active: false });

loadServicePages(
  () => import('./ServiceFtpTab.tsx'),
  () => import('./ServiceFtpAdvancedTab.tsx'),
);

beforeEach(() => signIn({ handlers: workspaceHandlers() }));

describe('the FTP tab', () => {
  it('is in the tab bar, and shows the host and ports to copy, the SFTP line and the users with their rights', async () => {
    server.use(
      ...ftpHandlers({
        users: [makeFtpUser({ sessions: 2 }), BOB],
        status: makeFtpStatus({ users: 1, users_total: 2, sessions: 2, tls_required: true }),
      }),
    );
    renderApp(FTP_TAB);
    expect((await screen.findByTestId('service-tab-ftp')).textContent).toBe('FTP');
    expect(screen.getByTestId('service-tab-ftp-advanced').textContent).toBe('Advanced FTP');
    expect((await screen.findByTestId('ftp-host')).textContent).toBe('127.0.10.7');
    expect(screen.getByTestId('ftp-port').textContent).toBe('21');
    expect(screen.getByTestId('ftp-live').textContent).toBe('Yes: FTP clients connect at this address');
    expect(screen.getByTestId('ftp-mode').textContent).toBe('Passive, data ports 30000–30099');
    expect(screen.getByTestId('ftp-tls').textContent).toContain('TLS required');
    expect(screen.getByTestId('ftp-users-count').textContent).toBe('1 of 2');
    expect(await screen.findByTestId('sftp-command')).toHaveProperty(
      'textContent',
      'sftp -P 22 alice@127.0.10.7',
    );

    const alice = await screen.findByTestId('ftp-user-alice');
    expect(within(alice).getByTestId<HTMLInputElement>('ftp-user-alice-enabled').checked).toBe(true);
    expect(within(alice).getByTestId<HTMLSelectElement>('ftp-user-alice-permissions').value).toBe(
      'read_write',
    );
    expect(within(alice).getByTestId('ftp-user-alice-sessions').textContent).toBe('2');
    const bob = screen.getByTestId('ftp-user-bob');
    expect(within(bob).getByTestId<HTMLInputElement>('ftp-user-bob-enabled').checked).toBe(false);
    expect(within(bob).getByTestId<HTMLSelectElement>('ftp-user-bob-permissions').value).toBe('read_only');
    expect(bob.textContent).toContain('inactive user');
    // A session starts in the user's home (the jail's /home): the tab says where the shares are.
    expect(
      screen.getByText(/starts in the user’s home folder, \/home; the shares .* one level up/),
    ).toBeTruthy();
  });

  it('copies the SFTP command line', async () => {
    server.use(...ftpHandlers());
    renderApp(FTP_TAB);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('sftp-command-copy'));
    expect(await navigator.clipboard.readText()).toBe('sftp -P 22 alice@127.0.10.7');
    expect(screen.getByTestId('sftp-command-copy').textContent).toBe('Copied');
  });

  it('says a server is not needed, and why: switched off, or nobody may sign in, in both languages', async () => {
    server.use(
      ...ftpHandlers({
        users: [BOB],
        status: makeFtpStatus({
          users: 0,
          ftp: { enabled: false, port: 21, serving: null, live: true, reason: null },
          sftp: { enabled: true, port: 22, serving: null, live: true, reason: null },
        }),
      }),
    );
    renderApp(FTP_TAB);
    expect((await screen.findByTestId('ftp-live')).textContent).toBe(
      'Not needed: switched off in the advanced settings',
    );
    expect(screen.getByTestId('ftp-live').dataset.state).toBe('notNeeded');
    expect(screen.getByTestId('sftp-live').textContent).toBe(
      'Not needed: no user may sign in yet — it starts when the first one may',
    );
    try {
      await changeLanguage('lt', 'storage');
      await waitFor(() =>
        expect(screen.getByTestId('ftp-live').textContent).toBe(
          'Nereikalinga: išjungta išplėstiniuose nustatymuose',
        ),
      );
    } finally {
      await changeLanguage('en', 'storage');
    }
  });

  it('sets a user read-only: "Applying…" while it is sent, then the node’s progress', async () => {
    const sent: unknown[] = [];
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    let changed = false;
    server.use(...ftpHandlers());
    // Added after the defaults: msw asks the latest first.
    server.use(
      http.get(ftpPath('/users'), () =>
        HttpResponse.json({
          users: [
            changed ? makeFtpUser({ permissions: 'read_only', apply_status: 'applying' }) : makeFtpUser(),
          ],
        }),
      ),
      http.put(ftpPath('/users/alice/permissions'), async ({ request }) => {
        sent.push(await request.json());
        await answered;
        changed = true;
        return HttpResponse.json(makeFtpUser({ permissions: 'read_only', apply_status: 'applying' }));
      }),
    );
    renderApp(FTP_TAB);
    const select = await screen.findByTestId<HTMLSelectElement>('ftp-user-alice-permissions');
    fireEvent.change(select, { target: { value: 'read_only' } });
    expect(await screen.findByTestId('ftp-user-alice-busy')).toHaveProperty('textContent', 'Applying…');
    expect(select.disabled).toBe(true);
    release();
    await waitFor(() =>
      expect(screen.getByTestId('ftp-user-alice-apply').dataset.applyStatus).toBe('applying'),
    );
    expect(sent).toEqual([{ permissions: 'read_only' }]);
    expect(select.value).toBe('read_only');
  });

  it('disables a user with the toggle, and says so when it fails', async () => {
    const asked: string[] = [];
    server.use(
      ...ftpHandlers(),
      http.post(ftpPath('/users/alice/disable'), ({ request }) => {
        asked.push(request.url);
        return apiError(409, 'service_expired', 'This service has expired or is quarantined.');
      }),
    );
    renderApp(FTP_TAB);
    await userEvent.click(await screen.findByTestId('ftp-user-alice-enabled'));
    expect((await screen.findByTestId('ftp-user-alice-error')).textContent).toBe(
      'Failed to disable FTP access of alice: This service has expired or is quarantined.',
    );
    expect(asked).toHaveLength(1);
    expect(screen.getByTestId<HTMLInputElement>('ftp-user-alice-enabled').checked).toBe(true);
  });

  it('says so when the users cannot be loaded, in Lithuanian too', async () => {
    server.use(...ftpHandlers());
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      http.get(ftpPath('/users'), () => apiError(500, 'server_error', 'Vidinė klaida')),
    );
    renderApp(FTP_TAB);
    await waitFor(
      () =>
        expect(screen.getByTestId('ftp-users-error').textContent).toBe(
          'Nepavyko įkelti FTP naudotojų: Vidinė klaida',
        ),
      { timeout: 8000 },
    );
    expect(screen.getByTestId('ftp-live').textContent).toBe('Taip: FTP klientai jungiasi šiuo adresu');
  }, 15_000);
});

describe('the advanced FTP tab', () => {
  it('saves the settings as numbers, and refuses a range too small for the clients before sending', async () => {
    const sent: unknown[] = [];
    server.use(
      ...ftpHandlers(),
      http.put(ftpPath('/settings'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return HttpResponse.json(makeFtpSettings({ ...body, default: false, apply_status: 'applying' }));
      }),
    );
    renderApp(ADVANCED_TAB);
    const min = await screen.findByTestId<HTMLInputElement>('ftp-settings-passive-min');
    expect(min.value).toBe('30000');
    expect(screen.getByTestId('ftp-settings-anonymous').textContent).toBe('Anonymous FTP: always off');

    const clients = screen.getByTestId<HTMLInputElement>('ftp-settings-max-clients');
    await userEvent.clear(clients);
    await userEvent.type(clients, '51');
    await userEvent.click(screen.getByTestId('ftp-settings-submit'));
    expect(await screen.findByText(/two ports for each client/)).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.clear(clients);
    await userEvent.type(clients, '20');
    await userEvent.click(screen.getByTestId('ftp-settings-tls-required'));
    await userEvent.click(screen.getByTestId('ftp-settings-submit'));
    expect((await screen.findByTestId('ftp-settings-saved')).textContent).toContain('Saved.');
    expect(sent).toEqual([
      {
        ftp_enabled: true,
        sftp_enabled: true,
        passive_port_min: 30000,
        passive_port_max: 30099,
        max_clients: 20,
        max_clients_per_user: 5,
        idle_timeout_minutes: 15,
        tls_required: true,
      },
    ]);
  });

  it('puts the server’s field errors on their fields', async () => {
    server.use(
      ...ftpHandlers(),
      http.put(ftpPath('/settings'), () =>
        apiError(422, 'validation_error', 'Some fields are not valid.', [
          {
            field: 'passive_port_min',
            code: 'ftp_port_out_of_range',
            message: 'Use a port from 1024 to 65535',
          },
        ]),
      ),
    );
    renderApp(ADVANCED_TAB);
    await userEvent.click(await screen.findByTestId('ftp-settings-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('ftp-settings-passive-min').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(screen.getByText('Use a port from 1024 to 65535')).toBeTruthy();
    expect(screen.getByTestId('ftp-settings-error').textContent).toContain('Failed to save the FTP settings');
  });

  it('refuses a port below 1024 in the form, in the reader’s language', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })), ...ftpHandlers());
    renderApp(ADVANCED_TAB);
    await waitFor(() =>
      expect(screen.getByTestId('ftp-settings-anonymous').textContent).toBe(
        'Anoniminis FTP: visada išjungtas',
      ),
    );
    const min = screen.getByTestId<HTMLInputElement>('ftp-settings-passive-min');
    await userEvent.clear(min);
    await userEvent.type(min, '80');
    await userEvent.click(screen.getByTestId('ftp-settings-submit'));
    expect(await screen.findByText('Nurodykite prievadą nuo 1024 iki 65535')).toBeTruthy();
  });
});
