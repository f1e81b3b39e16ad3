import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import {
  apiError,
  directoryPath,
  inTurn,
  makeGroup,
  makeWorkspaceUser,
  workspaceHandlers,
} from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';
import { retype } from '../../../test/press.ts';

const USERS_TAB = `/dashboard/services/${SERVICE_ID}/users`;

loadServicePages(() => import('./ServiceUsersTab.tsx'));

beforeEach(() => signIn());

async function openCreateUser() {
  await userEvent.click(await screen.findByTestId('workspace-users-add'));
  return screen.findByTestId('user-create-dialog');
}

describe('service users', () => {
  it('lists the users with their state, groups, apply status and the plan’s limit', async () => {
    server.use(
      ...workspaceHandlers({
        users: [
          makeWorkspaceUser({ name: 'alice', groups: ['team', 'office'], primary_group: 'team' }),
          makeWorkspaceUser({
            name: 'bob',
            active: false,
            apply_status: 'failed',
            apply_error: 'pdbedit failed',
          }),
        ],
        groups: [makeGroup()],
      }),
    );
    renderApp(USERS_TAB);
    const alice = await screen.findByTestId('user-alice');
    expect(within(alice).getByTestId('user-alice-state').textContent).toBe('Active');
    expect(within(alice).getByTestId('user-alice-groups').textContent).toBe('Groups: team (primary), office');
    expect(screen.getByTestId('user-bob-state').textContent).toBe('Inactive');
    expect(screen.getByTestId('user-bob-apply').dataset.applyStatus).toBe('failed');
    expect(screen.getByTestId('user-bob-apply-error').textContent).toBe('pdbedit failed');
    // The plan limits active users: inactive bob does not count.
    expect(screen.getByTestId('workspace-users-counter').textContent).toBe('1 of 5');
    expect(screen.getByTestId('workspace-users-apply-summary').textContent).toBe(
      '1 change could not be applied.',
    );
    // Each action names its user for screen readers.
    expect(screen.getByRole('button', { name: 'Delete alice' })).toBeTruthy();
  });

  it('refuses what the contract refuses before sending anything, in the contract’s words', async () => {
    let posted = 0;
    server.use(...workspaceHandlers());
    server.use(
      http.post(directoryPath('/users'), () => {
        posted += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderApp(USERS_TAB);
    const dialog = await openCreateUser();
    const name = within(dialog).getByTestId('user-create-name');
    const submit = within(dialog).getByTestId('user-create-submit');

    await userEvent.type(name, 'Alice');
    await userEvent.type(within(dialog).getByTestId('user-create-password'), 'short');
    await userEvent.type(within(dialog).getByTestId('user-create-confirm'), 'shorter');
    await userEvent.click(submit);
    expect((await screen.findByTestId('user-create-name-error')).textContent).toBe(
      'Use lower-case letters: the name becomes a Unix and Samba name',
    );
    expect(screen.getByTestId('user-create-password-error').textContent).toBe(
      'Password must be at least 8 characters',
    );
    expect(screen.getByTestId('user-create-confirm-error').textContent).toBe('Passwords do not match');
    expect(name.getAttribute('aria-invalid')).toBe('true');

    for (const [value, message] of [
      ['1alice', 'Must start with a letter'],
      ['al ice', 'Use only letters, numbers, hyphens and underscores'],
      ['root', 'This name is reserved by the system. Please choose another'],
      ['a'.repeat(33), 'Must be at most 32 characters'],
    ] as const) {
      await userEvent.clear(name);
      await userEvent.type(name, value);
      await userEvent.click(submit);
      await waitFor(() => expect(screen.getByTestId('user-create-name-error').textContent).toBe(message));
    }
    expect(posted).toBe(0);
  });

  it('creates a user: applying until the node confirms, then applied', async () => {
    const bodies: unknown[] = [];
    const carol = makeWorkspaceUser({ name: 'carol' });
    server.use(...workspaceHandlers({ users: [] }));
    server.use(
      http.post(directoryPath('/users'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...carol, apply_status: 'applying' }, { status: 201 });
      }),
    );
    renderApp(USERS_TAB);
    expect((await screen.findByTestId('workspace-users-empty')).textContent).toContain('No users yet');
    // From now on the list has carol: applying when first asked, applied when asked again.
    server.use(
      http.get(
        directoryPath('/users'),
        inTurn([
          { users: [{ ...carol, apply_status: 'applying' }], limit: 5 },
          { users: [carol], limit: 5 },
        ]),
      ),
    );
    const dialog = await openCreateUser();
    await userEvent.type(within(dialog).getByTestId('user-create-name'), 'carol');
    await userEvent.type(within(dialog).getByTestId('user-create-password'), 'Carol-Pass-1');
    await userEvent.type(within(dialog).getByTestId('user-create-confirm'), 'Carol-Pass-1');
    await userEvent.click(within(dialog).getByTestId('user-create-submit'));

    await waitFor(() => expect(screen.queryByTestId('user-create-dialog')).toBeNull());
    expect(bodies).toEqual([{ name: 'carol', password: 'Carol-Pass-1' }]);
    expect((await screen.findByTestId('user-carol-apply')).dataset.applyStatus).toBe('applying');
    expect(screen.getByTestId('workspace-users-apply-summary').textContent).toBe(
      '1 change is being applied to your workspace…',
    );
    // Asked again every 2 s while applying: the node's confirmation shows without a reload.
    await waitFor(() => expect(screen.getByTestId('user-carol-apply').dataset.applyStatus).toBe('applied'), {
      timeout: 5000,
    });
    expect(screen.getByTestId('workspace-users-apply-summary').textContent).toBe('All changes are applied.');
  });

  it("shows the server's refusal with the spec's failure, and its field errors next to the fields", async () => {
    server.use(...workspaceHandlers());
    server.use(
      http.post(directoryPath('/users'), () =>
        apiError(409, 'workspace_user_exists', 'The service already has a user with this name.'),
      ),
    );
    renderApp(USERS_TAB);
    let dialog = await openCreateUser();
    await userEvent.type(within(dialog).getByTestId('user-create-name'), 'alice');
    await userEvent.type(within(dialog).getByTestId('user-create-password'), 'Alice-Pass-1');
    await userEvent.type(within(dialog).getByTestId('user-create-confirm'), 'Alice-Pass-1');
    await userEvent.click(within(dialog).getByTestId('user-create-submit'));
    expect((await screen.findByTestId('user-create-error')).textContent).toBe(
      'Failed to create user: The service already has a user with this name.',
    );

    server.use(
      http.post(directoryPath('/users'), () =>
        apiError(422, 'validation_error', 'Some fields are not valid. Please correct them and try again.', [
          { field: 'name', code: 'workspace_name_reserved', message: 'Šis pavadinimas rezervuotas sistemai' },
        ]),
      ),
    );
    await userEvent.click(within(dialog).getByTestId('user-create-submit'));
    expect((await screen.findByTestId('user-create-name-error')).textContent).toBe(
      'Šis pavadinimas rezervuotas sistemai',
    );
    // Cancel closes without a change; the dialog gave focus back to the button that opened it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('user-create-dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('workspace-users-add'));
    // Escape closes it too.
    dialog = await openCreateUser();
    expect(document.activeElement).toBe(within(dialog).getByTestId('user-create-name'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('user-create-dialog')).toBeNull();
  });

  it('activates, deactivates and changes a password; failures say which operation failed', async () => {
    const calls: string[] = [];
    server.use(
      ...workspaceHandlers({
        users: [makeWorkspaceUser({ name: 'alice' }), makeWorkspaceUser({ name: 'bob', active: false })],
      }),
    );
    server.use(
      http.patch(directoryPath('/users/:user/:action'), async ({ params, request }) => {
        calls.push(`${String(params.user)} ${String(params.action)} ${JSON.stringify(await request.json())}`);
        if (params.action === 'activate')
          return apiError(500, 'server_error', 'Server error. Please try again later');
        return HttpResponse.json(makeWorkspaceUser({ name: String(params.user) }));
      }),
    );
    renderApp(USERS_TAB);
    expect((await screen.findByTestId('user-alice-toggle')).textContent).toBe('Deactivate alice');
    await userEvent.click(screen.getByTestId('user-alice-toggle'));
    await waitFor(() => expect(calls).toEqual(['alice deactivate {}']));

    await userEvent.click(screen.getByTestId('user-bob-toggle'));
    expect((await screen.findByTestId('workspace-users-toggle-error')).textContent).toBe(
      'Failed to activate user: Server error. Please try again later',
    );

    await userEvent.click(screen.getByTestId('user-alice-password'));
    const dialog = await screen.findByTestId('user-password-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('New password for alice');
    await userEvent.type(within(dialog).getByTestId('user-password-password'), 'New-Pass-12');
    await userEvent.type(within(dialog).getByTestId('user-password-confirm'), 'New-Pass-13');
    await userEvent.click(within(dialog).getByTestId('user-password-submit'));
    expect((await screen.findByTestId('user-password-confirm-error')).textContent).toBe(
      'Passwords do not match',
    );
    await retype(dialog, 'user-password-confirm', 'New-Pass-12');
    await userEvent.click(within(dialog).getByTestId('user-password-submit'));
    await waitFor(() => expect(screen.queryByTestId('user-password-dialog')).toBeNull());
    expect(calls.at(-1)).toBe('alice password {"password":"New-Pass-12"}');
  });

  it('deletes a user only after confirming, and says when deleting failed', async () => {
    const deleted: string[] = [];
    let refuse = true;
    server.use(...workspaceHandlers());
    server.use(
      http.delete(directoryPath('/users/:user'), ({ params }) => {
        if (refuse) return apiError(503, 'service_unavailable', 'The service is temporarily unavailable.');
        deleted.push(String(params.user));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(USERS_TAB);
    await userEvent.click(await screen.findByTestId('user-alice-delete'));
    const dialog = await screen.findByTestId('user-delete-dialog');
    expect(dialog.getAttribute('role')).toBe('alertdialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Delete the user alice?');
    // Focus starts on Cancel: Enter alone deletes nothing.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await userEvent.click(within(dialog).getByTestId('user-delete-dialog-confirm'));
    expect((await screen.findByTestId('user-delete-dialog-error')).textContent).toBe(
      'Failed to delete user: The service is temporarily unavailable.',
    );
    refuse = false;
    await userEvent.click(within(dialog).getByTestId('user-delete-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('user-delete-dialog')).toBeNull());
    expect(deleted).toEqual(['alice']);
  });

  it('stops offering new users at the plan’s limit', async () => {
    server.use(
      ...workspaceHandlers({
        users: [makeWorkspaceUser({ name: 'alice' }), makeWorkspaceUser({ name: 'bob' })],
        limit: 2,
      }),
    );
    renderApp(USERS_TAB);
    expect((await screen.findByTestId('workspace-users-full')).textContent).toContain(
      'Your plan allows 2 users',
    );
    expect(screen.getByTestId<HTMLButtonElement>('workspace-users-add').disabled).toBe(true);
  });

  it("says 'Failed to load users' when the list cannot be loaded", async () => {
    server.use(...workspaceHandlers());
    server.use(http.get(directoryPath('/users'), () => apiError(500, 'server_error', 'Server error')));
    renderApp(USERS_TAB);
    expect(
      (await screen.findByTestId('workspace-users-load-error', {}, { timeout: 4000 })).textContent,
    ).toContain('Failed to load users');
  });
});

describe('service groups and membership', () => {
  it('creates a group with a description, and checks its name first', async () => {
    const bodies: unknown[] = [];
    server.use(...workspaceHandlers());
    server.use(
      http.post(directoryPath('/groups'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(makeGroup({ name: 'office', apply_status: 'applying' }), { status: 201 });
      }),
    );
    renderApp(USERS_TAB);
    expect((await screen.findByTestId('workspace-groups-empty')).textContent).toBe('No groups yet.');
    await userEvent.click(screen.getByTestId('workspace-groups-add'));
    const dialog = await screen.findByTestId('group-create-dialog');
    await userEvent.type(within(dialog).getByTestId('group-create-name'), 'users');
    await userEvent.click(within(dialog).getByTestId('group-create-submit'));
    expect((await screen.findByTestId('group-create-name-error')).textContent).toBe(
      'This name is reserved by the system. Please choose another',
    );
    await retype(dialog, 'group-create-name', 'office');
    await userEvent.type(within(dialog).getByTestId('group-description'), 'Office staff');
    await userEvent.click(within(dialog).getByTestId('group-create-submit'));
    await waitFor(() => expect(bodies).toEqual([{ name: 'office', description: 'Office staff' }]));
  });

  it('edits a group’s description and says when it failed', async () => {
    server.use(...workspaceHandlers({ groups: [makeGroup()] }));
    server.use(
      http.patch(directoryPath('/groups/team'), () =>
        apiError(
          409,
          'workspace_not_changeable',
          'This service is not running, so its users, groups and shares cannot be changed now.',
        ),
      ),
    );
    renderApp(USERS_TAB);
    await userEvent.click(await screen.findByTestId('group-team-edit'));
    const dialog = await screen.findByTestId('group-edit-dialog');
    expect(within(dialog).getByTestId<HTMLInputElement>('group-description').value).toBe('The whole team');
    await userEvent.click(within(dialog).getByTestId('group-edit-submit'));
    expect((await screen.findByTestId('group-edit-error')).textContent).toBe(
      'Failed to update group: This service is not running, so its users, groups and shares cannot be changed now.',
    );
  });

  it('renames a group; a name another group holds is shown on the name field', async () => {
    const bodies: unknown[] = [];
    server.use(...workspaceHandlers({ groups: [makeGroup()] }));
    server.use(
      http.patch(directoryPath('/groups/team'), async ({ request }) => {
        const body = (await request.json()) as { name: string };
        bodies.push(body);
        return body.name === 'office'
          ? apiError(422, 'validation_error', 'Some fields are not valid.', [
              {
                field: 'name',
                code: 'workspace_group_name_taken',
                message: 'Another group of the service already has this name',
              },
            ])
          : HttpResponse.json(makeGroup({ name: body.name, apply_status: 'applying' }));
      }),
    );
    renderApp(USERS_TAB);
    await userEvent.click(await screen.findByTestId('group-team-edit'));
    const dialog = await screen.findByTestId('group-edit-dialog');
    const name = within(dialog).getByTestId<HTMLInputElement>('group-edit-name');
    expect(name.value).toBe('team');
    await userEvent.clear(name);
    await userEvent.type(name, 'Office');
    await userEvent.click(within(dialog).getByTestId('group-edit-submit'));
    expect((await screen.findByTestId('group-edit-name-error')).textContent).toBe(
      'Use lower-case letters: the name becomes a Unix and Samba name',
    );
    await userEvent.clear(name);
    await userEvent.type(name, 'office');
    await userEvent.click(within(dialog).getByTestId('group-edit-submit'));
    expect((await screen.findByTestId('group-edit-name-error')).textContent).toBe(
      'Another group of the service already has this name',
    );
    await userEvent.clear(name);
    await userEvent.type(name, 'crew');
    await userEvent.click(within(dialog).getByTestId('group-edit-submit'));
    await waitFor(() => expect(screen.queryByTestId('group-edit-dialog')).toBeNull());
    expect(bodies).toEqual([
      { name: 'office', description: 'The whole team' },
      { name: 'crew', description: 'The whole team' },
    ]);
  });

  it('adds a member (supplementary unless primary is ticked), makes one primary and removes one', async () => {
    const calls: string[] = [];
    let members = [{ name: 'alice', primary: false, active: true }];
    server.use(
      ...workspaceHandlers({
        users: [makeWorkspaceUser({ name: 'alice' }), makeWorkspaceUser({ name: 'bob' })],
        groups: [makeGroup({ members })],
      }),
    );
    server.use(
      http.get(directoryPath('/groups/team/members'), () => HttpResponse.json({ members })),
      http.post(directoryPath('/groups/team/members/:user'), ({ params, request }) => {
        const primary = new URL(request.url).searchParams.get('primary');
        calls.push(`add ${String(params.user)} primary=${primary}`);
        if (params.user === 'bob') members = [...members, { name: 'bob', primary: false, active: true }];
        return HttpResponse.json(makeGroup({ members }), { status: 201 });
      }),
      http.delete(directoryPath('/groups/team/members/:user'), ({ params, request }) => {
        const primary = new URL(request.url).searchParams.get('primary');
        calls.push(`remove ${String(params.user)} primary=${primary}`);
        return apiError(404, 'workspace_member_not_found', 'This user is not a member of the group.');
      }),
    );
    renderApp(USERS_TAB);
    await userEvent.click(await screen.findByTestId('group-team-members-open'));
    const dialog = await screen.findByTestId('group-members-dialog');
    await within(dialog).findByTestId('group-members-alice');
    expect(within(dialog).getByTestId('group-members-alice').textContent).toContain('Supplementary');
    // Only users who are not members yet are offered; primary is not ticked by default.
    const candidate = within(dialog).getByTestId<HTMLSelectElement>('group-members-candidate');
    expect([...candidate.options].map((option) => option.value)).toEqual(['bob']);
    expect(within(dialog).getByTestId<HTMLInputElement>('group-members-as-primary').checked).toBe(false);
    await userEvent.click(within(dialog).getByTestId('group-members-add'));
    await within(dialog).findByTestId('group-members-bob');

    await userEvent.click(within(dialog).getByTestId('group-members-alice-primary'));
    await waitFor(() => expect(calls).toEqual(['add bob primary=false', 'add alice primary=true']));

    await userEvent.click(within(dialog).getByTestId('group-members-bob-remove'));
    expect((await within(dialog).findByTestId('group-members-error')).textContent).toBe(
      'Failed to remove member: This user is not a member of the group.',
    );
    expect(calls.at(-1)).toBe('remove bob primary=false');
  });

  it("shows a user's groups and adds the user to another group from there", async () => {
    const calls: string[] = [];
    server.use(
      ...workspaceHandlers({
        users: [makeWorkspaceUser({ name: 'alice', groups: ['team'], primary_group: 'team' })],
        groups: [makeGroup({ name: 'team' }), makeGroup({ name: 'office' })],
      }),
    );
    server.use(
      http.get(directoryPath('/users/alice/groups'), () =>
        HttpResponse.json({ groups: [{ name: 'team', gid: 1_000_100, primary: true }] }),
      ),
      http.post(directoryPath('/groups/:group/members/:user'), ({ params, request }) => {
        calls.push(`${String(params.group)} ${String(params.user)} ${new URL(request.url).search}`);
        return HttpResponse.json(makeGroup({ name: String(params.group) }), { status: 201 });
      }),
    );
    renderApp(USERS_TAB);
    await userEvent.click(await screen.findByTestId('user-alice-groups-open'));
    const dialog = await screen.findByTestId('user-groups-dialog');
    expect((await within(dialog).findByTestId('user-groups-team')).textContent).toContain('Primary');
    await userEvent.click(within(dialog).getByTestId('user-groups-as-primary'));
    await userEvent.click(within(dialog).getByTestId('user-groups-add'));
    await waitFor(() => expect(calls).toEqual(['office alice ?primary=true']));
  });
});
