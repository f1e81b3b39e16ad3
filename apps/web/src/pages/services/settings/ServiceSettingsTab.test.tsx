import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import {
  apiError,
  makeOverviewItem,
  makeStatus,
  servicePath,
  workspaceHandlers,
} from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

const SETTINGS_TAB = `/dashboard/services/${SERVICE_ID}/settings`;
const CONFIG = { name: 'Team drive', description: 'Shared files', expiry_reminders: true, auto_renew: true };

loadServicePages(() => import('./ServiceSettingsTab.tsx'));

beforeEach(() => signIn({ handlers: workspaceHandlers() }));

describe('service settings', () => {
  it('renames the service (PUT /services/{id}) and says when that failed', async () => {
    const bodies: unknown[] = [];
    let fail = false;
    server.use(
      http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
      http.put(servicePath(''), async ({ request }) => {
        bodies.push(await request.json());
        if (fail) return apiError(409, 'service_not_found', 'Service not found');
        return HttpResponse.json(makeOverviewItem({ name: 'Office drive' }));
      }),
    );
    renderApp(SETTINGS_TAB);
    const name = await screen.findByTestId<HTMLInputElement>('service-settings-name');
    expect(name.value).toBe('Team drive');
    expect(screen.getByTestId<HTMLInputElement>('service-settings-description').value).toBe('Shared files');

    await userEvent.clear(name);
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-name-error')).textContent).toBe('This field is required');

    await userEvent.type(name, 'Office drive');
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-general-saved')).textContent).toBe('Saved.');
    expect(bodies).toEqual([{ name: 'Office drive', description: 'Shared files' }]);

    fail = true;
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-general-error')).textContent).toBe(
      'Failed to update service: Service not found',
    );
  });

  it('turns expiry reminders off (PUT /services/{id}/config) and says when that failed', async () => {
    const bodies: unknown[] = [];
    let fail = false;
    server.use(
      http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
      http.put(servicePath('/config'), async ({ request }) => {
        bodies.push(await request.json());
        if (fail) return apiError(503, 'service_unavailable', 'The service is temporarily unavailable.');
        return HttpResponse.json({ ...CONFIG, expiry_reminders: false });
      }),
    );
    renderApp(SETTINGS_TAB);
    const reminders = await screen.findByTestId<HTMLInputElement>('service-expiry-reminders');
    expect(reminders.checked).toBe(true);
    await userEvent.click(reminders);
    await userEvent.click(screen.getByTestId('service-reminders-submit'));
    await waitFor(() => expect(bodies).toEqual([{ expiry_reminders: false }]));
    expect((await screen.findByTestId('service-reminders-saved')).textContent).toBe('Saved.');

    fail = true;
    await userEvent.click(screen.getByTestId('service-reminders-submit'));
    expect((await screen.findByTestId('service-reminders-error')).textContent).toBe(
      'Failed to configure service: The service is temporarily unavailable.',
    );
  });

  it('turns automatic renewal off (PATCH /services/{id})', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
      http.patch(servicePath(''), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...CONFIG, auto_renew: false });
      }),
    );
    renderApp(SETTINGS_TAB);
    const renew = await screen.findByTestId<HTMLInputElement>('service-auto-renew');
    expect(renew.checked).toBe(true);
    expect(screen.getByTestId('service-renewal-form').textContent).toContain(
      '3 days before the service ends',
    );
    await userEvent.click(renew);
    await userEvent.click(screen.getByTestId('service-renewal-submit'));
    await waitFor(() => expect(bodies).toEqual([{ auto_renew: false }]));
    expect((await screen.findByTestId('service-renewal-saved')).textContent).toBe('Saved.');
  });

  it('says when the settings cannot be loaded', async () => {
    server.use(http.get(servicePath('/config'), () => apiError(500, 'server_error', 'Server error')));
    renderApp(SETTINGS_TAB);
    expect(
      (await screen.findByTestId('service-config-load-error', {}, { timeout: 4000 })).textContent,
    ).toContain('Failed to load the service settings');
    expect(screen.getByTestId('service-change-plan').getAttribute('href')).toBe(
      `/dashboard/plans/change?service=${SERVICE_ID}`,
    );
  });
});

// Issue 13: cancel and terminate had no place but POST /services/{id}/action.
describe('service settings: ending the service', () => {
  const SLOW = 20_000;
  /** The date `days` from now as the page prints it (en-US, medium). */
  const inDays = (days: number) =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(
      new Date(Date.now() + days * 86_400_000),
    );

  function actionRoute(bodies: unknown[], answer?: () => Response) {
    return http.post(servicePath('/action'), async ({ request }) => {
      const body = (await request.json()) as { action: string };
      bodies.push(body);
      if (answer) return answer();
      return HttpResponse.json({ action: body.action, service: makeStatus(), payment: null, order_id: null });
    });
  }

  it(
    'cancel: the confirmation names the day the data is deleted, 14 days on; keeping it sends nothing',
    async () => {
      const bodies: unknown[] = [];
      server.use(
        http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
        actionRoute(bodies),
      );
      renderApp(SETTINGS_TAB);
      expect((await screen.findByTestId('service-end')).textContent).toContain('kept for 14 days');
      await userEvent.click(screen.getByTestId('service-cancel'));
      const dialog = await screen.findByTestId('service-cancel-dialog');
      expect(dialog.textContent).toContain('Cancel Team drive?');
      expect(within(dialog).getByTestId('service-cancel-loss').textContent).toContain(
        `Its data is kept until ${inDays(14)} and then deleted for good.`,
      );
      await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the service' }));
      expect(bodies).toEqual([]);

      await userEvent.click(screen.getByTestId('service-cancel'));
      await userEvent.click(await screen.findByTestId('service-cancel-confirm'));
      await waitFor(() => expect(bodies).toEqual([{ action: 'cancel' }]));
      await waitFor(() => expect(screen.queryByTestId('service-cancel-dialog')).toBeNull());
    },
    SLOW,
  );

  it(
    'terminate: the confirmation says the data is deleted today and needs the name typed',
    async () => {
      const bodies: unknown[] = [];
      server.use(
        ...workspaceHandlers({ service: makeOverviewItem({ vpn_users: 3, vpn_online: 2, nfs_exports: 1 }) }),
        http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
        actionRoute(bodies),
      );
      renderApp(SETTINGS_TAB);
      await userEvent.click(await screen.findByTestId('service-terminate'));
      const dialog = await screen.findByTestId('service-terminate-dialog');
      expect(within(dialog).getByTestId('service-terminate-loss').textContent).toContain(
        `is deleted today, ${inDays(0)}, for good`,
      );
      // Every server goes down, not only Samba: the VPN with its live count, NFS, FTP/SFTP, LDAP.
      const goesDown = within(dialog).getByTestId('service-terminate-goes-down');
      expect(within(goesDown).getByTestId('service-terminate-goes-down-vpn').textContent).toBe(
        'VPN: the 2 sessions connected now end',
      );
      for (const line of ['Samba: everyone connected', 'NFS: clients', 'FTP and SFTP', 'LDAP'])
        expect(goesDown.textContent).toContain(line);
      await userEvent.type(screen.getByTestId('service-terminate-name'), 'Team');
      await userEvent.click(screen.getByTestId('service-terminate-confirm'));
      expect((await screen.findByTestId('service-terminate-name-error')).textContent).toBe(
        'Type the name exactly as it is shown: Team drive',
      );
      expect(bodies).toEqual([]);
      await userEvent.type(screen.getByTestId('service-terminate-name'), ' drive');
      await userEvent.click(screen.getByTestId('service-terminate-confirm'));
      await waitFor(() => expect(bodies).toEqual([{ action: 'terminate' }]));
    },
    SLOW,
  );

  it(
    'refuses what the state does not allow, with the spec’s words, and shows the server’s refusal',
    async () => {
      const bodies: unknown[] = [];
      server.use(
        ...workspaceHandlers({
          service: makeOverviewItem({
            status: 'cancelled',
            display_state: 'cancelled',
            actions: ['terminate'],
            terminates_at: '2027-02-05T09:00:00.000Z',
          }),
        }),
        http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
        actionRoute(bodies, () =>
          apiError(409, 'service_cannot_cancel', 'Cannot cancel or terminate in the current state'),
        ),
      );
      renderApp(SETTINGS_TAB);
      expect((await screen.findByTestId(`service-cancelled-${SERVICE_ID}`)).textContent).toContain(
        'deleted for good on Feb 5, 2027',
      );
      expect(screen.getByTestId<HTMLButtonElement>('service-cancel').disabled).toBe(true);
      expect(screen.getByTestId('service-end-refused').textContent).toBe(
        'Cannot cancel or terminate in the current state',
      );
      await userEvent.click(screen.getByTestId('service-terminate'));
      await userEvent.type(await screen.findByTestId('service-terminate-name'), 'Team drive');
      await userEvent.click(screen.getByTestId('service-terminate-confirm'));
      expect((await screen.findByTestId('service-terminate-error')).textContent).toBe(
        'Failed to terminate service: Cannot cancel or terminate in the current state',
      );
    },
    SLOW,
  );
});
