import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  FTP_DEFAULT_SETTINGS,
  ftpSectionSchema,
  sftpSectionSchema,
  type ErrorResponse,
  type FileSessionsReport,
  type FtpSessionsResponse,
  type FtpSettings,
  type FtpStatus,
  type FtpUser,
  type FtpUsersResponse,
  type WorkspaceApplyResponse,
} from '@debesis/contract';
import { injectWithCsrf } from '../../test/test-app.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  PASSWORD,
  serviceRow,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { ftpSessions, ftpSettings, ftpUsers } from './ftp.table.ts';

const SETTINGS = {
  ftp_enabled: true,
  sftp_enabled: true,
  passive_port_min: 40000,
  passive_port_max: 40019,
  max_clients: 10,
  max_clients_per_user: 3,
  idle_timeout_minutes: 30,
  tls_required: true,
};

describe('FTP and SFTP', () => {
  const { ctx, call, node, place } = useWorkspaceTestApp({
    node: { name: 'ftp-node', addresses: ['10.16.0.1'] },
  });

  const base = (serviceId: string) => `/api/v1/ftp/${serviceId}`;
  const put = (auth: Auth, url: string, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'PUT', url, headers: auth, payload });
  const users = async (auth: Auth, serviceId: string) =>
    (await call.get(auth, `${base(serviceId)}/users`)).json<FtpUsersResponse>().users;
  const desiredOf = async (serviceId: string) =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
  const generationOf = async (serviceId: string) => (await serviceRow(ctx, serviceId)).generation;

  /** An owner's service on the test's node, with users ona and jonas. */
  async function workspace() {
    const owned = await ownerWithService(ctx);
    await place(owned.serviceId);
    for (const name of ['ona', 'jonas']) {
      const created = await call.post(owned.auth, `/api/v1/user-groups/${owned.serviceId}/users`, {
        name,
        password: PASSWORD,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    return owned;
  }

  it('is on by default: every user may sign in, read and write, and the desired state says so', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const address = await place(serviceId);
    // No users: nothing to serve, no sections.
    const empty = await desiredOf(serviceId);
    expect(empty?.ftp).toBeUndefined();
    expect(empty?.sftp).toBeUndefined();

    await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, { name: 'ona', password: PASSWORD });
    expect(await users(auth, serviceId)).toEqual([
      {
        name: 'ona',
        active: true,
        enabled: true,
        permissions: 'read_write',
        sessions: 0,
        apply_status: 'applying',
        apply_error: null,
      },
    ]);
    const desired = await desiredOf(serviceId);
    expect(ftpSectionSchema.parse(desired?.ftp)).toEqual({
      enabled: true,
      port: 21,
      passive_port_min: FTP_DEFAULT_SETTINGS.passive_port_min,
      passive_port_max: FTP_DEFAULT_SETTINGS.passive_port_max,
      max_clients: FTP_DEFAULT_SETTINGS.max_clients,
      max_clients_per_user: FTP_DEFAULT_SETTINGS.max_clients_per_user,
      idle_timeout_minutes: FTP_DEFAULT_SETTINGS.idle_timeout_minutes,
      tls_required: false,
      users: [{ name: 'ona', enabled: true, permissions: 'read_write' }],
    });
    expect(sftpSectionSchema.parse(desired?.sftp)).toEqual({ enabled: true, port: 22 });
    // The password the user signs in with is the directory's (one for SMB, FTP and SFTP).
    expect(desired?.users.find((user) => user.name === 'ona')?.password_crypt).toMatch(/^\$6\$/);
    // Nothing stored until the owner changes something.
    expect(await ctx.database.db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId))).toEqual(
      [],
    );

    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<FtpStatus>();
    expect(status).toMatchObject({
      placed: true,
      address,
      ftp: { enabled: true, port: 21, serving: null, live: null },
      sftp: { enabled: true, port: 22, serving: null, live: null },
      mode: 'passive',
      passive_port_min: 30000,
      passive_port_max: 30099,
      tls_required: false,
      users: 1,
      users_total: 1,
      sessions: 0,
    });
  });

  it('sets a user read-only: stamped, logged, sent to the node; the same again changes nothing', async () => {
    const { auth, serviceId } = await workspace();
    const before = await generationOf(serviceId);
    const response = await put(auth, `${base(serviceId)}/users/ona/permissions`, {
      permissions: 'read_only',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<FtpUser>()).toMatchObject({
      name: 'ona',
      enabled: true,
      permissions: 'read_only',
      apply_status: 'applying',
    });
    const generation = await generationOf(serviceId);
    expect(generation).toBe(before + 1);
    const [row] = await ctx.database.db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId));
    expect(row).toMatchObject({ enabled: true, permissions: 'read_only', changedGeneration: generation });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'FTP permissions updated',
      tone: 'info',
      details: { name: 'ona', permissions: 'read_only' },
    });
    expect((await desiredOf(serviceId))?.ftp?.users).toEqual([
      { name: 'jonas', enabled: true, permissions: 'read_write' },
      { name: 'ona', enabled: true, permissions: 'read_only' },
    ]);

    const again = await put(auth, `${base(serviceId)}/users/ona/permissions`, { permissions: 'read_only' });
    expect(again.statusCode).toBe(200);
    expect(await generationOf(serviceId)).toBe(generation);

    // Once the node reports the generation, the user is applied; a failure it names shows.
    await node.report([
      {
        service_id: serviceId,
        observed_generation: generation,
        ok: true,
        drivers: [],
        failures: [{ kind: 'ftp_user', name: 'jonas', error: 'share "home" is not in the FTP/SFTP folder' }],
      },
    ]);
    const listed = await users(auth, serviceId);
    expect(listed.find((user) => user.name === 'ona')?.apply_status).toBe('applied');
    expect(listed.find((user) => user.name === 'jonas')).toMatchObject({
      apply_status: 'failed',
      apply_error: 'share "home" is not in the FTP/SFTP folder',
    });
  });

  it('disables and enables a user; with nobody left to sign in the servers are off', async () => {
    const { auth, serviceId } = await workspace();
    const disabled = await call.post(auth, `${base(serviceId)}/users/ona/disable`);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json<FtpUser>()).toMatchObject({
      name: 'ona',
      enabled: false,
      permissions: 'read_write',
    });
    expect((await desiredOf(serviceId))?.ftp).toMatchObject({
      enabled: true,
      users: [
        { name: 'jonas', enabled: true, permissions: 'read_write' },
        { name: 'ona', enabled: false, permissions: 'read_write' },
      ],
    });
    await call.post(auth, `${base(serviceId)}/users/jonas/disable`);
    const off = await desiredOf(serviceId);
    expect(off?.ftp?.enabled).toBe(false);
    expect(off?.sftp?.enabled).toBe(false);
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<FtpStatus>();
    expect(status.users).toBe(0);
    expect(status.users_total).toBe(2);

    const enabled = await call.post(auth, `${base(serviceId)}/users/ona/enable`);
    expect(enabled.json<FtpUser>().enabled).toBe(true);
    expect((await desiredOf(serviceId))?.ftp?.enabled).toBe(true);
    const actions = (await activityOf(ctx, serviceId)).map((entry) => entry.action);
    expect(actions.filter((action) => action.startsWith('FTP'))).toEqual([
      'FTP user disabled',
      'FTP user disabled',
      'FTP user enabled',
    ]);
  });

  it('refuses an unknown user (404) and bad permissions (field error), changing nothing', async () => {
    const { auth, serviceId } = await workspace();
    const generation = await generationOf(serviceId);
    for (const response of [
      await call.post(auth, `${base(serviceId)}/users/ghost/disable`),
      await call.post(auth, `${base(serviceId)}/users/ghost/enable`),
      await put(auth, `${base(serviceId)}/users/ghost/permissions`, { permissions: 'read_only' }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorResponse>().detail).toBe('workspace_user_not_found');
    }
    const bad = await put(auth, `${base(serviceId)}/users/ona/permissions`, { permissions: 'admin' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<ErrorResponse>().errors).toEqual([
      expect.objectContaining({ field: 'permissions', code: 'invalid_value' }),
    ]);
    expect(await generationOf(serviceId)).toBe(generation);
    expect(await ctx.database.db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId))).toEqual(
      [],
    );
  });

  it('reads and replaces the settings; they reach the node', async () => {
    const { auth, serviceId } = await workspace();
    const defaults = (await call.get(auth, `${base(serviceId)}/settings`)).json<FtpSettings>();
    expect(defaults).toMatchObject({ ...FTP_DEFAULT_SETTINGS, anonymous: false, default: true });

    const response = await put(auth, `${base(serviceId)}/settings`, { ...SETTINGS, anonymous: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<FtpSettings>()).toMatchObject({
      ...SETTINGS,
      anonymous: false,
      default: false,
      apply_status: 'applying',
    });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'FTP settings updated',
      tone: 'info',
      details: {
        fields: [
          'passive_port_min',
          'passive_port_max',
          'max_clients',
          'max_clients_per_user',
          'idle_timeout_minutes',
          'tls_required',
        ],
      },
    });
    expect((await desiredOf(serviceId))?.ftp).toMatchObject({
      enabled: true,
      passive_port_min: 40000,
      passive_port_max: 40019,
      max_clients: 10,
      max_clients_per_user: 3,
      idle_timeout_minutes: 30,
      tls_required: true,
    });

    const generation = await generationOf(serviceId);
    const same = await put(auth, `${base(serviceId)}/settings`, SETTINGS);
    expect(same.statusCode).toBe(200);
    expect(await generationOf(serviceId)).toBe(generation);

    // SFTP alone: the FTP server is off, SFTP keeps the users.
    await put(auth, `${base(serviceId)}/settings`, { ...SETTINGS, ftp_enabled: false });
    const desired = await desiredOf(serviceId);
    expect(desired?.ftp?.enabled).toBe(false);
    expect(desired?.ftp?.users).toHaveLength(2);
    expect(desired?.sftp).toEqual({ enabled: true, port: 22 });
  });

  it('refuses settings the node could not run, field by field, and applies none of them', async () => {
    const { auth, serviceId } = await workspace();
    const generation = await generationOf(serviceId);
    const cases: Array<[object, string, string]> = [
      [{ passive_port_min: 21 }, 'passive_port_min', 'ftp_port_out_of_range'],
      [{ passive_port_min: 1023 }, 'passive_port_min', 'ftp_port_out_of_range'],
      [{ passive_port_max: 65536 }, 'passive_port_max', 'ftp_port_out_of_range'],
      [
        { passive_port_min: 40020, passive_port_max: 40000 },
        'passive_port_max',
        'ftp_passive_range_reversed',
      ],
      [{ max_clients: 11 }, 'max_clients', 'ftp_passive_range_too_small'],
      [{ max_clients: 0 }, 'max_clients', 'ftp_limit_not_positive'],
      [{ max_clients_per_user: -1 }, 'max_clients_per_user', 'ftp_limit_not_positive'],
      [{ max_clients_per_user: 11 }, 'max_clients_per_user', 'ftp_per_user_above_max_clients'],
      [{ idle_timeout_minutes: 0 }, 'idle_timeout_minutes', 'ftp_limit_not_positive'],
      [{ idle_timeout_minutes: 1.5 }, 'idle_timeout_minutes', 'not_integer'],
      [{ anonymous: true }, 'anonymous', 'ftp_anonymous_off'],
      [{ passive_port_min: '40000' }, 'passive_port_min', 'invalid_type'],
    ];
    for (const [change, field, code] of cases) {
      const response = await put(auth, `${base(serviceId)}/settings`, { ...SETTINGS, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(response.json<ErrorResponse>().errors, JSON.stringify(change)).toContainEqual(
        expect.objectContaining({ field, code }),
      );
    }
    const missing = await put(auth, `${base(serviceId)}/settings`, { ftp_enabled: false });
    expect(missing.statusCode).toBe(422);
    expect(missing.json<ErrorResponse>().errors).toContainEqual(
      expect.objectContaining({ field: 'passive_port_min', code: 'required' }),
    );
    // The Lithuanian words come from the same catalogue.
    const lt = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: `${base(serviceId)}/settings`,
      headers: { ...auth, 'accept-language': 'lt' },
      payload: { ...SETTINGS, passive_port_min: 80 },
    });
    expect(lt.json<ErrorResponse>().errors?.[0]?.message).toBe('Nurodykite prievadą nuo 1024 iki 65535');
    expect(await generationOf(serviceId)).toBe(generation);
    expect(
      await ctx.database.db.select().from(ftpSettings).where(eq(ftpSettings.serviceId, serviceId)),
    ).toEqual([]);
  });

  it('keeps the sessions the node reports, FTP and SFTP apart; names it does not know are dropped', async () => {
    const { auth, serviceId } = await workspace();
    const generation = await generationOf(serviceId);
    const report = (features: { ftp?: FileSessionsReport; sftp?: FileSessionsReport }) =>
      node.report([
        {
          service_id: serviceId,
          observed_generation: generation,
          ok: true,
          drivers: [
            { driver: 'ftp', live: true, serving: true },
            { driver: 'sftp', live: false, reason: 'sshd is not installed' },
          ],
          failures: [],
          features,
        },
      ]);
    await report({
      ftp: {
        sessions: [
          { user: 'ona', remote_address: '198.51.100.7:50123', connected_since: '2026-03-10T10:00:00.000Z' },
          { user: 'ghost', connected_since: '2026-03-10T10:01:00.000Z' },
        ],
      },
      sftp: { sessions: [{ user: 'ona', connected_since: '2026-03-10T10:02:00.000Z' }] },
    });
    const sessions = (await call.get(auth, `${base(serviceId)}/sessions`)).json<FtpSessionsResponse>();
    expect(sessions.sessions).toEqual([
      {
        protocol: 'ftp',
        user: 'ona',
        remote_address: '198.51.100.7:50123',
        connected_since: '2026-03-10T10:00:00.000Z',
      },
      { protocol: 'sftp', user: 'ona', remote_address: null, connected_since: '2026-03-10T10:02:00.000Z' },
    ]);
    expect(sessions.reported_at).not.toBeNull();
    expect((await users(auth, serviceId)).find((user) => user.name === 'ona')?.sessions).toBe(2);
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<FtpStatus>();
    expect(status).toMatchObject({
      sessions: 2,
      apply_status: 'applied',
      ftp: { live: true, serving: true },
      sftp: { live: false, serving: null, reason: 'sshd is not installed' },
    });

    // The next report replaces the protocol it carries, and only that one.
    await report({ ftp: { sessions: [] } });
    const after = (await call.get(auth, `${base(serviceId)}/sessions`)).json<FtpSessionsResponse>();
    expect(after.sessions.map((session) => session.protocol)).toEqual(['sftp']);
  });

  it('forgets a user the directory deletes: access, sessions and the desired state', async () => {
    const { auth, serviceId } = await workspace();
    await put(auth, `${base(serviceId)}/users/jonas/permissions`, { permissions: 'read_only' });
    await node.report([
      {
        service_id: serviceId,
        observed_generation: await generationOf(serviceId),
        ok: true,
        drivers: [],
        failures: [],
        features: { sftp: { sessions: [{ user: 'jonas', connected_since: '2026-03-10T10:02:00.000Z' }] } },
      },
    ]);
    const deleted = await call.del(auth, `/api/v1/user-groups/${serviceId}/users/jonas`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await users(auth, serviceId)).map((user) => user.name)).toEqual(['ona']);
    expect(await ctx.database.db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId))).toEqual(
      [],
    );
    expect(
      await ctx.database.db.select().from(ftpSessions).where(eq(ftpSessions.serviceId, serviceId)),
    ).toEqual([]);
    expect((await desiredOf(serviceId))?.ftp?.users).toEqual([
      { name: 'ona', enabled: true, permissions: 'read_write' },
    ]);
    // A new user of the same name starts with the default access.
    await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, { name: 'jonas', password: PASSWORD });
    expect((await users(auth, serviceId)).find((user) => user.name === 'jonas')?.permissions).toBe(
      'read_write',
    );
  });

  it('answers 404 for another account’s service on every route and changes nothing', async () => {
    const { serviceId } = await workspace();
    const stranger = await ownerWithService(ctx);
    const generation = await generationOf(serviceId);
    const responses = [
      await call.get(stranger.auth, `${base(serviceId)}/status`),
      await call.get(stranger.auth, `${base(serviceId)}/users`),
      await call.get(stranger.auth, `${base(serviceId)}/sessions`),
      await call.get(stranger.auth, `${base(serviceId)}/settings`),
      await call.post(stranger.auth, `${base(serviceId)}/users/ona/enable`),
      await call.post(stranger.auth, `${base(serviceId)}/users/ona/disable`),
      await put(stranger.auth, `${base(serviceId)}/users/ona/permissions`, { permissions: 'read_only' }),
      await put(stranger.auth, `${base(serviceId)}/settings`, SETTINGS),
      await call.post(stranger.auth, `${base(serviceId)}/reload`),
    ];
    for (const response of responses) expect(response.statusCode, response.body).toBe(404);
    expect(await generationOf(serviceId)).toBe(generation);
    expect(await ctx.database.db.select().from(ftpUsers).where(eq(ftpUsers.serviceId, serviceId))).toEqual(
      [],
    );
    expect(
      await ctx.database.db.select().from(ftpSettings).where(eq(ftpSettings.serviceId, serviceId)),
    ).toEqual([]);
  });

  it('reloads: a new generation for the node, logged', async () => {
    const { auth, serviceId } = await workspace();
    const before = await generationOf(serviceId);
    const response = await call.post(auth, `${base(serviceId)}/reload`);
    expect(response.statusCode).toBe(202);
    expect(response.json<WorkspaceApplyResponse>().generation).toBe(before + 1);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'FTP reloaded',
      tone: 'info',
      details: {},
    });
  });
});
