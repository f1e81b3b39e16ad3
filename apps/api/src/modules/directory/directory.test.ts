import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  WORKSPACE_ID_BLOCK,
  workspaceGroupStateSchema,
  workspaceUserStateSchema,
  type WorkspaceApplyResponse,
  type WorkspaceGroup,
  type WorkspaceGroupMembersResponse,
  type WorkspaceUser,
  type WorkspaceUserGroupsResponse,
  type WorkspaceUsersResponse,
  type WorkspaceGroupsResponse,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { capacity, registerNode } from '../../test/services.ts';
import { workspaceUsers } from './directory.table.ts';
import { createDirectoryService } from './directory.service.ts';
import { ntHash, verifySha512Crypt } from './passwords.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  nodeCaughtUp,
  ownerWithService,
  PASSWORD,
  serviceRow,
  setService,
  type Auth,
  workspaceChanges,
} from './workspace.test-support.ts';

const ID_BASE = 1_000_000;

describe('users and groups', () => {
  const { ctx, call } = useWorkspaceTestApp();

  const base = (serviceId: string) => `/api/v1/user-groups/${serviceId}`;
  const createUser = (auth: Auth, serviceId: string, body: object) =>
    call.post(auth, `${base(serviceId)}/users`, { password: PASSWORD, ...body });
  const createGroup = (auth: Auth, serviceId: string, body: object) =>
    call.post(auth, `${base(serviceId)}/groups`, body);
  const userRow = async (serviceId: string, name: string) =>
    (await ctx.database.db.select().from(workspaceUsers).where(eq(workspaceUsers.serviceId, serviceId))).find(
      (row) => row.name === name,
    );
  /** The directory service as the lifecycle composes it, on the test's database. */
  const directoryService = (
    wake?: (serviceId: string) => void,
    log?: { warn: (...args: unknown[]) => void },
  ) =>
    createDirectoryService({
      db: ctx.database.db,
      changes: workspaceChanges(ctx, { ...(wake ? { wake } : {}), ...(log ? { log } : {}) }),
    });

  it('creates a user: stored only as verifiable hashes, one generation later, stamped and logged', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const before = await serviceRow(ctx, serviceId);
    const response = await createUser(auth, serviceId, { name: 'ona' });
    expect(response.statusCode).toBe(201);
    const user = response.json<WorkspaceUser>();
    expect(user).toMatchObject({
      name: 'ona',
      uid: null,
      active: true,
      primary_group: null,
      groups: [],
      apply_status: 'applying',
      apply_error: null,
    });
    expect(response.body).not.toContain('$6$');
    expect(response.body).not.toContain(PASSWORD);

    const after = await serviceRow(ctx, serviceId);
    expect(after.generation).toBe(before.generation + 1);
    const row = await userRow(serviceId, 'ona');
    expect(row?.changedGeneration).toBe(after.generation);
    expect(row?.idOffset).toBe(1);
    expect(row?.passwordCrypt).toMatch(/^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
    expect(verifySha512Crypt(PASSWORD, row?.passwordCrypt ?? '')).toBe(true);
    expect(verifySha512Crypt('wrong-password', row?.passwordCrypt ?? '')).toBe(false);
    expect(row?.passwordNt).toBe(await ntHash(PASSWORD));
    expect(JSON.stringify(row)).not.toContain(PASSWORD);

    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'user created',
      tone: 'success',
      details: { name: 'ona' },
    });
    const list = (await call.get(auth, `${base(serviceId)}/users`)).json<WorkspaceUsersResponse>();
    expect(list.limit).toBe(5);
    expect(list.users.map((entry) => entry.name)).toEqual(['ona']);
  });

  it('refuses names and passwords the node could not take, each with its own reason', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const cases: Array<[object, string, string]> = [
      [{ name: 'Ona' }, 'name', 'workspace_name_lowercase'],
      [{ name: '1ona' }, 'name', 'workspace_name_start'],
      [{ name: 'ona smith' }, 'name', 'workspace_name_characters'],
      [{ name: 'ona.smith' }, 'name', 'workspace_name_characters'],
      [{ name: '../etc' }, 'name', 'workspace_name_characters'],
      [{ name: 'root' }, 'name', 'workspace_name_reserved'],
      [{ name: 'users' }, 'name', 'workspace_name_reserved'],
      [{ name: 'a'.repeat(33) }, 'name', 'too_long'],
      [{ name: '' }, 'name', 'required'],
      [{ name: 'ona', password: 'short' }, 'password', 'password_too_short'],
      [{ name: 'ona', password: 'x'.repeat(129) }, 'password', 'password_too_long'],
    ];
    for (const [body, field, code] of cases) {
      const response = await createUser(auth, serviceId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json<{ errors: unknown[] }>().errors, JSON.stringify(body)).toContainEqual(
        expect.objectContaining({ field, code }),
      );
    }
    const lithuanian = await createUser({ ...auth, 'accept-language': 'lt' }, serviceId, { name: 'Ona' });
    expect(lithuanian.json()).toMatchObject({
      errors: [
        { field: 'name', message: 'Naudokite mažąsias raides: pavadinimas tampa Unix ir Samba vardu' },
      ],
    });
    expect(
      (await createUser(auth, serviceId, { name: 'Ona' })).json<{ errors: Array<{ message: string }> }>()
        .errors[0]?.message,
    ).toBe('Use lower-case letters: the name becomes a Unix and Samba name');
    // Nothing was accepted, so nothing changed.
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);
  });

  it('refuses a duplicate name and one user more than the plan allows', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    expect((await createUser(auth, serviceId, { name: 'ona' })).statusCode).toBe(201);
    const duplicate = await createUser(auth, serviceId, { name: 'ona' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      detail: 'workspace_user_exists',
      message: 'The service already has a user with this name.',
    });
    for (const name of ['jonas', 'petras', 'ieva', 'rasa']) {
      expect((await createUser(auth, serviceId, { name })).statusCode).toBe(201);
    }
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const sixth = await createUser(auth, serviceId, { name: 'tomas' });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({
      detail: 'workspace_user_limit',
      limit: 5,
      message:
        'The service already has as many active users as its plan allows. Deactivate or delete a user, or choose a plan with more users.',
    });
    // The refused change left no trace, not even a generation.
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);
    expect(await directoryService().countActiveUsers(serviceId)).toBe(5);
    // A user and a group may share a name, as on Unix.
    expect((await createGroup(auth, serviceId, { name: 'ona' })).statusCode).toBe(201);
  });

  it('limits the active users to the plan: inactive ones are not counted, reactivating over the limit is refused', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    // MINI allows 5 users: 5 active and one inactive.
    for (const name of ['ona', 'jonas', 'petras', 'ieva', 'rasa']) {
      expect((await createUser(auth, serviceId, { name })).statusCode).toBe(201);
    }
    expect((await createUser(auth, serviceId, { name: 'tomas', active: false })).statusCode).toBe(201);
    expect(await directoryService().countActiveUsers(serviceId)).toBe(5);
    // Activating the sixth, by its route or by an update, is refused in words that say what to do.
    for (const refused of [
      await call.patch(auth, `${base(serviceId)}/users/tomas/activate`),
      await call.patch(auth, `${base(serviceId)}/users/tomas`, { active: true }),
    ]) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        detail: 'workspace_user_limit',
        limit: 5,
        message:
          'The service already has as many active users as its plan allows. Deactivate or delete a user, or choose a plan with more users.',
      });
    }
    const lithuanian = await call.patch(
      { ...auth, 'accept-language': 'lt' },
      `${base(serviceId)}/users/tomas/activate`,
    );
    expect(lithuanian.json<{ message: string }>().message).toMatch(/jau tiek aktyvių naudotojų/);
    expect((await userRow(serviceId, 'tomas'))?.active).toBe(false);
    // Once another user is deactivated, there is room again.
    expect((await call.patch(auth, `${base(serviceId)}/users/ona/deactivate`)).statusCode).toBe(200);
    expect((await call.patch(auth, `${base(serviceId)}/users/tomas/activate`)).statusCode).toBe(200);
    expect((await createUser(auth, serviceId, { name: 'vytas' })).statusCode).toBe(409);
    expect((await createUser(auth, serviceId, { name: 'vytas', active: false })).statusCode).toBe(201);
  });

  it('holds the limit and hands out distinct ids when creations race', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const names = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8'];
    const responses = await Promise.all(names.map((name) => createUser(auth, serviceId, { name })));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const rows = (
      await ctx.database.db.select().from(workspaceUsers).where(eq(workspaceUsers.serviceId, serviceId))
    ).map((row) => row.idOffset);
    expect(rows.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers 404 for another account’s service and an unknown one, 422 for a malformed id', async () => {
    const { serviceId } = await ownerWithService(ctx);
    const stranger = await signedInUser(ctx);
    expect((await call.get(stranger.auth, `${base(serviceId)}/users`)).statusCode).toBe(404);
    expect((await createUser(stranger.auth, serviceId, { name: 'ona' })).statusCode).toBe(404);
    expect((await createGroup(stranger.auth, serviceId, { name: 'team' })).statusCode).toBe(404);
    expect((await call.post(stranger.auth, `${base(serviceId)}/sync`)).statusCode).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call.get(stranger.auth, `${base(unknown)}/groups`)).json()).toMatchObject({
      detail: 'not_found',
    });
    expect((await call.get(stranger.auth, `${base('nope')}/groups`)).statusCode).toBe(422);
    expect((await ctx.app.inject({ method: 'GET', url: `${base(serviceId)}/users` })).statusCode).toBe(401);
  });

  it('refuses changes to a service that is expired, quarantined or stopped, but still shows it', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    expect((await createUser(auth, serviceId, { name: 'ona' })).statusCode).toBe(201);
    for (const status of ['expired', 'quarantined'] as const) {
      await setService(ctx, serviceId, { status });
      const refused = await createUser(auth, serviceId, { name: 'jonas' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        detail: 'service_expired',
        message: 'This service has expired or is quarantined. Please extend your service to regain access.',
      });
    }
    await setService(ctx, serviceId, { status: 'active', validUntil: new Date(Date.now() - 1000) });
    expect((await call.del(auth, `${base(serviceId)}/users/ona`)).json()).toMatchObject({
      detail: 'service_expired',
    });
    for (const status of ['suspended', 'cancelled', 'terminated', 'failed'] as const) {
      await setService(ctx, serviceId, { status, validUntil: new Date(Date.now() + 86_400_000) });
      const refused = await call.patch(auth, `${base(serviceId)}/users/ona/deactivate`);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json()).toMatchObject({ detail: 'workspace_not_changeable' });
    }
    expect((await call.get(auth, `${base(serviceId)}/users`)).statusCode).toBe(200);
    await setService(ctx, serviceId, { status: 'resourcePending' });
    expect((await call.patch(auth, `${base(serviceId)}/users/ona/deactivate`)).statusCode).toBe(200);
  });

  it('changes a user: active state, password and groups; refuses a new name and unknown groups', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createUser(auth, serviceId, { name: 'ona' });
    await createGroup(auth, serviceId, { name: 'team' });
    await createGroup(auth, serviceId, { name: 'admins' });
    const oldHash = (await userRow(serviceId, 'ona'))?.passwordCrypt;

    const changed = await call.patch(auth, `${base(serviceId)}/users/ona`, {
      active: false,
      password: 'another-secret',
      groups: ['team', 'admins'],
      primary_group: 'team',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<WorkspaceUser>()).toMatchObject({
      active: false,
      primary_group: 'team',
      groups: ['admins', 'team'],
    });
    const row = await userRow(serviceId, 'ona');
    expect(row?.passwordCrypt).not.toBe(oldHash);
    expect(verifySha512Crypt('another-secret', row?.passwordCrypt ?? '')).toBe(true);
    expect(row?.passwordNt).toBe(await ntHash('another-secret'));
    expect(row?.changedGeneration).toBe((await serviceRow(ctx, serviceId)).generation);

    // Leaving the primary group leaves the primary role with it.
    const fewer = await call.patch(auth, `${base(serviceId)}/users/ona`, { groups: ['admins'] });
    expect(fewer.json<WorkspaceUser>()).toMatchObject({ primary_group: null, groups: ['admins'] });

    const renamed = await call.patch(auth, `${base(serviceId)}/users/ona`, { name: 'onute' });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json()).toMatchObject({ errors: [{ code: 'unknown_field' }] });

    const unknown = await call.patch(auth, `${base(serviceId)}/users/ona`, {
      groups: ['admins', 'ghosts', 'admins'],
      primary_group: 'nobody-here',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ errors: unknown[] }>().errors).toEqual([
      expect.objectContaining({ field: 'groups.1', code: 'workspace_group_unknown' }),
      expect.objectContaining({ field: 'groups.2', code: 'listed_twice' }),
      expect.objectContaining({ field: 'primary_group', code: 'workspace_group_unknown' }),
    ]);
    expect((await call.patch(auth, `${base(serviceId)}/users/ghost`, { active: true })).json()).toMatchObject(
      {
        detail: 'workspace_user_not_found',
        message: 'There is no user with this name in the service.',
      },
    );

    // Nothing to change: no new generation, no activity.
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect((await call.patch(auth, `${base(serviceId)}/users/ona`, { active: false })).statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);
  });

  it('sets passwords and activates and deactivates users, bumping only on a real change', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createUser(auth, serviceId, { name: 'ona' });
    const weak = await call.patch(auth, `${base(serviceId)}/users/ona/password`, { password: '1234567' });
    expect(weak.json()).toMatchObject({ errors: [{ field: 'password', code: 'password_too_short' }] });
    const password = await call.patch(auth, `${base(serviceId)}/users/ona/password`, {
      password: 'slaptažodis ąčę',
    });
    expect(password.statusCode).toBe(200);
    expect(verifySha512Crypt('slaptažodis ąčę', (await userRow(serviceId, 'ona'))?.passwordCrypt ?? '')).toBe(
      true,
    );

    const generation = (await serviceRow(ctx, serviceId)).generation;
    const off = await call.patch(auth, `${base(serviceId)}/users/ona/deactivate`);
    expect(off.json<WorkspaceUser>().active).toBe(false);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 1);
    await call.patch(auth, `${base(serviceId)}/users/ona/deactivate`);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 1);
    const on = await call.patch(auth, `${base(serviceId)}/users/ona/activate`);
    expect(on.json<WorkspaceUser>().active).toBe(true);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 2);
    expect((await call.patch(auth, `${base(serviceId)}/users/nobody1/activate`)).statusCode).toBe(404);

    const actions = (await activityOf(ctx, serviceId)).map((event) => `${event.action}/${event.tone}`);
    expect(actions).toEqual([
      // The service's purchase, then the directory's own entries.
      'payment completed/success',
      'user created/success',
      'user password changed/info',
      'user deactivated/info',
      'user activated/info',
    ]);
  });

  it('manages groups and members: primary at most once, moved when set elsewhere, removable', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createUser(auth, serviceId, { name: 'ona' });
    await createUser(auth, serviceId, { name: 'jonas' });
    const created = await createGroup(auth, serviceId, {
      name: 'team',
      description: 'Everyone',
      members: ['ona'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<WorkspaceGroup>()).toMatchObject({
      name: 'team',
      description: 'Everyone',
      gid: null,
      members: [{ name: 'ona', primary: false, active: true }],
      apply_status: 'applying',
    });
    expect((await createGroup(auth, serviceId, { name: 'team' })).json()).toMatchObject({
      detail: 'workspace_group_exists',
    });
    expect((await createGroup(auth, serviceId, { name: 'Team' })).json()).toMatchObject({
      errors: [{ field: 'name', code: 'workspace_name_lowercase' }],
    });
    expect((await createGroup(auth, serviceId, { name: 'sudo' })).json()).toMatchObject({
      errors: [{ field: 'name', code: 'workspace_name_reserved' }],
    });
    expect((await createGroup(auth, serviceId, { name: 'x', members: ['ghost'] })).json()).toMatchObject({
      errors: [{ field: 'members.0', code: 'workspace_user_unknown' }],
    });
    await createGroup(auth, serviceId, { name: 'admins' });

    const members = (path: string, primary?: boolean) =>
      `${base(serviceId)}/groups/${path}${primary === undefined ? '' : `?primary=${String(primary)}`}`;
    const added = await call.post(auth, members('team/members/jonas', true));
    expect(added.statusCode).toBe(201);
    expect(added.json<WorkspaceGroup>().members).toEqual([
      { name: 'jonas', primary: true, active: true },
      { name: 'ona', primary: false, active: true },
    ]);
    // Primary elsewhere moves the role; jonas stays a supplementary member of team.
    const moved = await call.post(auth, members('admins/members/jonas', true));
    expect(moved.json<WorkspaceGroup>().members).toEqual([{ name: 'jonas', primary: true, active: true }]);
    const jonasGroups = (
      await call.get(auth, `${base(serviceId)}/users/jonas/groups`)
    ).json<WorkspaceUserGroupsResponse>();
    expect(jonasGroups.groups).toEqual([
      { name: 'admins', gid: null, primary: true },
      { name: 'team', gid: null, primary: false },
    ]);
    // Adding an existing member without primary changes nothing.
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect((await call.post(auth, members('admins/members/jonas'))).statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);
    // An existing supplementary member becomes primary.
    const promoted = await call.post(auth, members('team/members/ona', true));
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json<WorkspaceGroup>().members).toContainEqual({
      name: 'ona',
      primary: true,
      active: true,
    });

    // DELETE ?primary=true takes only the role.
    const demoted = await call.del(auth, members('admins/members/jonas', true));
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json<WorkspaceGroup>().members).toEqual([{ name: 'jonas', primary: false, active: true }]);
    const removed = await call.del(auth, members('admins/members/jonas'));
    expect(removed.json<WorkspaceGroup>().members).toEqual([]);
    expect((await call.del(auth, members('admins/members/jonas'))).json()).toMatchObject({
      detail: 'workspace_member_not_found',
    });
    expect((await call.post(auth, members('ghosts/members/jonas'))).json()).toMatchObject({
      detail: 'workspace_group_not_found',
    });
    expect((await call.post(auth, members('team/members/ghost'))).json()).toMatchObject({
      detail: 'workspace_user_not_found',
    });
    expect((await call.post(auth, `${members('team/members/jonas')}?primary=maybe`)).statusCode).toBe(422);

    const listed = (await call.get(auth, members('team/members'))).json<WorkspaceGroupMembersResponse>();
    expect(listed.members).toEqual([
      { name: 'jonas', primary: false, active: true },
      { name: 'ona', primary: true, active: true },
    ]);
    const patched = await call.patch(auth, `${base(serviceId)}/groups/team`, {
      description: 'Core team',
      members: ['jonas'],
    });
    expect(patched.json<WorkspaceGroup>()).toMatchObject({
      description: 'Core team',
      members: [{ name: 'jonas', primary: false }],
    });
    expect((await call.patch(auth, `${base(serviceId)}/groups/team`, { gid: 5 })).json()).toMatchObject({
      errors: [{ code: 'unknown_field' }],
    });
    const groups = (await call.get(auth, `${base(serviceId)}/groups`)).json<WorkspaceGroupsResponse>();
    expect(groups.groups.map((group) => group.name)).toEqual(['admins', 'team']);

    const actions = (await activityOf(ctx, serviceId)).map((event) => `${event.action}/${event.tone}`);
    expect(actions).toContain('group created/success');
    expect(actions).toContain('group member added/info');
    expect(actions).toContain('group updated/info');
  });

  it('renames a group: same gid and members, the shares naming it follow; a taken or bad name changes nothing', async () => {
    const node = await registerNode(ctx, 'directory-rename-node', capacity(1000, ['10.18.0.1']));
    const { auth, serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, { nodeId: node.id, address: '10.18.1.1', idBase: ID_BASE });
    await createUser(auth, serviceId, { name: 'ona' });
    await createUser(auth, serviceId, { name: 'jonas' });
    await createGroup(auth, serviceId, { name: 'team', description: 'Everyone', members: ['ona'] });
    await createGroup(auth, serviceId, { name: 'admins' });
    await call.post(auth, `${base(serviceId)}/groups/team/members/jonas?primary=true`);
    const share = await call.post(auth, `/api/v1/samba/${serviceId}/shares`, {
      name: 'projects',
      groups: ['team'],
    });
    expect(share.statusCode, share.body).toBe(201);
    await call.post(auth, `/api/v1/samba/${serviceId}/shares`, { name: 'other', users: [{ name: 'ona' }] });
    const desiredOf = async () =>
      (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
    const before = await desiredOf();
    const teamGid = before?.groups.find((group) => group.name === 'team')?.gid;
    expect(teamGid).toEqual(expect.any(Number));
    await nodeCaughtUp(ctx, serviceId);
    const generation = (await serviceRow(ctx, serviceId)).generation;

    const rename = (body: object) => call.patch(auth, `${base(serviceId)}/groups/team`, body);
    const taken = await rename({ name: 'admins' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({
      detail: 'validation_error',
      errors: [{ field: 'name', code: 'workspace_group_name_taken' }],
    });
    expect((await rename({ name: 'Crew' })).json()).toMatchObject({
      errors: [{ field: 'name', code: 'workspace_name_lowercase' }],
    });
    expect((await rename({ name: 'sudo', members: ['ghost'] })).json()).toMatchObject({
      errors: [{ field: 'name', code: 'workspace_name_reserved' }],
    });
    expect((await rename({ name: 'crew', members: ['ghost'] })).json()).toMatchObject({
      errors: [{ field: 'members.0', code: 'workspace_user_unknown' }],
    });
    // The same name is no change at all.
    expect((await rename({ name: 'team' })).statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    const renamed = await rename({ name: 'crew' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<WorkspaceGroup>()).toMatchObject({
      name: 'crew',
      description: 'Everyone',
      gid: teamGid,
      members: [
        { name: 'jonas', primary: true },
        { name: 'ona', primary: false },
      ],
      apply_status: 'applying',
    });
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 1);
    expect((await call.get(auth, `${base(serviceId)}/groups/team/members`)).statusCode).toBe(404);
    expect((await call.get(auth, `${base(serviceId)}/users/jonas/groups`)).json()).toEqual({
      groups: [{ name: 'crew', gid: teamGid, primary: true }],
    });

    // The node is asked for the new name under the same gid, in the group and in the share.
    const after = await desiredOf();
    expect(after?.groups.find((group) => group.gid === teamGid)).toEqual({
      name: 'crew',
      gid: teamGid,
      members: ['jonas', 'ona'],
    });
    expect(after?.users.find((user) => user.name === 'jonas')?.primary_gid).toBe(teamGid);
    expect(after?.samba?.shares.find((row) => row.name === 'projects')?.groups).toEqual(['crew']);
    // Until the node applies it, the share waits too; the share that does not name it does not.
    const shares = (await call.get(auth, `/api/v1/samba/${serviceId}/shares`)).json<{
      shares: Array<{ name: string; groups: string[]; apply_status: string }>;
    }>().shares;
    expect(shares.map((row) => [row.name, row.groups, row.apply_status])).toEqual([
      ['other', [], 'applied'],
      ['projects', ['crew'], 'applying'],
    ]);
    // A new group may take the freed name.
    expect((await createGroup(auth, serviceId, { name: 'team' })).statusCode).toBe(201);

    const entries = await activityOf(ctx, serviceId);
    expect(entries.find((entry) => entry.action === 'group updated')?.details).toEqual({
      name: 'crew',
      previous_name: 'team',
      fields: ['name'],
    });
  });

  it('deletes users and groups: out of every group, primary members back to the users group', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createGroup(auth, serviceId, { name: 'team' });
    await createUser(auth, serviceId, { name: 'ona', groups: ['team'], primary_group: 'team' });
    await createUser(auth, serviceId, { name: 'jonas', groups: ['team'] });
    await setService(ctx, serviceId, { idBase: ID_BASE });
    await nodeCaughtUp(ctx, serviceId);

    const deleted = await call.del(auth, `${base(serviceId)}/users/jonas`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const team = (await call.get(auth, `${base(serviceId)}/groups`)).json<WorkspaceGroupsResponse>()
      .groups[0];
    expect(team).toMatchObject({ members: [{ name: 'ona', primary: true }], apply_status: 'applying' });
    expect((await call.del(auth, `${base(serviceId)}/users/jonas`)).statusCode).toBe(404);

    const groupGone = await call.del(auth, `${base(serviceId)}/groups/team`);
    expect(groupGone.statusCode).toBe(204);
    const ona = (await call.get(auth, `${base(serviceId)}/users`)).json<WorkspaceUsersResponse>().users[0];
    expect(ona).toMatchObject({ name: 'ona', primary_group: null, groups: [], apply_status: 'applying' });
    expect((await userRow(serviceId, 'ona'))?.changedGeneration).toBe(generation + 1);
    const desired = await directoryService().desiredSection(serviceId, ID_BASE);
    expect(desired.users).toEqual([expect.objectContaining({ name: 'ona', primary_gid: ID_BASE })]);
    expect(desired.groups).toEqual([]);
    expect((await call.del(auth, `${base(serviceId)}/groups/team`)).json()).toMatchObject({
      detail: 'workspace_group_not_found',
    });
    const actions = (await activityOf(ctx, serviceId)).map((event) => `${event.action}/${event.tone}`);
    expect(actions).toContain('user deleted/warning');
    expect(actions).toContain('group deleted/warning');
  });

  it('never hands a deleted user’s uid to a new user', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createUser(auth, serviceId, { name: 'ona' });
    await createUser(auth, serviceId, { name: 'jonas' });
    await call.del(auth, `${base(serviceId)}/users/jonas`);
    await createUser(auth, serviceId, { name: 'petras' });
    expect((await userRow(serviceId, 'petras'))?.idOffset).toBe(3);
  });

  it('shows each resource as applying, applied or failed from what the node reports', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const start = (await serviceRow(ctx, serviceId)).generation;
    await createUser(auth, serviceId, { name: 'ona' });
    await createGroup(auth, serviceId, { name: 'team', members: ['ona'] });
    const users = async () =>
      (await call.get(auth, `${base(serviceId)}/users`)).json<WorkspaceUsersResponse>().users;
    const groups = async () =>
      (await call.get(auth, `${base(serviceId)}/groups`)).json<WorkspaceGroupsResponse>().groups;
    expect((await users())[0]?.apply_status).toBe('applying');

    // The node has applied the user's generation, not yet the group's.
    await setService(ctx, serviceId, { observedGeneration: start + 1 });
    expect((await users())[0]).toMatchObject({ apply_status: 'applied', apply_error: null });
    expect((await groups())[0]?.apply_status).toBe('applying');

    await setService(ctx, serviceId, {
      observedGeneration: start + 2,
      failures: [{ kind: 'group', name: 'team', error: 'groupadd: GID already in use' }],
    });
    expect((await groups())[0]).toMatchObject({
      apply_status: 'failed',
      apply_error: 'groupadd: GID already in use',
    });
    expect((await users())[0]?.apply_status).toBe('applied');

    // A new change of the group is applying again until the node reaches it.
    await call.patch(auth, `${base(serviceId)}/groups/team`, { description: 'again' });
    expect((await groups())[0]?.apply_status).toBe('applying');
    await nodeCaughtUp(ctx, serviceId);
    expect((await groups())[0]?.apply_status).toBe('applied');
  });

  it('builds the desired state: ids in the block, primary gids, members by name', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createGroup(auth, serviceId, { name: 'team' });
    await createGroup(auth, serviceId, { name: 'office' });
    await createUser(auth, serviceId, { name: 'ona', groups: ['team', 'office'], primary_group: 'office' });
    await createUser(auth, serviceId, { name: 'jonas', active: false, groups: ['team'] });
    await createUser(auth, serviceId, { name: 'petras' });

    // Unplaced, the answers show no ids; the offsets wait for the service's id block.
    expect(
      (await call.get(auth, `${base(serviceId)}/users`))
        .json<WorkspaceUsersResponse>()
        .users.map((u) => u.uid),
    ).toEqual([null, null, null]);
    await setService(ctx, serviceId, { idBase: ID_BASE });
    const listed = (await call.get(auth, `${base(serviceId)}/users`)).json<WorkspaceUsersResponse>().users;
    expect(listed.map((user) => [user.name, user.uid])).toEqual([
      ['jonas', ID_BASE + 2],
      ['ona', ID_BASE + 1],
      ['petras', ID_BASE + 3],
    ]);

    const desired = await directoryService().desiredSection(serviceId, ID_BASE);
    for (const user of desired.users) expect(workspaceUserStateSchema.parse(user)).toEqual(user);
    for (const group of desired.groups) expect(workspaceGroupStateSchema.parse(group)).toEqual(group);
    const ona = (await userRow(serviceId, 'ona'))!;
    expect(desired.users).toEqual([
      expect.objectContaining({ name: 'jonas', uid: ID_BASE + 2, active: false, primary_gid: ID_BASE }),
      {
        name: 'ona',
        uid: ID_BASE + 1,
        active: true,
        password_crypt: ona.passwordCrypt,
        password_nt: ona.passwordNt,
        primary_gid: ID_BASE + 2,
      },
      expect.objectContaining({ name: 'petras', uid: ID_BASE + 3, primary_gid: ID_BASE }),
    ]);
    expect(desired.groups).toEqual([
      { name: 'office', gid: ID_BASE + 2, members: ['ona'] },
      { name: 'team', gid: ID_BASE + 1, members: ['jonas', 'ona'] },
    ]);
    for (const id of [...desired.users.map((u) => u.uid), ...desired.groups.map((g) => g.gid)]) {
      expect(id).toBeGreaterThan(ID_BASE);
      expect(id).toBeLessThan(ID_BASE + WORKSPACE_ID_BLOCK);
    }
    const counts = await directoryService().counts([serviceId, '00000000-0000-4000-8000-000000000000']);
    expect(counts.get(serviceId)).toEqual({ users_active: 2, users_total: 3, groups: 2 });
    expect(counts.get('00000000-0000-4000-8000-000000000000')).toEqual({
      users_active: 0,
      users_total: 0,
      groups: 0,
    });
  });

  it('syncs: a new generation, nothing else; wakes the node after the commit', async () => {
    const { auth, owner, serviceId } = await ownerWithService(ctx);
    const before = (await serviceRow(ctx, serviceId)).generation;
    const synced = await call.post(auth, `${base(serviceId)}/sync`);
    expect(synced.statusCode).toBe(202);
    expect(synced.json<WorkspaceApplyResponse>()).toEqual({ generation: before + 1 });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'users and groups synced',
      tone: 'info',
      details: {},
    });

    const woken: Array<{ serviceId: string; generation: number }> = [];
    const service = directoryService((id) => {
      // Called after the commit: the new state is visible outside the transaction.
      void serviceRow(ctx, id).then((row) => woken.push({ serviceId: id, generation: row.generation }));
    });
    await service.createUser(
      owner.user.id,
      serviceId,
      { name: 'ona', password: PASSWORD, active: true, groups: [], primary_group: null },
      { ip: '127.0.0.1' },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(woken).toEqual([{ serviceId, generation: before + 2 }]);
    // A failed wake-up does not undo the change (the node polls too), and it is not swallowed unheard.
    const warnings: unknown[][] = [];
    const failing = directoryService(
      () => {
        throw new Error('node unreachable');
      },
      { warn: (...args: unknown[]) => warnings.push(args) },
    );
    await expect(
      failing.setActive(owner.user.id, serviceId, 'ona', false, { ip: null }),
    ).resolves.toMatchObject({
      active: false,
    });
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0]?.[0])).toContain(serviceId);
    expect(String(warnings[0]?.[1])).toContain('wake-up failed');
  });
});
