import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import {
  apiError,
  inTurn,
  makeGroup,
  makeSambaStatus,
  makeShare,
  makeWorkspaceUser,
  sambaPath,
  workspaceHandlers,
} from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';
import { openDialog, pressWhenReady, retype } from '../../../test/press.ts';

const SAMBA_TAB = `/dashboard/services/${SERVICE_ID}/samba`;

loadServicePages(() => import('./ServiceSambaTab.tsx'));

beforeEach(() => signIn());

const ALICE_RW = { name: 'alice', read: true, write: true, execute: false, admin: false };

async function openShareForm() {
  return openDialog('samba-shares-add', 'share-dialog');
}

describe('Samba', () => {
  it('shows the Samba server and the shares with their users, permissions, groups and apply status', async () => {
    server.use(
      ...workspaceHandlers({
        shares: [
          makeShare({ users: [ALICE_RW], groups: ['team'], description: 'Team projects' }),
          makeShare({
            name: 'public',
            guest_ok: true,
            apply_status: 'failed',
            apply_error: 'testparm refused it',
          }),
        ],
      }),
    );
    renderApp(SAMBA_TAB);
    expect((await screen.findByTestId('samba-address')).textContent).toBe('\\\\127.0.10.7');
    expect(screen.getByTestId('samba-live').textContent).toBe('Yes: the shares are served at this address');
    expect((await screen.findByTestId('share-projects-unc')).textContent).toBe('\\\\127.0.10.7\\projects');
    expect(screen.getByTestId('share-projects-users').textContent).toBe('alice (Read, Write)');
    expect(screen.getByTestId('share-projects-groups').textContent).toBe('team');
    expect(screen.getByTestId('share-public').textContent).toContain('Guests');
    expect(screen.getByTestId('share-public-apply-error').textContent).toBe('testparm refused it');
    expect(screen.getByTestId('samba-shares-apply-summary').textContent).toBe(
      '1 change could not be applied.',
    );
  });

  it('says why the node does not serve the shares', async () => {
    server.use(
      ...workspaceHandlers({ samba: makeSambaStatus({ live: false, reason: 'smbd is not installed' }) }),
    );
    renderApp(SAMBA_TAB);
    expect((await screen.findByTestId('samba-live')).textContent).toBe(
      'No: the configuration is checked but not served (smbd is not installed)',
    );
  });

  it('creates a share for a user with read and write and a group: applying, then applied', async () => {
    const bodies: unknown[] = [];
    const created = makeShare({ users: [ALICE_RW], groups: ['team'] });
    server.use(...workspaceHandlers({ groups: [makeGroup()] }));
    server.use(
      http.post(sambaPath('/shares'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...created, apply_status: 'applying' }, { status: 201 });
      }),
    );
    renderApp(SAMBA_TAB);
    expect((await screen.findByTestId('samba-shares-empty')).textContent).toBe('No shares yet.');
    server.use(
      http.get(
        sambaPath('/shares'),
        inTurn([{ shares: [{ ...created, apply_status: 'applying' }] }, { shares: [created] }]),
      ),
    );
    const dialog = await openShareForm();
    await userEvent.type(within(dialog).getByTestId('share-name'), 'projects');
    // A ticked user reads and writes unless told otherwise.
    expect(within(dialog).queryByTestId('share-user-alice-read')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('share-user-alice-allowed'));
    expect(within(dialog).getByTestId<HTMLInputElement>('share-user-alice-read').checked).toBe(true);
    expect(within(dialog).getByTestId<HTMLInputElement>('share-user-alice-write').checked).toBe(true);
    expect(within(dialog).getByTestId<HTMLInputElement>('share-user-alice-admin').checked).toBe(false);
    await userEvent.click(within(dialog).getByTestId('share-group-team'));
    await userEvent.click(within(dialog).getByTestId('share-submit'));

    await waitFor(() => expect(screen.queryByTestId('share-dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        name: 'projects',
        description: '',
        guest_ok: false,
        browseable: true,
        bind_public_ip: false,
        users: [ALICE_RW],
        groups: ['team'],
      },
    ]);
    expect((await screen.findByTestId('share-projects-apply')).dataset.applyStatus).toBe('applying');
    await waitFor(
      () => expect(screen.getByTestId('share-projects-apply').dataset.applyStatus).toBe('applied'),
      {
        timeout: 5000,
      },
    );
  });

  it('checks the name, path, permissions and guest access against the contract’s rules first', async () => {
    let posted = 0;
    server.use(...workspaceHandlers());
    server.use(
      http.post(sambaPath('/shares'), () => {
        posted += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderApp(SAMBA_TAB);
    const dialog = await openShareForm();
    await userEvent.type(within(dialog).getByTestId('share-name'), 'homes');
    await userEvent.type(within(dialog).getByTestId('share-path'), '../etc');
    await userEvent.click(within(dialog).getByTestId('share-guest'));
    await userEvent.click(within(dialog).getByTestId('share-public'));
    await userEvent.click(within(dialog).getByTestId('share-user-alice-allowed'));
    await userEvent.click(within(dialog).getByTestId('share-user-alice-read'));
    await userEvent.click(within(dialog).getByTestId('share-submit'));

    expect((await within(dialog).findByTestId('share-name-error')).textContent).toBe(
      'This name is reserved by the system. Please choose another',
    );
    expect(within(dialog).getByTestId('share-path-error').textContent).toContain(
      'Use a folder inside the service',
    );
    expect(within(dialog).getByTestId('share-public-error').textContent).toBe(
      'A share open to guests cannot be served on the public IP address. Turn off guest access or the public address.',
    );
    expect(within(dialog).getByText(/Write, execute and admin need read permission too/)).toBeTruthy();

    await retype(dialog, 'share-path', 'backups/x');
    await userEvent.click(within(dialog).getByTestId('share-submit'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('share-path-error').textContent).toBe(
        'This folder is kept for the system (home, backups, system). Please choose another',
      ),
    );
    expect(posted).toBe(0);
  });

  it("shows the server's refusal of a new share with the spec's failure", async () => {
    server.use(...workspaceHandlers());
    server.use(
      http.post(sambaPath('/shares'), () =>
        apiError(409, 'samba_share_exists', 'The service already has a Samba share with this name.'),
      ),
    );
    renderApp(SAMBA_TAB);
    const dialog = await openShareForm();
    await userEvent.type(within(dialog).getByTestId('share-name'), 'projects');
    await userEvent.click(within(dialog).getByTestId('share-submit'));
    expect((await within(dialog).findByTestId('share-save-error')).textContent).toBe(
      'Failed to create share: The service already has a Samba share with this name.',
    );
  });

  it('says truthfully where a share not bound to the public IP is served: the VPN is one way, not the only one', async () => {
    server.use(...workspaceHandlers());
    renderApp(SAMBA_TAB);
    const dialog = await openShareForm();
    const box = within(dialog).getByTestId<HTMLInputElement>('share-public');
    expect(box.disabled).toBe(false);
    expect(
      within(dialog).getByText(
        /Left off, the share answers only the workspace’s VPN clients \(at 10\.8\.0\.1\) and the storage node itself; anyone else is refused/,
      ),
    ).toBe(document.getElementById(box.getAttribute('aria-describedby') ?? ''));
  });

  for (const language of ['en', 'lt'] as const) {
    it(`on a plan with a shared (NAT) address, the public-IP box is disabled and says why (${language})`, async () => {
      const bodies: unknown[] = [];
      server.use(
        userHandler(makeUser({ language })),
        ...workspaceHandlers({ samba: makeSambaStatus({ public_address: false }) }),
        http.post(sambaPath('/shares'), async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(makeShare(), { status: 201 });
        }),
      );
      renderApp(SAMBA_TAB);
      const dialog = await openShareForm();
      const box = within(dialog).getByTestId<HTMLInputElement>('share-public');
      await waitFor(() => expect(box.disabled).toBe(true));
      const reason = document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent;
      expect(reason).toBe(
        language === 'en'
          ? 'Not in your plan: its address is shared (NAT), so every share answers only through the workspace’s VPN. A plan with a dedicated IP can serve a share on its public address.'
          : 'Jūsų plane to nėra: jo adresas bendras (NAT), todėl visi bendrinami aplankai pasiekiami tik per darbo erdvės VPN. Planas su dedikuotu IP gali teikti aplanką viešuoju adresu.',
      );
      await userEvent.type(within(dialog).getByTestId('share-name'), 'projects');
      await userEvent.click(within(dialog).getByTestId('share-submit'));
      await waitFor(() => expect(bodies).toHaveLength(1));
      expect(bodies[0]).toMatchObject({ name: 'projects', bind_public_ip: false });
    });
  }

  it('edits a share: its name stays, the lists are sent whole', async () => {
    const bodies: unknown[] = [];
    server.use(
      ...workspaceHandlers({
        users: [makeWorkspaceUser({ name: 'alice' }), makeWorkspaceUser({ name: 'bob' })],
        shares: [makeShare({ users: [ALICE_RW] })],
      }),
    );
    server.use(
      http.patch(sambaPath('/shares/projects'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(makeShare({ apply_status: 'applying' }));
      }),
    );
    renderApp(SAMBA_TAB);
    const dialog = await openDialog('share-projects-edit', 'share-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Edit the share projects');
    expect(within(dialog).queryByTestId('share-name')).toBeNull();
    expect(within(dialog).getByTestId<HTMLInputElement>('share-user-alice-allowed').checked).toBe(true);
    await userEvent.click(within(dialog).getByTestId('share-user-alice-admin'));
    await userEvent.click(within(dialog).getByTestId('share-user-bob-allowed'));
    await userEvent.click(within(dialog).getByTestId('share-user-bob-write'));
    await userEvent.click(within(dialog).getByTestId('share-browseable'));
    await userEvent.click(within(dialog).getByTestId('share-submit'));
    await waitFor(() => expect(screen.queryByTestId('share-dialog')).toBeNull());
    expect(bodies).toEqual([
      {
        path: 'shares/projects',
        description: '',
        guest_ok: false,
        browseable: false,
        bind_public_ip: false,
        users: [
          { ...ALICE_RW, admin: true },
          { name: 'bob', read: true, write: false, execute: false, admin: false },
        ],
        groups: [],
      },
    ]);
  });

  it('deletes a share after confirming, and says when deleting failed', async () => {
    server.use(...workspaceHandlers({ shares: [makeShare()] }));
    server.use(
      http.delete(sambaPath('/shares/projects'), () =>
        apiError(404, 'samba_share_not_found', 'There is no Samba share with this name in the service.'),
      ),
    );
    renderApp(SAMBA_TAB);
    await userEvent.click(await screen.findByTestId('share-projects-delete'));
    const dialog = await screen.findByTestId('share-delete-dialog');
    await userEvent.click(within(dialog).getByTestId('share-delete-dialog-confirm'));
    expect((await within(dialog).findByTestId('share-delete-dialog-error')).textContent).toBe(
      'Failed to delete share: There is no Samba share with this name in the service.',
    );
  });

  it('reloads the Samba configuration, and says when that failed', async () => {
    let fail = false;
    server.use(...workspaceHandlers());
    server.use(
      http.post(sambaPath('/reload'), () =>
        fail
          ? apiError(500, 'server_error', 'Server error. Please try again later')
          : HttpResponse.json({ generation: 5 }, { status: 202 }),
      ),
    );
    renderApp(SAMBA_TAB);
    const reload = await pressWhenReady('samba-reload');
    expect((await screen.findByTestId('samba-reload-done')).textContent).toContain(
      'sent to the storage node again',
    );
    fail = true;
    await userEvent.click(reload);
    expect((await screen.findByTestId('samba-reload-error')).textContent).toBe(
      'Failed to reload Samba: Server error. Please try again later',
    );
  });

  it("says 'Failed to load shares' when the list cannot be loaded", async () => {
    server.use(...workspaceHandlers());
    server.use(http.get(sambaPath('/shares'), () => apiError(500, 'server_error', 'Server error')));
    renderApp(SAMBA_TAB);
    expect(
      (await screen.findByTestId('samba-shares-load-error', {}, { timeout: 4000 })).textContent,
    ).toContain('Failed to load shares');
  });

  it('changes the Samba settings: checked in the form, sent to the server, its kept values shown', async () => {
    const bodies: unknown[] = [];
    server.use(...workspaceHandlers());
    server.use(
      http.post(sambaPath('/settings'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          workgroup: 'OFFICE',
          server_string: 'Files',
          min_protocol: 'SMB3',
          apply_status: 'applying',
          apply_error: null,
        });
      }),
    );
    renderApp(SAMBA_TAB);
    const workgroup = await screen.findByTestId<HTMLInputElement>('samba-settings-workgroup');
    expect(workgroup.value).toBe('WORKGROUP');
    expect(screen.getByTestId<HTMLInputElement>('samba-settings-server-string').value).toBe('Debesis');
    expect(screen.getByTestId<HTMLSelectElement>('samba-settings-min-protocol').value).toBe('SMB2');

    // A workgroup Samba would misread never leaves the browser.
    await userEvent.clear(workgroup);
    await userEvent.type(workgroup, 'my office%');
    await userEvent.click(screen.getByTestId('samba-settings-submit'));
    expect(await screen.findByText('Use 1 to 15 letters, numbers, hyphens and underscores')).toBeTruthy();
    expect(bodies).toEqual([]);

    await userEvent.clear(workgroup);
    await userEvent.type(workgroup, 'office');
    const description = screen.getByTestId<HTMLInputElement>('samba-settings-server-string');
    await userEvent.clear(description);
    await userEvent.type(description, 'Files');
    await userEvent.selectOptions(screen.getByTestId('samba-settings-min-protocol'), 'SMB3');
    await userEvent.click(screen.getByTestId('samba-settings-submit'));
    expect((await screen.findByTestId('samba-settings-saved')).textContent).toContain('Saved.');
    expect(bodies).toEqual([{ workgroup: 'OFFICE', server_string: 'Files', min_protocol: 'SMB3' }]);
    await waitFor(() => expect(workgroup.value).toBe('OFFICE'));
  });

  it("puts the server's refusal of a setting on its field", async () => {
    server.use(...workspaceHandlers());
    server.use(
      http.post(sambaPath('/settings'), () =>
        apiError(422, 'validation_error', 'Invalid input', [
          { field: 'server_string', code: 'samba_server_string_invalid', message: 'Not this description' },
        ]),
      ),
    );
    renderApp(SAMBA_TAB);
    await userEvent.click(await screen.findByTestId('samba-settings-submit'));
    expect(await screen.findByText('Not this description')).toBeTruthy();
  });
});
