import { STORAGE_KEYS, type LinuxUserShare, type ServiceDisplayState } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { setCsrfCookie } from '../../test/workspace-fixtures.ts';

const SERVICE = '6a2940b2-876d-449e-b9b4-a21cbc36dc65';
const BASE = '/api/v1/api/linux-user';

const share: LinuxUserShare = {
  kind: 'smb',
  name: 'projects',
  description: 'Drawings',
  path: 'shares/projects',
  address: 'smb://198.18.12.7/projects',
  rights: 'read_write',
  via_group: null,
  connect: {
    windows: 'net use * \\\\198.18.12.7\\projects /user:ona',
    macos: 'smb://ona@198.18.12.7/projects',
    linux: 'smbclient //198.18.12.7/projects -U ona',
  },
};

let vpnAccess: boolean;
let displayState: ServiceDisplayState;
let loginBody: string | null;
beforeEach(() => {
  setCsrfCookie();
  vpnAccess = true;
  displayState = 'running';
  loginBody = null;
  server.use(
    http.post('/api/v1/auth/linux-user/login', async ({ request }) => {
      loginBody = await request.text();
      const form = new URLSearchParams(loginBody);
      return form.get('password') === 'ona-pass-123'
        ? HttpResponse.json({ access_token: 'lut_first', token_type: 'bearer', expires_in: 3600 })
        : HttpResponse.json(
            { detail: 'invalid_credentials', message: 'Incorrect username or password' },
            { status: 401 },
          );
    }),
    http.get(`${BASE}/me`, ({ request }) =>
      request.headers.get('authorization')?.startsWith('Bearer lut_')
        ? HttpResponse.json({
            username: 'ona',
            service_id: SERVICE,
            service_name: 'Office',
            groups: ['designers'],
            vpn_access: vpnAccess,
            created_at: '2026-11-28T10:00:00.000Z',
          })
        : HttpResponse.json(
            { detail: 'unauthorized', message: 'Please sign in to continue.' },
            { status: 401 },
          ),
    ),
    http.get(`${BASE}/service`, () =>
      HttpResponse.json({
        id: SERVICE,
        name: 'Office',
        status: 'active',
        display_state: displayState,
        ip_address: '198.18.12.7',
        vpn_only: false,
        valid_until: '2027-11-28T10:00:00.000Z',
      }),
    ),
    http.get(`${BASE}/shares`, () => HttpResponse.json({ shares: [share] })),
    http.post(`${BASE}/change-password`, () =>
      HttpResponse.json({
        access_token: 'lut_second',
        token_type: 'bearer',
        expires_in: 3600,
        message: 'Your password was changed.',
        applied_to: ['smb', 'ftp', 'sftp', 'ldap', 'vpn'],
      }),
    ),
  );
});

async function signIn() {
  const user = userEvent.setup();
  renderApp(`/linux-user?service=${SERVICE}`);
  expect((await screen.findByTestId<HTMLInputElement>('portal-service-id')).value).toBe(SERVICE);
  await user.type(screen.getByTestId('portal-username'), 'ona');
  await user.type(screen.getByTestId('portal-password'), 'ona-pass-123');
  await user.click(screen.getByTestId('portal-sign-in-submit'));
  await screen.findByTestId('portal-signed-in');
  return user;
}

describe('the Linux-user portal', () => {
  it('signs in with the password grant, form-encoded, and keeps only the portal’s token', async () => {
    await signIn();
    const form = new URLSearchParams(loginBody ?? '');
    expect(Object.fromEntries(form)).toEqual({
      username: 'ona',
      password: 'ona-pass-123',
      grant_type: 'password',
      client_id: SERVICE,
    });
    expect(localStorage.getItem(STORAGE_KEYS.linuxUserToken)).toBe('lut_first');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(screen.getByTestId('portal-signed-in').textContent).toBe('Signed in as ona on Office');
  });

  it('says why a sign-in was refused', async () => {
    const user = userEvent.setup();
    renderApp(`/linux-user?service=${SERVICE}`);
    await user.type(await screen.findByTestId('portal-username'), 'ona');
    await user.type(screen.getByTestId('portal-password'), 'wrong-pass');
    await user.click(screen.getByTestId('portal-sign-in-submit'));
    expect((await screen.findByTestId('portal-sign-in-error')).textContent).toBe(
      'Incorrect username or password',
    );
  });

  // Issue 36 point 2: the words and colour of the owner's services list, not the lifecycle's "active".
  it.each([
    ['stopped', 'Stopped', 'Sustabdyta', 'badge'],
    ['restarting', 'Restarting…', 'Paleidžiama iš naujo…', 'badge badge--info'],
  ] as const)('shows a %s workspace as the services list does', async (state, en, lt, className) => {
    displayState = state;
    await signIn();
    const badge = screen.getByTestId('portal-status');
    expect(badge.textContent).toBe(en);
    expect(badge.className).toBe(className);
    await changeLanguage('lt');
    await waitFor(() => expect(screen.getByTestId('portal-status').textContent).toBe(lt));
  });

  it('shows the shares with their rights and how to connect from each system', async () => {
    await signIn();
    expect(screen.getByRole('heading', { name: 'projects' })).toBeTruthy();
    expect(screen.getByTestId('portal-share-smb-projects-rights').textContent).toBe('Read and write');
    expect(screen.getByTestId('portal-share-smb-projects-linux').textContent).toBe(share.connect.linux);
    expect(screen.getByTestId('portal-share-smb-projects-windows').textContent).toBe(share.connect.windows);
    expect(screen.getByTestId('portal-share-smb-projects-linux-copy').textContent).toBe('Copy');
    expect(screen.getByTestId('portal-vpn-download')).toBeTruthy();
  });

  it('changes the password: a mismatch on its field, then the new token kept and where it applied', async () => {
    const user = await signIn();
    await user.type(screen.getByTestId('portal-current-password'), 'ona-pass-123');
    await user.type(screen.getByTestId('portal-new-password'), 'brand-new-1');
    await user.type(screen.getByTestId('portal-new-password-confirm'), 'brand-new-2');
    await user.click(screen.getByTestId('portal-password-submit'));
    expect((await screen.findByTestId('portal-new-password-confirm-error')).textContent).toBe(
      'Passwords do not match',
    );
    await user.clear(screen.getByTestId('portal-new-password-confirm'));
    await user.type(screen.getByTestId('portal-new-password-confirm'), 'brand-new-1');
    await user.click(screen.getByTestId('portal-password-submit'));
    expect((await screen.findByTestId('portal-password-changed')).textContent).toBe(
      'Your password was changed. Applied to: SMB, FTP, SFTP, LDAP, VPN',
    );
    expect(localStorage.getItem(STORAGE_KEYS.linuxUserToken)).toBe('lut_second');
  });

  it('says there is no VPN access when there is none', async () => {
    vpnAccess = false;
    await signIn();
    expect(screen.getByTestId('portal-vpn-none')).toBeTruthy();
    expect(screen.queryByTestId('portal-vpn-download')).toBeNull();
  });

  it('brings the sign-in back when the token is no longer taken', async () => {
    localStorage.setItem(STORAGE_KEYS.linuxUserToken, 'not-a-portal-token');
    renderApp('/linux-user');
    expect(await screen.findByText('Your session ended. Please sign in again.')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.linuxUserToken)).toBeNull());
  });
});
