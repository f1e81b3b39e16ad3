import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { LdapConfig, LdapStatus, LdapUserStatus } from '@debesis/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeServiceNetwork } from '../../../test/network-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

// LDAP may not have shipped in this build: this file ships it for itself.
vi.mock('@debesis/contract', async (importOriginal) =>
  (await import('../../../test/ship-features.ts')).withShipped(await importOriginal(), ['ldap']),
);

const TAB = `/dashboard/services/${SERVICE_ID}/ldap`;
const BASE = `/api/v1/ldap/services/${SERVICE_ID}/ldap`;
const DN = `dc=${SERVICE_ID},dc=debesis`;

const STATUS: LdapStatus = {
  enabled: true,
  placed: true,
  running: true,
  reason: null,
  address: '10.17.1.5',
  port: 389,
  ldaps_port: 636,
  base_dn: DN,
  base_dn_alias: 'dc=biuras,dc=debesis',
  users: 2,
  groups: 1,
  locked_users: [],
  synced_at: '2026-11-23T10:00:00.000Z',
  reported_at: '2026-11-23T10:00:00.000Z',
  apply_status: 'applied',
};
const CONFIG: LdapConfig = {
  enabled: true,
  uris: ['ldap://10.17.1.5:389', 'ldaps://10.17.1.5:636'],
  start_tls: true,
  ldaps: true,
  base_dn: DN,
  users_dn: `ou=people,${DN}`,
  groups_dn: `ou=groups,${DN}`,
  bind_dn: `cn=reader,${DN}`,
  alias: 'biuras',
  base_dn_alias: 'dc=biuras,dc=debesis',
  bind_password_set: false,
  anonymous_read: false,
  time_zone: 'Europe/Vilnius',
};
const user = (name: string, overrides: Partial<LdapUserStatus> = {}): LdapUserStatus => ({
  username: name,
  dn: `uid=${name},ou=people,${DN}`,
  active: true,
  suspended: false,
  expiry_date: null,
  expired: false,
  can_bind: true,
  locked_on_node: false,
  apply_status: 'applied',
  ...overrides,
});

let posted: Array<{ path: string; body: unknown }> = [];
let config: LdapConfig = CONFIG;

loadServicePages(() => import('./ServiceLdapTab.tsx'));

beforeEach(() => {
  posted = [];
  config = CONFIG;
  signIn();
  server.use(
    ...workspaceHandlers({}),
    http.get(`${BASE}/status`, () => HttpResponse.json(STATUS)),
    http.get(`${BASE}/config`, () => HttpResponse.json(config)),
    http.get(`${BASE}/users`, () => HttpResponse.json({ users: [user('ona'), user('jonas')] })),
    http.post(`${BASE}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(BASE.length + 1);
      const body = await request.json();
      posted.push({ path, body });
      if (path === 'bind-settings') {
        return HttpResponse.json({
          bind_dn: CONFIG.bind_dn,
          password: 'Sekret-Once-1234567890abcdefghij',
          anonymous_read: false,
          generation: 5,
        });
      }
      if (path === 'alias') {
        const { alias } = body as { alias: string | null };
        if (alias === 'taken')
          return apiError(422, 'validation_error', 'Some fields are not valid.', [
            { field: 'alias', code: 'ldap_alias_is_service_id', message: 'Tai jau yra bazinis pavadinimas' },
          ]);
        const base_dn_alias = alias === null ? null : `dc=${alias},dc=debesis`;
        config = { ...config, alias, base_dn_alias };
        return HttpResponse.json({ alias, base_dn_alias, generation: 7 });
      }
      if (path === 'bulk-update') {
        return HttpResponse.json({ operation: 'suspend', changed: 2, generation: 6, users: [] });
      }
      if (path === 'users/jonas/expiry') {
        return apiError(422, 'validation_error', 'Some fields are not valid.', [
          { field: 'expiry_date', code: 'ldap_date_past', message: 'This date is already over.' },
        ]);
      }
      return HttpResponse.json(user('ona', { suspended: true, can_bind: false }));
    }),
  );
});

describe('the LDAP tab', () => {
  it('shows the address its status names for a NAT plan, says to connect the VPN first, and says LDAP is not needed until it is on', async () => {
    server.use(
      ...workspaceHandlers({ network: makeServiceNetwork({ vpn_only: true, services_address: '10.8.0.1' }) }),
      http.get(`${BASE}/status`, () =>
        HttpResponse.json({ ...STATUS, enabled: false, running: null, address: '10.8.0.1' }),
      ),
    );
    renderApp(TAB);
    await waitFor(() => expect(screen.getByTestId('ldap-address').textContent).toBe('10.8.0.1:389 / 636'));
    expect((await screen.findByTestId('ldap-reach-vpn-only')).textContent).toContain(
      'Connect the VPN first.',
    );
    expect(screen.getByTestId('ldap-live').textContent).toBe(
      'Not needed: LDAP starts with the first change on this page (a bind password, a suspension or an expiry date)',
    );
  });

  it('copies the one-time bind password, under headings sized as on the other tabs', async () => {
    renderApp(TAB);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('ldap-rotate'));
    await user.click(await screen.findByTestId('ldap-new-password-value-copy'));
    expect(await navigator.clipboard.readText()).toBe('Sekret-Once-1234567890abcdefghij');
    expect(screen.getByTestId('ldap-new-password-value-copy').textContent).toBe('Copied');
    for (const heading of screen.getAllByRole('heading', { level: 2 })) {
      expect(heading.className).toContain('resource-section__title');
    }
  });

  it('shows the directory and how to connect, with copy buttons', async () => {
    renderApp(TAB);
    expect((await screen.findByTestId('ldap-base-dn')).textContent).toContain(DN);
    expect(screen.getByTestId('ldap-bind-dn').textContent).toContain(`cn=reader,${DN}`);
    expect(screen.getByTestId('ldap-uri-0').textContent).toContain('ldap://10.17.1.5:389');
    expect(screen.getByTestId('ldap-uri-1').textContent).toContain('ldaps://10.17.1.5:636');
    expect(screen.getByTestId('ldap-base-dn-copy')).toBeTruthy();
    expect((await screen.findByTestId('ldap-entries')).textContent).toContain('2 users, 1 groups');
  });

  it('shows the alias base DN with its copy button, changes the alias and removes it', async () => {
    renderApp(TAB);
    const user = userEvent.setup();
    expect((await screen.findByTestId('ldap-base-dn-alias')).textContent).toContain('dc=biuras,dc=debesis');
    await user.click(screen.getByTestId('ldap-base-dn-alias-copy'));
    expect(await navigator.clipboard.readText()).toBe('dc=biuras,dc=debesis');
    expect(screen.getByTestId('ldap-base-dn').textContent).toContain(DN);
    const input = screen.getByTestId<HTMLInputElement>('ldap-alias-input');
    expect(input.value).toBe('biuras');
    expect(screen.getByTestId<HTMLButtonElement>('ldap-alias-save').disabled).toBe(true);

    // A typo is named before anything is sent, in the reader's language.
    await user.clear(input);
    await user.type(input, 'Biuro failai');
    await user.click(screen.getByTestId('ldap-alias-save'));
    expect((await screen.findByTestId('ldap-alias-error')).textContent).toBe(
      'Use 1 to 63 lower-case letters, numbers and hyphens, not starting or ending with a hyphen',
    );
    expect(posted).toEqual([]);
    // The server's field error shows under the field.
    await user.clear(input);
    await user.type(input, 'taken');
    await user.click(screen.getByTestId('ldap-alias-save'));
    expect((await screen.findByTestId('ldap-alias-error')).textContent).toBe(
      'Tai jau yra bazinis pavadinimas',
    );

    await user.clear(input);
    await user.type(input, 'failai');
    expect(screen.getByTestId('ldap-alias-input').getAttribute('aria-describedby')).toContain(
      'ldap-alias-hint',
    );
    expect(screen.getByText(/dc=failai,dc=debesis answers like the base DN/)).toBeTruthy();
    await user.click(screen.getByTestId('ldap-alias-save'));
    await waitFor(() => expect(posted).toContainEqual({ path: 'alias', body: { alias: 'failai' } }));
    await waitFor(() =>
      expect(screen.getByTestId('ldap-base-dn-alias').textContent).toContain('dc=failai,dc=debesis'),
    );

    await user.click(screen.getByTestId('ldap-alias-remove'));
    await waitFor(() => expect(posted).toContainEqual({ path: 'alias', body: { alias: null } }));
    await waitFor(() => expect(screen.queryByTestId('ldap-base-dn-alias')).toBeNull());
    expect(screen.getByTestId<HTMLInputElement>('ldap-alias-input').value).toBe('');
    expect(screen.getByText(/No alias: applications use the base DN with the service id/)).toBeTruthy();
  });

  it('shows a new bind password once, suspends a user, sets an expiry and says why one is refused', async () => {
    renderApp(TAB);
    await userEvent.click(await screen.findByTestId('ldap-rotate'));
    expect((await screen.findByTestId('ldap-new-password')).textContent).toContain(
      'Sekret-Once-1234567890abcdefghij',
    );
    expect(posted).toContainEqual({ path: 'bind-settings', body: { rotate_password: true } });

    await userEvent.click(await screen.findByTestId('ldap-suspend-ona'));
    await waitFor(() =>
      expect(posted).toContainEqual({ path: 'users/ona/suspend', body: { suspend: true } }),
    );

    await userEvent.type(screen.getByTestId('ldap-expiry-ona'), '2099-12-31');
    await userEvent.click(screen.getByTestId('ldap-set-expiry-ona'));
    await waitFor(() =>
      expect(posted).toContainEqual({ path: 'users/ona/expiry', body: { expiry_date: '2099-12-31' } }),
    );

    await userEvent.type(screen.getByTestId('ldap-expiry-jonas'), '2020-01-01');
    await userEvent.click(screen.getByTestId('ldap-set-expiry-jonas'));
    expect((await screen.findByTestId('ldap-notice-error')).textContent).toContain('Could not save');
  });

  it('updates the selected users in one bulk change', async () => {
    renderApp(TAB);
    await userEvent.click(await screen.findByTestId('ldap-select-all'));
    expect(screen.getByTestId('ldap-bulk').textContent).toContain('2 selected');
    await userEvent.click(screen.getByTestId('ldap-bulk-suspend'));
    await waitFor(() =>
      expect(posted).toContainEqual({
        path: 'bulk-update',
        body: { users: ['ona', 'jonas'], operation: 'suspend' },
      }),
    );
    expect((await screen.findByTestId('ldap-notice-success')).textContent).toContain('2 users changed.');
  });
});
