import type { Subuser } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { recordRequest, type ReceivedRequest } from '../../../test/requests.ts';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

const TAB = `/dashboard/services/${SERVICE_ID}/subusers`;
const base = `/api/v1/subusers/${SERVICE_ID}`;
const ANNA = 'b3c4d5e6-0000-4000-8000-000000000001';
const SESSION = 'c4d5e6f7-0000-4000-8000-000000000002';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, index) =>
  `abcd${'efghi'[index % 5]}-jklm${'nopqr'[index % 5]}${index}`.slice(0, 11),
);

function makeSubuser(overrides: Partial<Subuser> = {}): Subuser {
  return {
    id: ANNA,
    username: 'subuser-anna',
    enabled: true,
    two_factor_enabled: false,
    backup_codes_left: 0,
    last_login_at: null,
    active_sessions: 1,
    created_at: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}

loadServicePages(() => import('./ServiceSubusersTab.tsx'));

let subusers: Subuser[];
let received: ReceivedRequest[];
beforeEach(() => {
  signIn();
  subusers = [makeSubuser()];
  received = [];
  const record = (request: Request) => recordRequest(received, request);
  server.use(
    ...workspaceHandlers({}),
    http.get(base, () => HttpResponse.json({ subusers, service_id: SERVICE_ID, limit: 50 })),
    http.post(base, async ({ request }) => {
      await record(request);
      return HttpResponse.json(makeSubuser({ id: 'new', username: 'subuser-ben' }), { status: 201 });
    }),
    http.post(`${base}/${ANNA}/2fa/setup`, () =>
      HttpResponse.json({
        secret: SECRET,
        otpauth_uri: `otpauth://totp/Debesis:svc:subuser-anna?secret=${SECRET}&issuer=Debesis`,
        digits: 6,
        period: 30,
      }),
    ),
    http.post(`${base}/${ANNA}/2fa/verify`, async ({ request }) => {
      await record(request);
      subusers = [makeSubuser({ two_factor_enabled: true, backup_codes_left: 10 })];
      return HttpResponse.json({ subuser: subusers[0], backup_codes: CODES });
    }),
    http.get(`${base}/${ANNA}/sessions`, () =>
      HttpResponse.json({
        sessions: [
          {
            id: SESSION,
            device_name: 'Firefox on Linux',
            token_hint: 'sus_abcdef',
            ip: '198.51.100.20',
            remember_me: true,
            created_at: '2026-11-28T10:00:00.000Z',
            last_used_at: '2026-11-28T11:00:00.000Z',
            expires_at: '2026-12-28T10:00:00.000Z',
          },
        ],
      }),
    ),
    http.delete(`${base}/${ANNA}/sessions/${SESSION}`, async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete(`${base}/${ANNA}/sessions`, async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
  );
});

describe('the subusers tab', () => {
  it('lists the subusers with the service ID to hand on', async () => {
    renderApp(TAB);
    const row = await screen.findByTestId('subuser-row-subuser-anna');
    expect(within(row).getByRole('rowheader').textContent).toBe('subuser-anna');
    expect(screen.getByTestId('subuser-state-subuser-anna').textContent).toBe('Enabled');
    expect(screen.getByTestId('subusers-service-id').textContent).toBe(SERVICE_ID);
    expect(within(row).getByText('Never')).toBeTruthy();
  });

  it('adds a subuser, saying so on the field when the passwords differ', async () => {
    const user = userEvent.setup();
    renderApp(TAB);
    await user.click(await screen.findByTestId('subuser-create'));
    await user.type(screen.getByTestId('subuser-username'), 'ben');
    await user.type(screen.getByTestId('subuser-password'), 'backup-pass-1');
    await user.type(screen.getByTestId('subuser-password-confirm'), 'backup-pass-2');
    await user.click(screen.getByTestId('subuser-form-submit'));
    expect((await screen.findByTestId('subuser-password-confirm-error')).textContent).toBe(
      'Passwords do not match',
    );
    expect(received).toEqual([]);
    await user.clear(screen.getByTestId('subuser-password-confirm'));
    await user.type(screen.getByTestId('subuser-password-confirm'), 'backup-pass-1');
    await user.click(screen.getByTestId('subuser-form-submit'));
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      method: 'POST',
      body: { username: 'subuser-ben', password: 'backup-pass-1', password_confirm: 'backup-pass-1' },
    });
  });

  it('sets two-factor sign-in up with a QR code and the secret, then shows the backup codes once', async () => {
    const user = userEvent.setup();
    renderApp(TAB);
    await user.click(await screen.findByTestId('subuser-twoFactor-subuser-anna'));
    expect((await screen.findByTestId('totp-secret')).textContent).toBe(SECRET);
    expect(await screen.findByTestId('totp-qr')).toBeTruthy();
    await user.type(screen.getByTestId('totp-code'), '12345');
    await user.click(screen.getByTestId('totp-verify'));
    expect((await screen.findByTestId('totp-code-error')).textContent).toMatch(/6-digit code/);
    await user.type(screen.getByTestId('totp-code'), '6');
    await user.click(screen.getByTestId('totp-verify'));
    const codes = await screen.findByTestId('backup-codes');
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(received.at(-1)).toMatchObject({ body: { code: '123456' } });
    await user.click(screen.getByTestId('backup-codes-done'));
    await waitFor(() => expect(screen.queryByTestId('backup-codes')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('subuser-2fa-state-subuser-anna').getAttribute('data-enabled')).toBe('true'),
    );
  });

  it('lists a subuser’s sessions and ends one, then all', async () => {
    const user = userEvent.setup();
    renderApp(TAB);
    await user.click(await screen.findByTestId('subuser-sessions-subuser-anna'));
    const row = await screen.findByTestId(`subuser-session-${SESSION}`);
    expect(row.textContent).toContain('Firefox on Linux');
    expect(row.textContent).toContain('sus_abcdef');
    await user.click(screen.getByTestId(`subuser-session-end-${SESSION}`));
    await waitFor(() => expect(received.at(-1)?.path).toBe(`${base}/${ANNA}/sessions/${SESSION}`));
    await user.click(screen.getByTestId('subuser-sessions-end-all'));
    await waitFor(() => expect(received.at(-1)?.path).toBe(`${base}/${ANNA}/sessions`));
  });
});
