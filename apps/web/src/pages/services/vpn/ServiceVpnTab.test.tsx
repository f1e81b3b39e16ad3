import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { workspaceEn } from '../../../i18n/workspace.en.ts';
import { workspaceLt } from '../../../i18n/workspace.lt.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { catchDownloads } from '../../../test/downloads.ts';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import {
  GB,
  makeTraffic,
  makeVpnSession,
  makeVpnStatus,
  makeVpnUser,
  MB,
  vpnHandlers,
  vpnPath,
} from '../../../test/vpn-fixtures.ts';
import { apiError, inTurn, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { vpnTabEn } from './messages/vpn.en.ts';
import { vpnTabLt } from './messages/vpn.lt.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';
import { openDialog, retype } from '../../../test/press.ts';

const VPN_TAB = `/dashboard/services/${SERVICE_ID}/vpn`;
const ALICE = makeVpnUser({
  online: true,
  real_ip: '127.0.20.5',
  virtual_ip: '10.8.0.2',
  connected_since: new Date(Date.now() - 3 * 60_000).toISOString(),
  traffic_limit_bytes: 5 * GB,
  traffic_used_bytes: GB,
});
const BOB = makeVpnUser({
  id: '5e2c7a90-1f3b-4d6e-8a9c-0b1d2e3f4a5b',
  username: 'bob',
  full_name: '',
  email: '',
  enabled: false,
});

loadServicePages(() => import('./ServiceVpnTab.tsx'));

beforeEach(() => signIn({ handlers: workspaceHandlers() }));

async function openCreate() {
  return openDialog('vpn-users-add', 'vpn-user-dialog');
}

describe('the VPN tab', () => {
  it('is in the tab bar once shipped, and shows the server, the users with their online dot and traffic bar', async () => {
    server.use(...vpnHandlers({ users: [ALICE, BOB], sessions: [makeVpnSession()] }));
    renderApp(VPN_TAB);
    expect((await screen.findByTestId('service-tab-vpn')).textContent).toBe('VPN');
    expect((await screen.findByTestId('vpn-address')).textContent).toBe('127.0.10.7:1194/udp');
    expect(screen.getByTestId('vpn-tunnel-address').textContent).toBe('10.8.0.1');
    expect(screen.getByTestId('vpn-tunnel-address').parentElement?.textContent).toContain(
      'shares not bound to the public IP',
    );
    expect(screen.getByTestId('vpn-live').textContent).toBe('Yes: VPN clients connect at this address');

    const alice = await screen.findByTestId('vpn-user-alice');
    expect(within(alice).getByTestId('vpn-user-alice-status').textContent).toBe('Enabled');
    const online = within(alice).getByTestId('vpn-user-alice-online');
    expect(online.dataset.online).toBe('true');
    expect(online.textContent).toBe('Online');
    expect(alice.textContent).toContain('from 127.0.20.5:51234 as 10.8.0.2, since 5 minutes ago');
    const bar = within(alice).getByRole('meter', { name: 'Traffic of alice this month' });
    expect(bar.getAttribute('aria-valuetext')).toBe('1 GB of 5 GB');
    expect(bar.getAttribute('aria-valuenow')).toBe(String(GB));
    expect(within(alice).getByTestId('vpn-user-alice-disconnect')).toBeTruthy();
    // The limit is monthly and resets by itself: the section says so.
    expect(screen.getByTestId('vpn-users').textContent).toContain('reset by themselves on the 1st');

    const bob = screen.getByTestId('vpn-user-bob');
    expect(within(bob).getByTestId('vpn-user-bob-status').textContent).toBe('Disabled');
    expect(within(bob).getByTestId('vpn-user-bob-online').dataset.online).toBe('false');
    expect(within(bob).getByTestId('vpn-user-bob-traffic').textContent).toBe('0 B, no limit');
    expect(within(bob).queryByRole('meter')).toBeNull();
    expect(within(bob).queryByTestId('vpn-user-bob-disconnect')).toBeNull();
    expect(within(bob).getByTestId('vpn-user-bob-toggle').textContent).toContain('Enable');
    expect(screen.getByTestId('vpn-users-counter').textContent).toBe('2 of 5');

    const session = await screen.findByTestId('vpn-session-alice');
    expect([...session.querySelectorAll('th, td')].map((cell) => cell.textContent)).toEqual([
      'alice',
      '127.0.20.5:51234',
      '10.8.0.2',
      '3 MB',
      '1.5 MB',
      '5 minutes ago',
    ]);
  });

  it('checks a new user against the contract first: bad username, short password, negative or non-numeric limit', async () => {
    let posted = 0;
    server.use(...vpnHandlers({ users: [] }));
    server.use(
      http.post(vpnPath('/users'), () => {
        posted += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderApp(VPN_TAB);
    const dialog = await openCreate();
    await userEvent.type(within(dialog).getByTestId('vpn-user-username'), 'bad name!');
    await userEvent.type(within(dialog).getByTestId('vpn-user-password'), 'short');
    await userEvent.type(within(dialog).getByTestId('vpn-user-confirm'), 'short');
    await retype(dialog, 'vpn-user-limit', '-5');
    await userEvent.click(within(dialog).getByTestId('vpn-user-submit'));

    expect((await within(dialog).findByTestId('vpn-user-username-error')).textContent).toMatch(
      /letters, numbers/i,
    );
    expect(within(dialog).getByTestId('vpn-user-password-error').textContent).toMatch(/at least 8/i);
    expect(within(dialog).getByTestId('vpn-user-limit-error').textContent).toBe(
      'The limit cannot be negative (0 for no limit)',
    );

    await retype(dialog, 'vpn-user-limit', 'lots');
    await userEvent.click(within(dialog).getByTestId('vpn-user-submit'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('vpn-user-limit-error').textContent).toBe(
        'Enter a number, e.g. 500 or 1.5 (0 for no limit)',
      ),
    );
    expect(posted).toBe(0);
  });

  it('creates a user with its limit in bytes, and puts the server’s field refusals on the fields', async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    server.use(...vpnHandlers({ users: [] }));
    server.use(
      http.post(vpnPath('/users'), async ({ request }) => {
        bodies.push(await request.json());
        if (refuse) {
          return apiError(422, 'validation_error', 'Some fields are not valid.', [
            { field: 'username', code: 'vpn_user_exists', message: 'This VPN user exists already' },
            { field: 'traffic_limit_bytes', code: 'too_big', message: 'Too much for this plan' },
          ]);
        }
        return HttpResponse.json(makeVpnUser({ username: 'carol', apply_status: 'applying' }), {
          status: 201,
        });
      }),
    );
    renderApp(VPN_TAB);
    const dialog = await openCreate();
    await userEvent.type(within(dialog).getByTestId('vpn-user-username'), 'carol');
    await userEvent.type(within(dialog).getByTestId('vpn-user-password'), 'Correct-horse-1');
    await userEvent.type(within(dialog).getByTestId('vpn-user-confirm'), 'Correct-horse-1');
    await userEvent.type(within(dialog).getByTestId('vpn-user-full-name'), 'Carol Example');
    await retype(dialog, 'vpn-user-limit', '1,5');
    await userEvent.click(within(dialog).getByTestId('vpn-user-submit'));

    expect((await within(dialog).findByTestId('vpn-user-username-error')).textContent).toBe(
      'This VPN user exists already',
    );
    expect(within(dialog).getByTestId('vpn-user-limit-error').textContent).toBe('Too much for this plan');
    expect(within(dialog).getByTestId('vpn-user-save-error').textContent).toContain(
      'Failed to create VPN user',
    );

    refuse = false;
    await userEvent.selectOptions(within(dialog).getByTestId('vpn-user-limit-unit'), 'MB');
    await retype(dialog, 'vpn-user-limit', '500');
    await userEvent.click(within(dialog).getByTestId('vpn-user-submit'));
    await waitFor(() => expect(screen.queryByTestId('vpn-user-dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        username: 'carol',
        password: 'Correct-horse-1',
        full_name: 'Carol Example',
        email: '',
        enabled: true,
        traffic_limit_bytes: 1.5 * GB,
      },
      {
        username: 'carol',
        password: 'Correct-horse-1',
        full_name: 'Carol Example',
        email: '',
        enabled: true,
        traffic_limit_bytes: 500 * MB,
      },
    ]);
    expect((await screen.findByTestId('vpn-users-done')).textContent).toContain('VPN user carol was added');
  });

  it('edits a user: its limit shown in GB, sent in bytes, its username kept', async () => {
    const bodies: unknown[] = [];
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.patch(vpnPath(`/users/${ALICE.id}`), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(ALICE);
      }),
    );
    renderApp(VPN_TAB);
    const dialog = await openDialog('vpn-user-alice-edit', 'vpn-user-dialog');
    expect(within(dialog).queryByTestId('vpn-user-username')).toBeNull();
    expect(within(dialog).queryByTestId('vpn-user-password')).toBeNull();
    expect(within(dialog).getByTestId<HTMLInputElement>('vpn-user-limit').value).toBe('5');
    expect(within(dialog).getByTestId<HTMLSelectElement>('vpn-user-limit-unit').value).toBe('GB');
    await retype(dialog, 'vpn-user-limit', '0');
    await userEvent.click(within(dialog).getByTestId('vpn-user-enabled'));
    await userEvent.click(within(dialog).getByTestId('vpn-user-submit'));
    await waitFor(() => expect(screen.queryByTestId('vpn-user-dialog')).toBeNull());
    expect(bodies).toEqual([
      { full_name: 'Alice Example', email: 'alice@example.com', enabled: false, traffic_limit_bytes: 0 },
    ]);
  });

  it('revokes only after the question that says what stops working', async () => {
    let revoked = 0;
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.post(vpnPath(`/users/${ALICE.id}/revoke`), () => {
        revoked += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(VPN_TAB);
    await userEvent.click(await screen.findByTestId('vpn-user-alice-revoke'));
    let dialog = await screen.findByTestId('vpn-revoke-dialog');
    expect(dialog.textContent).toContain('stops working');
    expect(dialog.textContent).toContain('the next download gives a new configuration');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('vpn-revoke-dialog')).toBeNull());
    expect(revoked).toBe(0);

    await userEvent.click(screen.getByTestId('vpn-user-alice-revoke'));
    dialog = await screen.findByTestId('vpn-revoke-dialog');
    await userEvent.click(within(dialog).getByTestId('vpn-revoke-dialog-confirm'));
    expect((await screen.findByTestId('vpn-users-done')).textContent).toContain(
      'The configuration of alice was revoked',
    );
    expect(revoked).toBe(1);
  });

  it('ends every session after a question naming how many', async () => {
    let killed = 0;
    const sessions = [
      makeVpnSession(),
      makeVpnSession({ username: 'bob', user_id: BOB.id, real_address: '127.0.20.6:40000' }),
    ];
    server.use(...vpnHandlers({ users: [ALICE, BOB], sessions }));
    server.use(
      http.post(vpnPath('/sessions/kill-all'), () => {
        killed += 1;
        return HttpResponse.json({ disconnected: 2 });
      }),
    );
    renderApp(VPN_TAB);
    await screen.findByTestId('vpn-session-bob');
    await userEvent.click(screen.getByTestId('vpn-sessions-kill-all'));
    const dialog = await screen.findByTestId('vpn-kill-all-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('End all 2 sessions?');
    await userEvent.click(within(dialog).getByTestId('vpn-kill-all-dialog-confirm'));
    expect((await screen.findByTestId('vpn-sessions-killed')).textContent).toBe('2 sessions ended.');
    expect(killed).toBe(1);
  });

  it('tags a backup client’s session, which is none of the VPN users listed', async () => {
    const laptop = makeVpnSession({
      username: 'ona-laptop',
      user_id: '7cd3fb08-9d0e-4f2a-8b6c-8d9e0f1a2b3c',
      backup_client: true,
      real_address: '127.0.20.7:40001',
    });
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession(), laptop] }));
    renderApp(VPN_TAB);
    const session = await screen.findByTestId('vpn-session-ona-laptop');
    const tag = within(session).getByTestId('vpn-session-ona-laptop-backup-client');
    expect(tag.textContent).toBe('Backup client');
    expect(tag.closest('th')?.textContent).toBe('ona-laptopBackup client');
    expect(within(screen.getByTestId('vpn-session-alice')).getByRole('rowheader').textContent).toBe('alice');
    expect(screen.queryByTestId('vpn-user-ona-laptop')).toBeNull();
  });

  it('says the spec’s failure with the server’s words when the node is unreachable (503)', async () => {
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.post(vpnPath(`/users/${ALICE.id}/disconnect`), () =>
        apiError(503, 'node_unreachable', 'The storage node did not answer. Please try again.'),
      ),
    );
    renderApp(VPN_TAB);
    const disconnect = await screen.findByTestId<HTMLButtonElement>('vpn-user-alice-disconnect');
    await userEvent.click(disconnect);
    expect((await screen.findByTestId('vpn-users-action-error')).textContent).toBe(
      'Failed to disconnect VPN user: The storage node did not answer. Please try again.',
    );
    expect(disconnect.disabled).toBe(false);
  });

  it('shows a QR code of a one-time link for a phone, with when it expires', async () => {
    const expires = new Date(Date.now() + 5 * 60_000).toISOString();
    const url = 'http://localhost:3000/api/v1/vpn/config-links/abcdefghijklmnopqrstuvwxyz0123456789';
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.post(vpnPath(`/users/${ALICE.id}/config/link`), () =>
        HttpResponse.json({ url, expires_at: expires }),
      ),
    );
    renderApp(VPN_TAB);
    await userEvent.click(await screen.findByTestId('vpn-user-alice-phone'));
    const dialog = await screen.findByTestId('vpn-phone-dialog');
    const qr = await within(dialog).findByTestId('vpn-phone-qr');
    expect(qr.dataset.url).toBe(url);
    expect(qr.getAttribute('aria-label')).toBe('QR code of the one-time configuration link of alice');
    // A real code: at least version 4 (33 modules) for this URL, plus the quiet zone.
    expect(Number(qr.getAttribute('viewBox')?.split(' ')[2])).toBeGreaterThanOrEqual(33 + 8);
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(within(dialog).getByTestId('vpn-phone-expires').textContent).toMatch(
      /^The link works once, until /,
    );
  });

  it('downloads the .ovpn under the server’s file name', async () => {
    const saved = catchDownloads();
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.get(
        vpnPath(`/users/${ALICE.id}/config/download`),
        () =>
          new HttpResponse('client\ndev tun\nproto udp\n', {
            headers: {
              'content-type': 'application/x-openvpn-profile',
              'content-disposition': 'attachment; filename="team-drive-alice.ovpn"',
            },
          }),
      ),
    );
    renderApp(VPN_TAB);
    await userEvent.click(await screen.findByTestId('vpn-user-alice-download'));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['team-drive-alice.ovpn']));
    expect(await saved[0]?.blob?.text()).toBe('client\ndev tun\nproto udp\n');
  });

  it('says why a download failed', async () => {
    server.use(...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }));
    server.use(
      http.get(vpnPath(`/users/${ALICE.id}/config/download`), () =>
        apiError(503, 'node_unreachable', 'The storage node did not answer. Please try again.'),
      ),
    );
    renderApp(VPN_TAB);
    await userEvent.click(await screen.findByTestId('vpn-user-alice-download'));
    expect((await screen.findByTestId('vpn-users-download-error')).textContent).toBe(
      'Failed to download VPN configuration: The storage node did not answer. Please try again.',
    );
  });

  it('asks before restarting the server', async () => {
    let restarted = 0;
    server.use(...vpnHandlers());
    server.use(
      http.post(vpnPath('/restart'), () => {
        restarted += 1;
        return HttpResponse.json({ generation: 5 }, { status: 202 });
      }),
    );
    renderApp(VPN_TAB);
    const dialog = await openDialog('vpn-restart', 'vpn-restart-dialog');
    expect(restarted).toBe(0);
    await userEvent.click(within(dialog).getByTestId('vpn-restart-dialog-confirm'));
    expect((await screen.findByTestId('vpn-restart-done')).textContent).toContain('restarting');
    expect(restarted).toBe(1);
  });

  it('draws the traffic of the range chosen, with a summary for screen readers', async () => {
    server.use(...vpnHandlers({ traffic: makeTraffic('7d', 7, (day) => (day === 3 ? 2 * GB : 100 * MB)) }));
    renderApp(VPN_TAB);
    expect((await screen.findByTestId('vpn-traffic-summary')).textContent).toBe(
      'No VPN traffic in the last 24 hours.',
    );
    await userEvent.click(screen.getByTestId('vpn-traffic-range-7d'));
    await waitFor(() => expect(screen.getAllByTestId('vpn-traffic-bar')).toHaveLength(7));
    const summary = screen.getByTestId('vpn-traffic-summary');
    expect(summary.textContent).toMatch(
      /^In the last 7 days: 3\.9 GB in all, 2\.6 GB received and 1\.3 GB sent\. The busiest was Jan 6, with 3 GB\.$/,
    );
    expect(screen.getByRole('img', { name: summary.textContent ?? '' })).toBeTruthy();
    expect(screen.getByTestId('vpn-traffic-range-7d').getAttribute('aria-pressed')).toBe('true');
  });

  it('asks for the sessions again every 2 s while the tab is open: a new one is on screen within 5 s', async () => {
    server.use(...vpnHandlers());
    server.use(
      http.get(
        vpnPath('/sessions'),
        inTurn([
          { sessions: [], reported_at: null },
          { sessions: [makeVpnSession()], reported_at: null },
        ]),
      ),
    );
    renderApp(VPN_TAB);
    expect((await screen.findByTestId('vpn-sessions-empty')).textContent).toBe('No one is connected.');
    expect(screen.getByTestId('vpn-sessions').textContent).toContain('refreshed every 2 seconds');
    expect(screen.getByTestId('vpn-user-alice-online').dataset.online).toBe('false');
    const empty = Date.now();
    expect(await screen.findByTestId('vpn-session-alice', {}, { timeout: 8000 })).toBeTruthy();
    // The next ask comes 2 s after the first (a busy machine adds to it, not 3 s more).
    expect(Date.now() - empty).toBeLessThan(4000);
    // The user's dot follows its session without asking for the users again.
    expect(screen.getByTestId('vpn-user-alice-online').dataset.online).toBe('true');
  }, 15_000);

  it('speaks Lithuanian', async () => {
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      ...vpnHandlers({
        users: [ALICE],
        sessions: [
          makeVpnSession(),
          makeVpnSession({
            username: 'ona-laptop',
            user_id: '7cd3fb08-9d0e-4f2a-8b6c-8d9e0f1a2b3c',
            backup_client: true,
            real_address: '127.0.20.7:40001',
          }),
        ],
      }),
    );
    server.use(
      http.post(vpnPath(`/users/${ALICE.id}/disconnect`), () =>
        apiError(503, 'service_unavailable', 'Paslauga laikinai nepasiekiama'),
      ),
    );
    renderApp(VPN_TAB);
    await waitFor(() => expect(screen.getByTestId('vpn-user-alice-online').textContent).toBe('Prisijungęs'));
    expect(screen.getByTestId('service-tab-vpn').textContent).toBe('VPN');
    expect(screen.getByTestId('vpn-session-ona-laptop-backup-client').textContent).toBe(
      'Atsarginių kopijų klientas',
    );
    await userEvent.click(screen.getByTestId('vpn-user-alice-disconnect'));
    expect((await screen.findByTestId('vpn-users-action-error')).textContent).toBe(
      'Nepavyko atjungti VPN naudotojo: Paslauga laikinai nepasiekiama',
    );
  });
});

describe('the VPN tab’s status', () => {
  it('says the server is not needed until the first VPN user, not that it is not running', async () => {
    server.use(...vpnHandlers({ users: [], status: makeVpnStatus({ users: 0, serving: null, live: true }) }));
    renderApp(VPN_TAB);
    const line = await screen.findByTestId('vpn-live');
    expect(line.textContent).toBe('Not needed: no VPN users yet — OpenVPN starts with the first one');
    expect(line.dataset.state).toBe('notNeeded');
  });
});

type VpnWords = typeof vpnTabEn.vpn;
type Words = { vpn: VpnWords; resource: typeof workspaceEn.resource; daemon: typeof workspaceEn.daemon };
const WORDS: Record<'en' | 'lt', Words> = {
  en: { vpn: vpnTabEn.vpn, resource: workspaceEn.resource, daemon: workspaceEn.daemon },
  lt: { vpn: vpnTabLt.vpn, resource: workspaceLt.resource, daemon: workspaceLt.daemon },
};

/** A change of the tab: how to start it, where its progress shows, where and what its failure says. */
interface ActionCase {
  name: string;
  method: 'post' | 'patch' | 'delete' | 'get';
  path: string;
  start: () => Promise<void>;
  /** The element whose text says the change is under way, and that text. */
  busy: [testId: string, text: (words: Words) => string];
  error: string;
  failure: (words: Words) => string;
}

const click = async (testId: string) => userEvent.click(await screen.findByTestId(testId));
const type = async (testId: string, text: string) => userEvent.type(await screen.findByTestId(testId), text);
const ALICE_PATH = `/users/${ALICE.id}`;

const ACTIONS: ActionCase[] = [
  {
    name: 'create',
    method: 'post',
    path: '/users',
    start: async () => {
      await openCreate();
      await type('vpn-user-username', 'carol');
      await type('vpn-user-password', 'Correct-horse-1');
      await type('vpn-user-confirm', 'Correct-horse-1');
      await click('vpn-user-submit');
    },
    busy: ['vpn-user-submit', (w) => w.resource.saving],
    error: 'vpn-user-save-error',
    failure: (w) => w.vpn.createFailed,
  },
  {
    name: 'edit',
    method: 'patch',
    path: ALICE_PATH,
    start: async () => {
      await click('vpn-user-alice-edit');
      await click('vpn-user-submit');
    },
    busy: ['vpn-user-submit', (w) => w.resource.saving],
    error: 'vpn-user-save-error',
    failure: (w) => w.vpn.updateFailed,
  },
  {
    name: 'reset password',
    method: 'post',
    path: `${ALICE_PATH}/reset-password`,
    start: async () => {
      await click('vpn-user-alice-password');
      await type('vpn-password-password', 'New-password-22');
      await type('vpn-password-confirm', 'New-password-22');
      await click('vpn-password-submit');
    },
    busy: ['vpn-password-submit', (w) => w.resource.saving],
    error: 'vpn-password-error',
    failure: (w) => w.vpn.passwordFailed,
  },
  {
    name: 'disable',
    method: 'patch',
    path: ALICE_PATH,
    start: () => click('vpn-user-alice-toggle'),
    busy: ['vpn-user-alice-toggle', (w) => `${w.vpn.disabling} alice`],
    error: 'vpn-users-action-error',
    failure: (w) => w.vpn.disableFailed,
  },
  {
    name: 'disconnect',
    method: 'post',
    path: `${ALICE_PATH}/disconnect`,
    start: () => click('vpn-user-alice-disconnect'),
    busy: ['vpn-user-alice-disconnect', (w) => `${w.vpn.disconnecting} alice`],
    error: 'vpn-users-action-error',
    failure: (w) => w.vpn.disconnectFailed,
  },
  {
    name: 'revoke',
    method: 'post',
    path: `${ALICE_PATH}/revoke`,
    start: async () => {
      await click('vpn-user-alice-revoke');
      await click('vpn-revoke-dialog-confirm');
    },
    busy: ['vpn-revoke-dialog-confirm', (w) => w.vpn.revoking],
    error: 'vpn-revoke-dialog-error',
    failure: (w) => w.vpn.revokeFailed,
  },
  {
    name: 'delete',
    method: 'delete',
    path: ALICE_PATH,
    start: async () => {
      await click('vpn-user-alice-delete');
      await click('vpn-user-delete-dialog-confirm');
    },
    busy: ['vpn-user-delete-dialog-confirm', (w) => w.resource.deleting],
    error: 'vpn-user-delete-dialog-error',
    failure: (w) => w.vpn.deleteFailed,
  },
  {
    name: 'download',
    method: 'get',
    path: `${ALICE_PATH}/config/download`,
    start: () => click('vpn-user-alice-download'),
    busy: ['vpn-user-alice-download', (w) => `${w.vpn.downloading} alice`],
    error: 'vpn-users-download-error',
    failure: (w) => w.vpn.downloadFailed,
  },
  {
    name: 'phone link',
    method: 'post',
    path: `${ALICE_PATH}/config/link`,
    start: () => click('vpn-user-alice-phone'),
    busy: ['vpn-phone-loading', (w) => w.vpn.phoneLoading],
    error: 'vpn-phone-error',
    failure: (w) => w.vpn.linkFailed,
  },
  {
    name: 'kill all',
    method: 'post',
    path: '/sessions/kill-all',
    start: async () => {
      await click('vpn-sessions-kill-all');
      await click('vpn-kill-all-dialog-confirm');
    },
    busy: ['vpn-kill-all-dialog-confirm', (w) => w.vpn.killing],
    error: 'vpn-kill-all-dialog-error',
    failure: (w) => w.vpn.killAllFailed,
  },
  {
    name: 'restart',
    method: 'post',
    path: '/restart',
    start: async () => {
      await click('vpn-restart');
      await click('vpn-restart-dialog-confirm');
    },
    busy: ['vpn-restart-dialog-confirm', (w) => w.vpn.restarting],
    error: 'vpn-restart-dialog-error',
    failure: (w) => w.vpn.restartFailed,
  },
  {
    name: 'reload',
    method: 'post',
    path: '/reload',
    start: () => click('vpn-reload'),
    busy: ['vpn-reload', (w) => w.daemon.reloading],
    error: 'vpn-reload-error',
    failure: (w) => w.daemon.reloadFailed.replace('{{name}}', 'OpenVPN'),
  },
];

describe('every change of the VPN tab shows its progress, then the spec’s failure', () => {
  for (const language of ['en', 'lt'] as const) {
    const words = WORDS[language];
    for (const action of ACTIONS) {
      it(`${action.name} (${language})`, async () => {
        let answer: () => void = () => undefined;
        const answered = new Promise<void>((resolve) => {
          answer = resolve;
        });
        server.use(
          userHandler(makeUser({ language })),
          ...vpnHandlers({ users: [ALICE], sessions: [makeVpnSession()] }),
          http[action.method](vpnPath(action.path), async () => {
            await answered;
            return apiError(503, 'node_unreachable', 'node: no answer');
          }),
        );
        renderApp(VPN_TAB);
        // The tab is in the reader's language and every button is ready.
        await screen.findByText(words.vpn.usersTitle);
        await waitFor(() =>
          expect(screen.getByTestId<HTMLButtonElement>('vpn-user-alice-edit').disabled).toBe(false),
        );
        await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('vpn-reload').disabled).toBe(false));
        await screen.findByTestId('vpn-session-alice');
        await action.start();
        const [busyId, busyText] = action.busy;
        await waitFor(() => expect(screen.getByTestId(busyId).textContent).toBe(busyText(words)));
        answer();
        const failure = action.failure(words);
        expect(failure).toMatch(language === 'en' ? /^Failed to / : /^Nepavyko /);
        expect((await screen.findByTestId(action.error)).textContent).toBe(`${failure}: node: no answer`);
      });
    }
  }
});
