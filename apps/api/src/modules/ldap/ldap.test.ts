import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ldapSectionSchema,
  type LdapBindSettingsResponse,
  type LdapBulkUpdateResponse,
  type LdapConfig,
  type LdapStatus,
  type LdapUserStatus,
  type LdapUsersResponse,
} from '@debesis/contract';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  PASSWORD,
  serviceRow,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { hashWorkspacePassword, verifySha512Crypt } from '../directory/passwords.ts';
import { workspaceUsers } from '../directory/directory.table.ts';
import { ldapDirectories, ldapUserFlags } from './ldap.table.ts';

const FUTURE = '2099-12-31';
const PAST = '2020-01-01';

describe('LDAP', () => {
  const { ctx, call, node, place } = useWorkspaceTestApp({
    clock: true,
    node: { name: 'ldap-node', addresses: ['10.17.0.1'], subnet: '10.17.1' },
  });

  const base = (serviceId: string) => `/api/v1/ldap/services/${serviceId}/ldap`;
  const desiredOf = async (serviceId: string) =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
  async function userNamed(auth: Auth, serviceId: string, name: string, active = true): Promise<void> {
    const response = await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, {
      name,
      password: PASSWORD,
      active,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  /** A placed service with users ona, jonas and (inactive) petras. */
  async function withUsers() {
    const owner = await ownerWithService(ctx);
    await place(owner.serviceId);
    await userNamed(owner.auth, owner.serviceId, 'ona');
    await userNamed(owner.auth, owner.serviceId, 'jonas');
    await userNamed(owner.auth, owner.serviceId, 'petras', false);
    return owner;
  }
  const flagRows = async (serviceId: string) =>
    ctx.database.db.select().from(ldapUserFlags).where(eq(ldapUserFlags.serviceId, serviceId));
  const generationOf = async (serviceId: string) => (await serviceRow(ctx, serviceId)).generation;

  it('is off until the first change: status and config say so, the desired state has no ldap section', async () => {
    const { auth, serviceId } = await withUsers();
    const status = await call.get(auth, `${base(serviceId)}/status`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json<LdapStatus>()).toMatchObject({
      enabled: false,
      placed: true,
      running: null,
      port: 389,
      ldaps_port: 636,
      base_dn: `dc=${serviceId},dc=debesis`,
      users: null,
      synced_at: null,
    });
    const config = (await call.get(auth, `${base(serviceId)}/config`)).json<LdapConfig>();
    expect(config).toMatchObject({
      enabled: false,
      uris: [
        expect.stringMatching(/^ldap:\/\/10\.17\.1\.\d+:389$/),
        expect.stringMatching(/^ldaps:\/\/.*:636$/),
      ],
      base_dn: `dc=${serviceId},dc=debesis`,
      users_dn: `ou=people,dc=${serviceId},dc=debesis`,
      groups_dn: `ou=groups,dc=${serviceId},dc=debesis`,
      bind_dn: `cn=reader,dc=${serviceId},dc=debesis`,
      bind_password_set: false,
      anonymous_read: false,
    });
    expect((await desiredOf(serviceId))?.ldap).toBeUndefined();
  });

  it('makes the bind password once, keeps only its crypt, rotates it, and sets anonymous reads', async () => {
    const { auth, serviceId } = await withUsers();
    const before = await generationOf(serviceId);
    const response = await call.post(auth, `${base(serviceId)}/bind-settings`, { rotate_password: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const first = response.json<LdapBindSettingsResponse>();
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.bind_dn).toBe(`cn=reader,dc=${serviceId},dc=debesis`);
    expect(first.generation).toBe(before + 1);
    const [row] = await ctx.database.db
      .select()
      .from(ldapDirectories)
      .where(eq(ldapDirectories.serviceId, serviceId));
    expect(verifySha512Crypt(first.password ?? '', row?.bindPasswordCrypt ?? '')).toBe(true);

    const section = (await desiredOf(serviceId))?.ldap;
    expect(section && ldapSectionSchema.parse(section)).toEqual(section);
    expect(section).toEqual({
      enabled: true,
      port: 389,
      ldaps_port: 636,
      bind_password_crypt: row?.bindPasswordCrypt,
      anonymous_read: false,
      time_zone: 'Europe/Vilnius',
      users: [],
      alias: row?.alias,
    });
    const config = (await call.get(auth, `${base(serviceId)}/config`)).json<LdapConfig>();
    expect(config).toMatchObject({ enabled: true, bind_password_set: true });
    expect(JSON.stringify(config)).not.toContain('$6$');

    const rotated = (
      await call.post(auth, `${base(serviceId)}/bind-settings`, {
        rotate_password: true,
        anonymous_read: true,
      })
    ).json<LdapBindSettingsResponse>();
    expect(rotated.password).not.toBe(first.password);
    expect(rotated.anonymous_read).toBe(true);
    expect((await desiredOf(serviceId))?.ldap).toMatchObject({ anonymous_read: true });
    expect((await desiredOf(serviceId))?.ldap?.bind_password_crypt).not.toBe(row?.bindPasswordCrypt);

    // Nothing to change: no new generation, no password.
    const same = (
      await call.post(auth, `${base(serviceId)}/bind-settings`, { anonymous_read: true })
    ).json<LdapBindSettingsResponse>();
    expect(same).toMatchObject({ password: null, generation: rotated.generation });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'LDAP bind settings updated',
      tone: 'info',
      details: { fields: ['bind_password', 'anonymous_read'], anonymous_read: true },
    });
  });

  it('a new directory takes its alias from the service’s name; the owner changes or clears it, each a new generation', async () => {
    const { auth, serviceId } = await withUsers();
    await setService(ctx, serviceId, { name: 'Biuro Šeima' });
    // Before the first change: the alias it will get.
    expect((await call.get(auth, `${base(serviceId)}/config`)).json<LdapConfig>()).toMatchObject({
      enabled: false,
      alias: 'biuro-seima',
      base_dn_alias: 'dc=biuro-seima,dc=debesis',
    });
    await call.post(auth, `${base(serviceId)}/bind-settings`, { anonymous_read: false });
    expect((await desiredOf(serviceId))?.ldap?.alias).toBe('biuro-seima');
    // A renamed service keeps its directory's alias: applications' settings do not move.
    await setService(ctx, serviceId, { name: 'Kitas' });
    expect((await call.get(auth, `${base(serviceId)}/status`)).json<LdapStatus>()).toMatchObject({
      base_dn: `dc=${serviceId},dc=debesis`,
      base_dn_alias: 'dc=biuro-seima,dc=debesis',
    });

    const before = await generationOf(serviceId);
    const changed = await call.post(auth, `${base(serviceId)}/alias`, { alias: 'failai' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      alias: 'failai',
      base_dn_alias: 'dc=failai,dc=debesis',
      generation: before + 1,
    });
    expect(await generationOf(serviceId)).toBe(before + 1);
    expect((await desiredOf(serviceId))?.ldap?.alias).toBe('failai');
    expect((await call.get(auth, `${base(serviceId)}/config`)).json<LdapConfig>()).toMatchObject({
      alias: 'failai',
      base_dn_alias: 'dc=failai,dc=debesis',
      base_dn: `dc=${serviceId},dc=debesis`,
    });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'LDAP alias changed',
      tone: 'info',
      details: { from: 'biuro-seima', to: 'failai' },
    });
    // The same alias again: nothing to apply.
    const same = await call.post(auth, `${base(serviceId)}/alias`, { alias: 'failai' });
    expect(same.json()).toMatchObject({ generation: before + 1 });
    const cleared = await call.post(auth, `${base(serviceId)}/alias`, { alias: null });
    expect(cleared.json()).toEqual({ alias: null, base_dn_alias: null, generation: before + 2 });
    expect((await desiredOf(serviceId))?.ldap?.alias).toBeNull();
    expect((await call.get(auth, `${base(serviceId)}/status`)).json()).toMatchObject({ base_dn_alias: null });
  });

  it('the alias is its first change when LDAP is off; a name with nothing to slug gives none', async () => {
    const { auth, serviceId } = await withUsers();
    await setService(ctx, serviceId, { name: '★★★' });
    expect((await call.get(auth, `${base(serviceId)}/config`)).json()).toMatchObject({ alias: null });
    const response = await call.post(auth, `${base(serviceId)}/alias`, { alias: 'nas' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await desiredOf(serviceId))?.ldap).toMatchObject({ enabled: true, alias: 'nas' });
  });

  it('refuses an alias that is no lower-case DNS label, or the service id, in both languages', async () => {
    const { auth, serviceId } = await withUsers();
    await call.post(auth, `${base(serviceId)}/alias`, { alias: 'biuras' });
    const generation = await generationOf(serviceId);
    for (const alias of ['', 'Biuras', '-biuras', 'biuras-', 'biu_ras', 'biu.ras', 'a'.repeat(64), 5]) {
      const bad = await call.post(auth, `${base(serviceId)}/alias`, { alias });
      expect(bad.statusCode, `${JSON.stringify(alias)} ${bad.body}`).toBe(422);
      expect(bad.json(), JSON.stringify(alias)).toMatchObject({
        errors: [{ field: 'alias', code: 'ldap_alias_invalid' }],
      });
    }
    const messages = await Promise.all(
      (['en', 'lt'] as const).map(async (language) => {
        const bad = await call.post({ ...auth, 'accept-language': language }, `${base(serviceId)}/alias`, {
          alias: 'Biuras',
        });
        return bad.json<{ errors: Array<{ message: string }> }>().errors[0]?.message;
      }),
    );
    expect(messages).toEqual([
      'Use 1 to 63 lower-case letters, numbers and hyphens, not starting or ending with a hyphen',
      'Naudokite nuo 1 iki 63 mažųjų raidžių, skaitmenų ir brūkšnelių; brūkšnelis negali būti pirmas ar paskutinis',
    ]);
    const own = await call.post({ ...auth, 'accept-language': 'lt' }, `${base(serviceId)}/alias`, {
      alias: serviceId,
    });
    expect(own.statusCode).toBe(422);
    expect(own.json()).toMatchObject({
      errors: [
        {
          field: 'alias',
          code: 'ldap_alias_is_service_id',
          message: 'Tai jau yra paties katalogo bazinis pavadinimas. Pasirinkite kitą sinonimą',
        },
      ],
    });
    expect(await generationOf(serviceId)).toBe(generation);
    expect((await desiredOf(serviceId))?.ldap?.alias).toBe('biuras');
  });

  it('suspends and lifts a suspension; the section lists only users with a flag', async () => {
    const { auth, serviceId } = await withUsers();
    const response = await call.post(auth, `${base(serviceId)}/users/ona/suspend`, { suspend: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<LdapUserStatus>()).toMatchObject({
      username: 'ona',
      dn: `uid=ona,ou=people,dc=${serviceId},dc=debesis`,
      suspended: true,
      can_bind: false,
      apply_status: 'applying',
    });
    expect((await desiredOf(serviceId))?.ldap?.users).toEqual([
      { name: 'ona', suspended: true, expires_on: null },
    ]);
    const status = (await call.get(auth, `${base(serviceId)}/users/ona/status`)).json<LdapUserStatus>();
    expect(status).toMatchObject({ suspended: true, can_bind: false });
    expect((await call.get(auth, `${base(serviceId)}/users/jonas/status`)).json()).toMatchObject({
      suspended: false,
      can_bind: true,
    });
    await call.post(auth, `${base(serviceId)}/users/ona/suspend`, { suspend: false });
    expect((await desiredOf(serviceId))?.ldap?.users).toEqual([]);
    expect(await flagRows(serviceId)).toEqual([]);
  });

  it('keeps the suspension of an inactive user (it stays suspended when made active again)', async () => {
    const { auth, serviceId } = await withUsers();
    const response = await call.post(auth, `${base(serviceId)}/users/petras/suspend`, { suspend: true });
    expect(response.json<LdapUserStatus>()).toMatchObject({
      active: false,
      suspended: true,
      can_bind: false,
    });
    const activated = await call.patch(auth, `/api/v1/user-groups/${serviceId}/users/petras/activate`);
    expect(activated.statusCode, activated.body).toBe(200);
    expect((await call.get(auth, `${base(serviceId)}/users/petras/status`)).json()).toMatchObject({
      active: true,
      suspended: true,
      can_bind: false,
    });
  });

  it('sets and clears an expiry date; refuses a past or malformed one and changes nothing', async () => {
    const { auth, serviceId } = await withUsers();
    const set = await call.post(auth, `${base(serviceId)}/users/jonas/expiry`, { expiry_date: FUTURE });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<LdapUserStatus>()).toMatchObject({ expiry_date: FUTURE, expired: false, can_bind: true });
    expect((await desiredOf(serviceId))?.ldap?.users).toEqual([
      { name: 'jonas', suspended: false, expires_on: FUTURE },
    ]);
    const generation = await generationOf(serviceId);
    for (const [expiry_date, code] of [
      [PAST, 'ldap_date_past'],
      ['2026-02-30', 'ldap_date_invalid'],
      ['31.12.2099', 'ldap_date_invalid'],
      [5, 'invalid_type'],
    ] as const) {
      const bad = await call.post(auth, `${base(serviceId)}/users/jonas/expiry`, { expiry_date });
      expect(bad.statusCode, bad.body).toBe(422);
      expect(bad.json()).toMatchObject({ errors: [{ field: 'expiry_date', code }] });
    }
    expect(await generationOf(serviceId)).toBe(generation);
    const cleared = await call.post(auth, `${base(serviceId)}/users/jonas/expiry`, { expiry_date: null });
    expect(cleared.json<LdapUserStatus>()).toMatchObject({ expiry_date: null });
    expect(await flagRows(serviceId)).toEqual([]);
  });

  it('refuses bad input with field errors and an unknown user with 404', async () => {
    const { auth, serviceId } = await withUsers();
    const generation = await generationOf(serviceId);
    const cases: Array<[string, object, string, string]> = [
      ['users/ona/suspend', {}, 'suspend', 'invalid_type'],
      ['users/ona/suspend', { suspend: 'yes' }, 'suspend', 'invalid_type'],
      ['bind-settings', { rotate_password: 'yes' }, 'rotate_password', 'invalid_type'],
      ['bulk-update', { users: [], operation: 'suspend' }, 'users', 'too_small'],
      ['bulk-update', { users: ['ona'], operation: 'delete' }, 'operation', 'invalid_value'],
      ['bulk-update', { users: ['ona'], operation: 'set_expiry' }, 'expiry_date', 'required'],
      [
        'bulk-update',
        { users: ['ona'], operation: 'set_expiry', expiry_date: PAST },
        'expiry_date',
        'ldap_date_past',
      ],
    ];
    for (const [path, body, field, code] of cases) {
      const response = await call.post(auth, `${base(serviceId)}/${path}`, body);
      expect(response.statusCode, `${path} ${JSON.stringify(body)} ${response.body}`).toBe(422);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ errors: [{ field, code }] });
    }
    const missing = await call.post(auth, `${base(serviceId)}/users/niekas/suspend`, { suspend: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: 'ldap_user_not_found' });
    expect((await call.get(auth, `${base(serviceId)}/users/niekas/status`)).statusCode).toBe(404);
    expect(await generationOf(serviceId)).toBe(generation);
    expect(await flagRows(serviceId)).toEqual([]);
  });

  it('answers 404 for another account’s service on every route', async () => {
    const { serviceId } = await withUsers();
    const stranger = await ownerWithService(ctx);
    const generation = await generationOf(serviceId);
    for (const path of ['status', 'config', 'users', 'users/ona/status']) {
      expect((await call.get(stranger.auth, `${base(serviceId)}/${path}`)).statusCode, path).toBe(404);
    }
    for (const [path, body] of [
      ['bind-settings', { rotate_password: true }],
      ['alias', { alias: 'svetimas' }],
      ['users/ona/suspend', { suspend: true }],
      ['users/ona/expiry', { expiry_date: FUTURE }],
      ['bulk-update', { users: ['ona'], operation: 'suspend' }],
    ] as const) {
      expect((await call.post(stranger.auth, `${base(serviceId)}/${path}`, body)).statusCode, path).toBe(404);
    }
    expect(await generationOf(serviceId)).toBe(generation);
    expect(await flagRows(serviceId)).toEqual([]);
  });

  it('bulk: all or nothing (an unknown user is named, nothing changes); 200 users in one generation', async () => {
    const { auth, serviceId } = await withUsers();
    const generation = await generationOf(serviceId);
    const unknown = await call.post(auth, `${base(serviceId)}/bulk-update`, {
      users: ['ona', 'ghost', 'jonas'],
      operation: 'suspend',
    });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json()).toMatchObject({
      errors: [{ field: 'users.1', code: 'ldap_user_unknown' }],
    });
    expect(unknown.json<{ errors: Array<{ message: string }> }>().errors[0]?.message).toContain('“ghost”');
    expect(await generationOf(serviceId)).toBe(generation);
    expect(await flagRows(serviceId)).toEqual([]);

    const service = await serviceRow(ctx, serviceId);
    const hashes = await hashWorkspacePassword(PASSWORD);
    const names = Array.from({ length: 200 }, (_, index) => `bulk${String(index).padStart(3, '0')}`);
    await ctx.database.db.insert(workspaceUsers).values(
      names.map((name, index) => ({
        serviceId,
        accountId: service.accountId,
        name,
        idOffset: 1000 + index,
        passwordCrypt: hashes.crypt,
        passwordNt: hashes.nt,
        changedGeneration: generation,
      })),
    );
    const suspended = await call.post(auth, `${base(serviceId)}/bulk-update`, {
      users: names,
      operation: 'suspend',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const body = suspended.json<LdapBulkUpdateResponse>();
    expect(body).toMatchObject({ operation: 'suspend', changed: 200, generation: generation + 1 });
    expect(body.users.every((user) => user.suspended && !user.can_bind)).toBe(true);
    expect(await generationOf(serviceId)).toBe(generation + 1);
    const section = (await desiredOf(serviceId))?.ldap;
    expect(section?.users).toHaveLength(200);

    const expiring = await call.post(auth, `${base(serviceId)}/bulk-update`, {
      users: names,
      operation: 'set_expiry',
      expiry_date: FUTURE,
    });
    expect(expiring.json<LdapBulkUpdateResponse>()).toMatchObject({
      changed: 200,
      generation: generation + 2,
    });
    await call.post(auth, `${base(serviceId)}/bulk-update`, { users: names, operation: 'unsuspend' });
    expect((await desiredOf(serviceId))?.ldap?.users[0]).toEqual({
      name: 'bulk000',
      suspended: false,
      expires_on: FUTURE,
    });
    await call.post(auth, `${base(serviceId)}/bulk-update`, { users: names, operation: 'clear_expiry' });
    expect(await flagRows(serviceId)).toEqual([]);
    // Again: nothing changes, no new generation.
    const again = await call.post(auth, `${base(serviceId)}/bulk-update`, {
      users: names,
      operation: 'clear_expiry',
    });
    expect(again.json<LdapBulkUpdateResponse>()).toMatchObject({ changed: 0 });
    expect(await generationOf(serviceId)).toBe(generation + 4);
    const users = (await call.get(auth, `${base(serviceId)}/users`)).json<LdapUsersResponse>();
    expect(users.users).toHaveLength(203);
  });

  it('stores what the node reports of its directory and shows it in the status', async () => {
    const { auth, serviceId } = await withUsers();
    await call.post(auth, `${base(serviceId)}/users/ona/suspend`, { suspend: true });
    await node.report([
      {
        service_id: serviceId,
        observed_generation: await generationOf(serviceId),
        ok: true,
        drivers: [],
        failures: [],
        features: {
          ldap: {
            users: 3,
            groups: 1,
            locked_users: ['ona', 'petras'],
            synced_at: '2026-11-23T10:00:00.000Z',
          },
        },
      },
    ]);
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<LdapStatus>();
    expect(status).toMatchObject({
      enabled: true,
      users: 3,
      groups: 1,
      locked_users: ['ona', 'petras'],
      synced_at: '2026-11-23T10:00:00.000Z',
      apply_status: 'applied',
    });
    expect((await call.get(auth, `${base(serviceId)}/users/ona/status`)).json()).toMatchObject({
      locked_on_node: true,
      apply_status: 'applied',
    });
  });
});
