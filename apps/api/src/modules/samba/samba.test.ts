import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  SAMBA_DEFAULT_SETTINGS,
  type ServiceOverviewItem,
  sambaShareStateSchema,
  type SambaSettings,
  type SambaShare,
  type SambaSharePermissionsResponse,
  type SambaSharesResponse,
  type SambaShareUser,
  type SambaShareUsersResponse,
  type SambaStatus,
  type WorkspaceApplyResponse,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { createDirectoryReader } from '../directory/directory.reader.ts';
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
} from '../directory/workspace.test-support.ts';
import { sambaShares } from './samba.table.ts';
import { createSambaService } from './samba.service.ts';

describe('Samba shares', () => {
  const { ctx, call } = useWorkspaceTestApp();

  const base = (serviceId: string) => `/api/v1/samba/${serviceId}`;
  const users = (serviceId: string) => `/api/v1/user-groups/${serviceId}`;
  const createShare = (auth: Auth, serviceId: string, body: object) =>
    call.post(auth, `${base(serviceId)}/shares`, body);
  const shareRow = async (serviceId: string, name: string) =>
    (await ctx.database.db.select().from(sambaShares).where(eq(sambaShares.serviceId, serviceId))).find(
      (row) => row.name === name,
    );
  const sambaService = () =>
    createSambaService({
      db: ctx.database.db,
      changes: workspaceChanges(ctx),
      directory: createDirectoryReader,
      plans: { publicAddress: () => Promise.resolve(true) },
    });

  /** An owner's service with users ona and jonas and a group team (jonas in it). */
  async function workspace() {
    const owned = await ownerWithService(ctx);
    for (const name of ['ona', 'jonas']) {
      await call.post(owned.auth, `${users(owned.serviceId)}/users`, { name, password: PASSWORD });
    }
    await call.post(owned.auth, `${users(owned.serviceId)}/groups`, { name: 'team', members: ['jonas'] });
    return owned;
  }

  it('creates a share in shares/<name> with its users and groups, stamped and logged', async () => {
    const { auth, serviceId } = await workspace();
    const before = (await serviceRow(ctx, serviceId)).generation;
    const response = await createShare(auth, serviceId, {
      name: 'projects',
      description: 'Work in progress',
      users: [{ name: 'ona' }, { name: 'jonas', write: false, execute: true }],
      groups: ['team'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json<SambaShare>()).toMatchObject({
      name: 'projects',
      path: 'shares/projects',
      description: 'Work in progress',
      guest_ok: false,
      browseable: true,
      bind_public_ip: false,
      users: [
        { name: 'jonas', read: true, write: false, execute: true, admin: false },
        { name: 'ona', read: true, write: true, execute: false, admin: false },
      ],
      groups: ['team'],
      apply_status: 'applying',
      apply_error: null,
    });
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect(generation).toBe(before + 1);
    expect((await shareRow(serviceId, 'projects'))?.changedGeneration).toBe(generation);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'Samba share created',
      tone: 'success',
      details: { name: 'projects' },
    });

    const custom = await createShare(auth, serviceId, { name: 'media', path: 'data/media-2024' });
    expect(custom.json<SambaShare>().path).toBe('data/media-2024');
    const list = (await call.get(auth, `${base(serviceId)}/shares`)).json<SambaSharesResponse>();
    expect(list.shares.map((share) => share.name)).toEqual(['media', 'projects']);
  });

  it('refuses bad names, paths outside the workspace, unknown users and groups, public guest shares', async () => {
    const { auth, serviceId } = await workspace();
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const cases: Array<[object, string, string]> = [
      [{ name: 'Projects' }, 'name', 'workspace_name_lowercase'],
      [{ name: 'my share' }, 'name', 'workspace_name_characters'],
      [{ name: 'homes' }, 'name', 'workspace_name_reserved'],
      [{ name: 'printers' }, 'name', 'workspace_name_reserved'],
      [{ name: 'p', path: '../etc' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: 'shares/../../etc' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: '/etc' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: 'shares/' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: 'a//b' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: '.ssh' }, 'path', 'share_path_invalid'],
      [{ name: 'p', path: 'home/ona' }, 'path', 'share_path_reserved'],
      [{ name: 'p', path: 'backups' }, 'path', 'share_path_reserved'],
      [{ name: 'p', users: [{ name: 'ghost' }] }, 'users.0.name', 'workspace_user_unknown'],
      [{ name: 'p', users: [{ name: 'ona' }, { name: 'ona' }] }, 'users.1.name', 'listed_twice'],
      [{ name: 'p', users: [{ name: 'ona', read: false }] }, 'users.0.read', 'share_permissions_need_read'],
      [{ name: 'p', groups: ['ghosts'] }, 'groups.0', 'workspace_group_unknown'],
    ];
    for (const [body, field, code] of cases) {
      const response = await createShare(auth, serviceId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json<{ errors: unknown[] }>().errors, JSON.stringify(body)).toContainEqual(
        expect.objectContaining({ field, code }),
      );
    }
    const guest = await createShare(auth, serviceId, { name: 'open', guest_ok: true, bind_public_ip: true });
    expect(guest.statusCode).toBe(422);
    expect(guest.json()).toMatchObject({ detail: 'samba_guest_share_public' });
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    expect((await createShare(auth, serviceId, { name: 'open', guest_ok: true })).statusCode).toBe(201);
    const duplicate = await createShare(auth, serviceId, { name: 'open' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      detail: 'samba_share_exists',
      message: 'The service already has a Samba share with this name.',
    });
    const lithuanian = await createShare({ ...auth, 'accept-language': 'lt' }, serviceId, { name: 'open' });
    expect(lithuanian.json()).toMatchObject({
      message: 'Paslaugoje jau yra Samba bendrinamas aplankas tokiu pavadinimu.',
    });
    // Turning the public address on for a guest share is refused too.
    expect(
      (await call.patch(auth, `${base(serviceId)}/shares/open`, { bind_public_ip: true })).json(),
    ).toMatchObject({ detail: 'samba_guest_share_public' });
  });

  it('changes a share; users and groups lists replace the old ones; no change, no generation', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects', users: [{ name: 'ona' }] });
    const changed = await call.patch(auth, `${base(serviceId)}/shares/projects`, {
      description: 'Shared work',
      browseable: false,
      path: 'work/projects',
      users: [{ name: 'jonas', admin: true }],
      groups: ['team'],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<SambaShare>()).toMatchObject({
      description: 'Shared work',
      browseable: false,
      path: 'work/projects',
      users: [{ name: 'jonas', read: true, write: true, execute: false, admin: true }],
      groups: ['team'],
    });
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect((await shareRow(serviceId, 'projects'))?.changedGeneration).toBe(generation);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'Samba share updated',
      tone: 'info',
      details: { name: 'projects', fields: ['path', 'description', 'browseable', 'users', 'groups'] },
    });

    const same = await call.patch(auth, `${base(serviceId)}/shares/projects`, {
      description: 'Shared work',
      users: [{ name: 'jonas', admin: true }],
    });
    expect(same.statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    expect(
      (await call.patch(auth, `${base(serviceId)}/shares/projects`, { name: 'other' })).json(),
    ).toMatchObject({
      errors: [{ code: 'unknown_field' }],
    });
    expect(
      (await call.patch(auth, `${base(serviceId)}/shares/nothing`, { browseable: true })).json(),
    ).toMatchObject({
      detail: 'samba_share_not_found',
      message: 'There is no Samba share with this name in the service.',
    });
    const deleted = await call.del(auth, `${base(serviceId)}/shares/projects`);
    expect(deleted.statusCode).toBe(204);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 1);
    expect((await call.del(auth, `${base(serviceId)}/shares/projects`)).statusCode).toBe(404);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'Samba share deleted',
      tone: 'warning',
      details: { name: 'projects' },
    });
  });

  it('lists, adds and removes share users and changes their permissions', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects', groups: ['team'] });
    const shareUsers = `${base(serviceId)}/shares/projects/users`;
    const added = await call.post(auth, shareUsers, { name: 'ona' });
    expect(added.statusCode).toBe(201);
    expect(added.json<SambaShareUser>()).toEqual({
      name: 'ona',
      read: true,
      write: true,
      execute: false,
      admin: false,
    });
    expect((await call.post(auth, shareUsers, { name: 'ona' })).json()).toMatchObject({
      detail: 'samba_share_user_exists',
    });
    // No permission at all is an entry too: it keeps jonas out although his group team is in.
    const denied = await call.post(auth, shareUsers, { name: 'jonas', read: false, write: false });
    expect(denied.statusCode).toBe(201);
    expect(denied.json<SambaShareUser>()).toMatchObject({ read: false, write: false, admin: false });
    expect((await call.del(auth, `${shareUsers}/jonas`)).statusCode).toBe(204);
    expect((await call.post(auth, shareUsers, { name: 'ghost' })).json()).toMatchObject({
      errors: [{ field: 'name', code: 'workspace_user_unknown' }],
    });
    expect((await call.post(auth, shareUsers, { name: 'jonas', read: false })).json()).toMatchObject({
      errors: [{ field: 'read', code: 'share_permissions_need_read' }],
    });
    expect(
      (await call.post(auth, `${base(serviceId)}/shares/nothing/users`, { name: 'ona' })).statusCode,
    ).toBe(404);
    expect((await call.get(auth, shareUsers)).json<SambaShareUsersResponse>()).toEqual({
      users: [{ name: 'ona', read: true, write: true, execute: false, admin: false }],
    });

    const permissions = `${base(serviceId)}/shares/projects/permissions`;
    const changed = await call.patch(auth, `${permissions}/ona`, { write: false, admin: true });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<SambaShareUser>()).toEqual({
      name: 'ona',
      read: true,
      write: false,
      execute: false,
      admin: true,
    });
    expect((await call.patch(auth, `${permissions}/ona`, { read: false })).json()).toMatchObject({
      errors: [{ field: 'read', code: 'share_permissions_need_read' }],
    });
    expect((await call.patch(auth, `${permissions}/jonas`, { write: true })).json()).toMatchObject({
      detail: 'samba_share_user_not_found',
    });
    expect((await call.patch(auth, `${permissions}/ghost`, { write: true })).json()).toMatchObject({
      detail: 'workspace_user_not_found',
    });
    expect((await call.patch(auth, `${permissions}/ona`, { delete: true })).statusCode).toBe(422);
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect((await call.patch(auth, `${permissions}/ona`, { admin: true })).statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    expect((await call.get(auth, permissions)).json<SambaSharePermissionsResponse>()).toEqual({
      share: 'projects',
      permissions: [
        { kind: 'user', name: 'ona', read: true, write: false, execute: false, admin: true },
        { kind: 'group', name: 'team', read: true, write: true, execute: false, admin: false },
      ],
    });

    const removed = await call.del(auth, `${shareUsers}/ona`);
    expect(removed.statusCode).toBe(204);
    expect((await call.del(auth, `${shareUsers}/ona`)).json()).toMatchObject({
      detail: 'samba_share_user_not_found',
    });
    expect((await call.get(auth, shareUsers)).json<SambaShareUsersResponse>()).toEqual({ users: [] });
    const actions = (await activityOf(ctx, serviceId)).map((event) => `${event.action}/${event.tone}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'Samba share user added/info',
        'Samba share permissions updated/info',
        'Samba share user removed/info',
      ]),
    );
  });

  it('takes deleted users and groups out of shares, stamping the shares with that generation', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects', users: [{ name: 'ona' }], groups: ['team'] });
    await createShare(auth, serviceId, { name: 'media' });
    await nodeCaughtUp(ctx, serviceId);

    expect((await call.del(auth, `${users(serviceId)}/users/ona`)).statusCode).toBe(204);
    const afterUser = (await serviceRow(ctx, serviceId)).generation;
    expect((await shareRow(serviceId, 'projects'))?.changedGeneration).toBe(afterUser);
    expect((await shareRow(serviceId, 'media'))?.changedGeneration).toBeLessThan(afterUser);

    expect((await call.del(auth, `${users(serviceId)}/groups/team`)).statusCode).toBe(204);
    const afterGroup = (await serviceRow(ctx, serviceId)).generation;
    expect((await shareRow(serviceId, 'projects'))?.changedGeneration).toBe(afterGroup);
    const projects = (await call.get(auth, `${base(serviceId)}/shares`))
      .json<SambaSharesResponse>()
      .shares.find((share) => share.name === 'projects');
    expect(projects).toMatchObject({ users: [], groups: [], apply_status: 'applying' });
  });

  it('shows each share as applying, applied or failed from what the node reports', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects' });
    const share = async () =>
      (await call.get(auth, `${base(serviceId)}/shares`)).json<SambaSharesResponse>().shares[0];
    expect((await share())?.apply_status).toBe('applying');
    await nodeCaughtUp(ctx, serviceId);
    expect(await share()).toMatchObject({ apply_status: 'applied', apply_error: null });
    await setService(ctx, serviceId, {
      failures: [{ kind: 'share', name: 'projects', error: 'testparm: path missing' }],
    });
    expect(await share()).toMatchObject({ apply_status: 'failed', apply_error: 'testparm: path missing' });
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<SambaStatus>();
    expect(status.apply_status).toBe('failed');
  });

  it('reports status, reloads and changes the server settings', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects' });
    const status = await call.get(auth, `${base(serviceId)}/status`);
    expect(status.statusCode).toBe(200);
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect(status.json<SambaStatus>()).toEqual({
      placed: false,
      address: null,
      public_address: true,
      live: null,
      reason: null,
      apply_status: 'applying',
      generation,
      observed_generation: 0,
      reported_at: null,
      shares: 1,
      settings: {
        workgroup: 'WORKGROUP',
        server_string: 'Debesis',
        min_protocol: 'SMB2',
        apply_status: 'applied',
        apply_error: null,
      },
    });

    const reloaded = await call.post(auth, `${base(serviceId)}/reload`);
    expect(reloaded.statusCode).toBe(202);
    expect(reloaded.json<WorkspaceApplyResponse>()).toEqual({ generation: generation + 1 });

    const settings = await call.post(auth, `${base(serviceId)}/settings`, {
      workgroup: 'office',
      server_string: "Ona's files",
      min_protocol: 'SMB3',
    });
    expect(settings.statusCode).toBe(200);
    expect(settings.json<SambaSettings>()).toEqual({
      workgroup: 'OFFICE',
      server_string: "Ona's files",
      min_protocol: 'SMB3',
      apply_status: 'applying',
      apply_error: null,
    });
    expect((await call.post(auth, `${base(serviceId)}/settings`, { workgroup: 'OFFICE' })).statusCode).toBe(
      200,
    );
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation + 2);
    const invalid: Array<[object, string, string]> = [
      [{ workgroup: 'a-very-long-workgroup' }, 'workgroup', 'too_long'],
      [{ workgroup: 'my group' }, 'workgroup', 'samba_workgroup_invalid'],
      [{ server_string: '%h server' }, 'server_string', 'samba_server_string_invalid'],
      [{ server_string: 'two\nlines' }, 'server_string', 'samba_server_string_invalid'],
      [{ min_protocol: 'NT1' }, 'min_protocol', 'invalid_value'],
    ];
    for (const [body, field, code] of invalid) {
      const response = await call.post(auth, `${base(serviceId)}/settings`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ errors: [{ field, code }] });
    }

    await setService(ctx, serviceId, {
      nodeId: '00000000-0000-4000-8000-0000000000aa',
      address: '127.0.10.7',
      idBase: 1_000_000,
      observedGeneration: generation + 2,
      reportedAt: new Date('2026-01-02T03:04:05Z'),
      drivers: [{ driver: 'samba', live: false, reason: 'smbd is not installed' }],
    });
    expect((await call.get(auth, `${base(serviceId)}/status`)).json<SambaStatus>()).toMatchObject({
      placed: true,
      address: '127.0.10.7',
      live: false,
      reason: 'smbd is not installed',
      apply_status: 'applied',
      reported_at: '2026-01-02T03:04:05.000Z',
      settings: { workgroup: 'OFFICE', apply_status: 'applied' },
    });
    const actions = (await activityOf(ctx, serviceId)).map((event) => `${event.action}/${event.tone}`);
    expect(actions).toEqual(expect.arrayContaining(['Samba reloaded/info', 'Samba settings updated/info']));
  });

  it('on a plan without a public address (NAT) refuses public shares and sends stored ones to the node as not public', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await createShare(auth, serviceId, { name: 'open', bind_public_ip: true });
    // A change to Starter, whose address is NAT: the share keeps its flag, the node gets it off.
    await setService(ctx, serviceId, { productId: 'starter' });
    const status = await call.get(auth, `${base(serviceId)}/status`);
    expect(status.json()).toMatchObject({ public_address: false });
    const refused = await createShare(auth, serviceId, { name: 'other', bind_public_ip: true });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ detail: 'samba_public_ip_not_in_plan' });
    const again = await call.patch(auth, `${base(serviceId)}/shares/open`, { bind_public_ip: true });
    expect(again.statusCode).toBe(200);
    const privateOne = await createShare(auth, serviceId, { name: 'private' });
    expect(privateOne.statusCode).toBe(201);
    const desired = await sambaService().desiredSection({ serviceId, idBase: 1, publicAddress: false });
    expect(desired.samba.shares.map((share) => [share.name, share.bind_public_ip])).toEqual([
      ['open', false],
      ['private', false],
    ]);
  });

  it('answers 404 for another account’s service and 409 when the service is not running', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, { name: 'projects' });
    const stranger = await signedInUser(ctx);
    for (const [method, path] of [
      ['GET', '/shares'],
      ['GET', '/status'],
      ['GET', '/shares/projects/users'],
      ['GET', '/shares/projects/permissions'],
      ['POST', '/reload'],
      ['DELETE', '/shares/projects'],
    ] as const) {
      const response =
        method === 'GET'
          ? await call.get(stranger.auth, `${base(serviceId)}${path}`)
          : method === 'POST'
            ? await call.post(stranger.auth, `${base(serviceId)}${path}`)
            : await call.del(stranger.auth, `${base(serviceId)}${path}`);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toMatchObject({ detail: 'not_found' });
    }
    await setService(ctx, serviceId, { status: 'quarantined' });
    expect((await createShare(auth, serviceId, { name: 'more' })).json()).toMatchObject({
      detail: 'service_expired',
    });
    await setService(ctx, serviceId, { status: 'suspended' });
    expect((await call.post(auth, `${base(serviceId)}/settings`, { workgroup: 'x' })).json()).toMatchObject({
      detail: 'workspace_not_changeable',
    });
    expect((await call.get(auth, `${base(serviceId)}/shares`)).statusCode).toBe(200);
  });

  it('the services overview counts follow every change (they are kept per generation)', async () => {
    const { auth, serviceId } = await workspace();
    const counts = async () => {
      const overview = await call.get(auth, '/api/v1/services/overview');
      const item = overview
        .json<{ services: ServiceOverviewItem[] }>()
        .services.find((service) => service.id === serviceId);
      return item && { users: item.users_active, groups: item.groups, shares: item.shares };
    };
    expect(await counts()).toEqual({ users: 2, groups: 1, shares: 0 });
    expect(await counts()).toEqual({ users: 2, groups: 1, shares: 0 });
    await createShare(auth, serviceId, { name: 'projects', users: [{ name: 'ona' }] });
    expect(await counts()).toEqual({ users: 2, groups: 1, shares: 1 });
    await call.patch(auth, `${users(serviceId)}/users/ona/deactivate`);
    expect(await counts()).toEqual({ users: 1, groups: 1, shares: 1 });
    await call.del(auth, `${users(serviceId)}/groups/team`);
    expect(await counts()).toEqual({ users: 1, groups: 0, shares: 1 });
  });

  it('builds the samba section of the desired state and counts shares for the overview', async () => {
    const { auth, serviceId } = await workspace();
    await createShare(auth, serviceId, {
      name: 'projects',
      description: 'Work',
      users: [{ name: 'ona', execute: true }],
      groups: ['team'],
      bind_public_ip: true,
    });
    await createShare(auth, serviceId, { name: 'guests', guest_ok: true, browseable: false });
    const desired = await sambaService().desiredSection({
      serviceId: serviceId,
      idBase: 1,
      publicAddress: true,
    });
    for (const share of desired.samba.shares) expect(sambaShareStateSchema.parse(share)).toEqual(share);
    expect(desired).toEqual({
      samba: {
        shares: [
          {
            name: 'guests',
            path: 'shares/guests',
            description: '',
            guest_ok: true,
            browseable: false,
            bind_public_ip: false,
            users: [],
            groups: [],
          },
          {
            name: 'projects',
            path: 'shares/projects',
            description: 'Work',
            guest_ok: false,
            browseable: true,
            bind_public_ip: true,
            users: [{ name: 'ona', read: true, write: true, execute: true, admin: false }],
            groups: ['team'],
          },
        ],
        settings: SAMBA_DEFAULT_SETTINGS,
      },
    });
    // The owner's server settings travel to the node with the shares.
    await call.post(auth, `${base(serviceId)}/settings`, { workgroup: 'office', min_protocol: 'SMB3' });
    expect(
      (await sambaService().desiredSection({ serviceId: serviceId, idBase: 1, publicAddress: true })).samba
        .settings,
    ).toEqual({
      workgroup: 'OFFICE',
      server_string: SAMBA_DEFAULT_SETTINGS.server_string,
      min_protocol: 'SMB3',
    });
    const other = await ownerWithService(ctx);
    const counts = await sambaService().counts([serviceId, other.serviceId]);
    expect(counts.get(serviceId)).toEqual({ shares: 2 });
    expect(counts.get(other.serviceId)).toEqual({ shares: 0 });
    expect(
      await sambaService().desiredSection({ serviceId: other.serviceId, idBase: 1, publicAddress: true }),
    ).toEqual({
      samba: { shares: [], settings: SAMBA_DEFAULT_SETTINGS },
    });
  });
});
