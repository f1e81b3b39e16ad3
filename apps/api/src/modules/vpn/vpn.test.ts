import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  VPN_CONFIG_LINK_TTL_SECONDS,
  vpnSectionSchema,
  type LoginResponse,
  type NodeCallKind,
  type NodeCallPayload,
  type ServiceOverviewItem,
  type VpnConfigLinkResponse,
  type VpnConfigResponse,
  type VpnReport,
  type VpnSessionsResponse,
  type VpnStatus,
  type VpnTrafficResponse,
  type VpnUser,
  type VpnUsersResponse,
  type WorkspaceApplyResponse,
} from '@debesis/contract';
import { login, signedInUser } from '../../test/factories.ts';
import {
  expectHiddenFromStranger,
  type Route,
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  PASSWORD,
  serviceRow,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { workspaceReport } from '../../test/services.ts';
import { verifySha512Crypt } from '../directory/passwords.ts';
import type { NodeCallFailureCode, NodeCalls } from '../workspace/workspace-feature.ts';
import { vpnUsers } from './vpn.table.ts';
import { addressWithoutPort } from './vpn.presenter.ts';
import { usageDelta } from './vpn.report.ts';
import { configFilename } from './vpn-logins.ts';
import { monthOf, trafficBuckets } from './vpn.traffic.ts';

const HOUR_MS = 3_600_000;

/** A node that answers the API's questions as the agent would, and remembers them. */
function fakeNode() {
  const asked: Array<{ serviceId: string; kind: NodeCallKind; payload: unknown }> = [];
  let failure: NodeCallFailureCode | null = null;
  const answers = {
    'vpn.config': (payload: NodeCallPayload<'vpn.config'>) => ({
      ovpn: `client\nremote 10.15.0.1 1194 udp\n# ${payload.user} certificate ${payload.cert_generation}\n`,
    }),
    'vpn.disconnect': () => ({ disconnected: 2 }),
    'vpn.kill_all': () => ({ disconnected: 3 }),
    'backup.browse': () => ({ found: false, entries: [], truncated: false }),
    'storage.browse': () => ({ found: false, entries: [], truncated: false }),
    'share.describe': () => ({ found: false }),
    'nfs.disconnect': () => ({ blocked_until: new Date(0).toISOString() }),
    'snapshot.take': () => ({
      name: '@GMT-2026.01.01-00.00.00',
      taken_at: '2026-01-01T00:00:00.000Z',
      kind: 'manual',
    }),
    'snapshot.browse': () => ({ found: false, entries: [], truncated: false }),
  };
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind, payload: never) => {
      asked.push({ serviceId, kind, payload });
      if (failure) return { ok: false, code: failure, error: `the node says ${failure}` };
      return { ok: true, result: answers[kind](payload) };
    }) as NodeCalls['call'],
    stream: () => Promise.resolve({ ok: false, code: 'unsupported', error: 'no streams here' }),
  };
  return {
    nodeCalls,
    asked,
    failWith(code: NodeCallFailureCode | null) {
      failure = code;
    },
  };
}

describe('the VPN (unit)', () => {
  it('turns monthly totals into deltas: a new month or a lower counter starts over, an older month is ignored', () => {
    const seen = { month: '2026-03', bytesSent: 1000, bytesReceived: 500 };
    const delta = (
      before: typeof seen | undefined,
      month: string,
      bytes_sent: number,
      bytes_received: number,
    ) => usageDelta(before, { month, bytes_sent, bytes_received });
    expect(delta(undefined, '2026-03', 70, 30)).toEqual({ sent: 70, received: 30 });
    expect(delta(seen, '2026-03', 1500, 500)).toEqual({ sent: 500, received: 0 });
    expect(delta(seen, '2026-03', 40, 600)).toEqual({ sent: 40, received: 100 });
    expect(delta(seen, '2026-04', 5, 6)).toEqual({ sent: 5, received: 6 });
    expect(delta(seen, '2026-02', 5000, 6000)).toBeNull();
  });

  it('fills every bucket of a range, oldest first, in UTC hours or days', () => {
    const now = new Date('2026-03-10T15:42:00Z');
    const day = trafficBuckets('24h', now, [
      { start: new Date('2026-03-10T15:00:00Z'), bytesSent: 5, bytesReceived: 6 },
      { start: new Date('2026-03-09T16:00:00Z'), bytesSent: 1, bytesReceived: 2 },
    ]);
    expect(day).toHaveLength(24);
    expect(day[0]).toEqual({ start: '2026-03-09T16:00:00.000Z', bytes_sent: 1, bytes_received: 2 });
    expect(day[1]).toEqual({ start: '2026-03-09T17:00:00.000Z', bytes_sent: 0, bytes_received: 0 });
    expect(day[23]).toEqual({ start: '2026-03-10T15:00:00.000Z', bytes_sent: 5, bytes_received: 6 });
    const week = trafficBuckets('7d', now, []);
    expect(week.map((bucket) => bucket.start)).toEqual(
      [4, 5, 6, 7, 8, 9, 10].map((d) => `2026-03-${String(d).padStart(2, '0')}T00:00:00.000Z`),
    );
    expect(trafficBuckets('30d', now, [])[0]?.start).toBe('2026-02-09T00:00:00.000Z');
    expect(monthOf(new Date('2026-12-31T23:59:59Z'))).toBe('2026-12');
  });

  it('names the file after the service and the user, safely; shows a real address without its port', () => {
    expect(configFilename('Biuro „Debesis“ / 2', 'ona-phone')).toBe('Biuro-Debesis-2-ona-phone.ovpn');
    expect(configFilename('"; rm -rf', 'ona')).toBe('rm-rf-ona.ovpn');
    expect(addressWithoutPort('203.0.113.5:51234')).toBe('203.0.113.5');
    expect(addressWithoutPort('[2001:db8::1]:51234')).toBe('2001:db8::1');
    expect(addressWithoutPort('2001:db8::1')).toBe('2001:db8::1');
  });
});

describe('the VPN', () => {
  const fake = fakeNode();

  const { ctx, call, node, place } = useWorkspaceTestApp({
    clock: true,
    nodeCalls: fake.nodeCalls,
    node: { name: 'vpn-node', addresses: ['10.15.0.1'], subnet: '10.15.1', idBase: 6_000_000 },
  });
  beforeEach(() => {
    fake.failWith(null);
    fake.asked.length = 0;
  });

  const base = (serviceId: string) => `/api/v1/vpn/${serviceId}`;
  const createUser = (auth: Auth, serviceId: string, body: object) =>
    call.post(auth, `${base(serviceId)}/users`, body);
  async function userOf(auth: Auth, serviceId: string, body: object = {}): Promise<VpnUser> {
    const response = await createUser(auth, serviceId, { username: 'ona', password: PASSWORD, ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<VpnUser>();
  }
  const listUsers = async (auth: Auth, serviceId: string) =>
    (await call.get(auth, `${base(serviceId)}/users`)).json<VpnUsersResponse>();
  const userRow = async (id: string) =>
    (await ctx.database.db.select().from(vpnUsers).where(eq(vpnUsers.id, id)))[0];

  const desiredOf = async (serviceId: string) =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
  const reportVpn = (serviceId: string, vpn: VpnReport) =>
    node.report([workspaceReport(serviceId, { features: { vpn } })]);

  it('creates a user: stamped, logged, in the desired state with its crypt, limit and certificate generation', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    expect((await desiredOf(serviceId))?.vpn).toBeUndefined();
    const before = (await serviceRow(ctx, serviceId)).generation;

    const response = await createUser(auth, serviceId, {
      username: 'ona-phone',
      password: PASSWORD,
      full_name: 'Ona Onaitė',
      email: 'ona@example.lt',
      traffic_limit_bytes: 5_000_000_000,
    });
    expect(response.statusCode, response.body).toBe(201);
    const user = response.json<VpnUser>();
    expect(user).toMatchObject({
      username: 'ona-phone',
      enabled: true,
      full_name: 'Ona Onaitė',
      email: 'ona@example.lt',
      traffic_limit_bytes: 5_000_000_000,
      traffic_used_bytes: 0,
      over_limit: false,
      revoked_at: null,
      online: false,
      real_ip: null,
      virtual_ip: null,
      bytes_sent: 0,
      bytes_received: 0,
      connected_since: null,
      apply_status: 'applying',
      apply_error: null,
    });
    expect(response.body).not.toContain('$6$');
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect(generation).toBe(before + 1);
    const row = await userRow(user.id);
    expect(row?.changedGeneration).toBe(generation);
    expect(verifySha512Crypt(PASSWORD, row?.passwordCrypt ?? '')).toBe(true);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'VPN user created',
      tone: 'success',
      details: { name: 'ona-phone' },
    });

    const section = (await desiredOf(serviceId))?.vpn;
    expect(section && vpnSectionSchema.parse(section)).toEqual(section);
    expect(section).toEqual({
      port: 1194,
      users: [
        {
          name: 'ona-phone',
          enabled: true,
          password_crypt: row?.passwordCrypt,
          traffic_limit_bytes: 5_000_000_000,
          cert_generation: generation,
        },
      ],
    });

    const list = await listUsers(auth, serviceId);
    expect(list.limit).toBe(5);
    expect(list.users.map((listed) => listed.id)).toEqual([user.id]);
    expect((await call.get(auth, `${base(serviceId)}/users/${user.id}`)).json<VpnUser>().id).toBe(user.id);

    // The last user gone, the section goes: no server.
    expect((await call.del(auth, `${base(serviceId)}/users/${user.id}`)).statusCode).toBe(204);
    expect(await userRow(user.id)).toBeUndefined();
    expect((await desiredOf(serviceId))?.vpn).toBeUndefined();
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'VPN user deleted',
      tone: 'warning',
      details: { name: 'ona-phone' },
    });
  });

  it('refuses bad input with field codes, a taken name and a user over the plan, changing nothing', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const valid = { username: 'ona', password: PASSWORD };
    const invalid: Array<[object, string, string]> = [
      [{ ...valid, username: 'Ona' }, 'username', 'workspace_name_lowercase'],
      [{ ...valid, username: 'ona phone' }, 'username', 'workspace_name_characters'],
      [{ ...valid, username: '1ona' }, 'username', 'workspace_name_start'],
      [{ ...valid, username: 'root' }, 'username', 'workspace_name_reserved'],
      [{ ...valid, password: 'short' }, 'password', 'password_too_short'],
      [{ ...valid, traffic_limit_bytes: -1 }, 'traffic_limit_bytes', 'vpn_traffic_limit_negative'],
      [{ ...valid, traffic_limit_bytes: 'lots' }, 'traffic_limit_bytes', 'invalid_type'],
      [{ ...valid, traffic_limit_bytes: 1.5 }, 'traffic_limit_bytes', 'invalid_type'],
      [{ ...valid, email: 'not-an-address' }, 'email', 'invalid_email'],
    ];
    const before = (await serviceRow(ctx, serviceId)).generation;
    for (const [body, field, code] of invalid) {
      const response = await createUser(auth, serviceId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ errors: [{ field, code }] });
    }
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before);

    const ona = await userOf(auth, serviceId);
    const lt = await call.post({ ...auth, 'accept-language': 'lt' }, `${base(serviceId)}/users`, valid);
    expect(lt.statusCode).toBe(409);
    expect(lt.json()).toEqual({
      detail: 'vpn_user_exists',
      message: 'Paslaugoje jau yra VPN naudotojas tokiu vardu.',
    });
    for (const [body, field, code] of [
      [{ username: 'other' }, 'body', 'unknown_field'],
      [{ traffic_limit_bytes: -5 }, 'traffic_limit_bytes', 'vpn_traffic_limit_negative'],
      [{ email: 'x@' }, 'email', 'invalid_email'],
    ] as const) {
      const response = await call.patch(auth, `${base(serviceId)}/users/${ona.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({ errors: [{ field, code }] });
    }
    const bad = await call.post(auth, `${base(serviceId)}/users/${ona.id}/reset-password`, { password: 'x' });
    expect(bad.json()).toMatchObject({ errors: [{ field: 'password', code: 'password_too_short' }] });

    // MINI has 5 users: VPN users count apart from the service's users, up to as many.
    for (const name of ['jonas', 'petras', 'ieva', 'rasa']) await userOf(auth, serviceId, { username: name });
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const over = await createUser(auth, serviceId, { username: 'six', password: PASSWORD });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ detail: 'vpn_user_limit', limit: 5 });
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);
    expect((await listUsers(auth, serviceId)).users).toHaveLength(5);
    // The service's own users are not VPN users and take none of their places.
    const serviceUser = await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, {
      name: 'ona',
      password: PASSWORD,
    });
    expect(serviceUser.statusCode).toBe(201);
  });

  it('changes a user (enable, names, limit), its password and certificate; restarts and reloads, each logged', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    const ona = await userOf(auth, serviceId);
    const url = `${base(serviceId)}/users/${ona.id}`;
    const created = (await userRow(ona.id))!;

    const before = (await serviceRow(ctx, serviceId)).generation;
    const same = await call.patch(auth, url, { full_name: '', traffic_limit_bytes: 0 });
    expect(same.statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before);

    const patched = await call.patch(auth, url, {
      enabled: false,
      full_name: 'Ona',
      traffic_limit_bytes: 1_000_000,
    });
    expect(patched.json<VpnUser>()).toMatchObject({
      enabled: false,
      full_name: 'Ona',
      traffic_limit_bytes: 1_000_000,
      apply_status: 'applying',
    });
    const afterPatch = (await serviceRow(ctx, serviceId)).generation;
    expect(afterPatch).toBe(before + 1);
    expect((await userRow(ona.id))?.changedGeneration).toBe(afterPatch);

    const reset = await call.post(auth, `${url}/reset-password`, { password: 'another-pass-2' });
    expect(reset.statusCode).toBe(200);
    const crypt = (await userRow(ona.id))?.passwordCrypt ?? '';
    expect(verifySha512Crypt('another-pass-2', crypt)).toBe(true);
    expect(crypt).not.toBe(created.passwordCrypt);

    const revoked = await call.post(auth, `${url}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(Math.abs(Date.parse(revoked.json<VpnUser>().revoked_at ?? '') - ctx.now().getTime())).toBeLessThan(
      60_000,
    );
    const afterRevoke = (await userRow(ona.id))!;
    expect(afterRevoke.certGeneration).toBeGreaterThan(created.certGeneration);
    expect(afterRevoke.revokedAt).not.toBeNull();

    const restart = await call.post(auth, `${base(serviceId)}/restart`);
    expect(restart.statusCode).toBe(202);
    const restartGeneration = restart.json<WorkspaceApplyResponse>().generation;
    const reload = await call.post(auth, `${base(serviceId)}/reload`);
    expect(reload.json<WorkspaceApplyResponse>().generation).toBe(restartGeneration + 1);

    expect((await desiredOf(serviceId))?.vpn).toEqual({
      port: 1194,
      users: [
        {
          name: 'ona',
          enabled: false,
          password_crypt: crypt,
          traffic_limit_bytes: 1_000_000,
          cert_generation: afterRevoke.certGeneration,
        },
      ],
      restart_token: String(restartGeneration),
    });
    const actions = (await activityOf(ctx, serviceId))
      .filter((entry) => entry.action.startsWith('VPN'))
      .map((entry) => [entry.action, entry.tone, entry.details]);
    expect(actions).toEqual([
      ['VPN user created', 'success', { name: 'ona' }],
      ['VPN user disabled', 'info', { name: 'ona' }],
      ['VPN user updated', 'info', { name: 'ona', fields: ['full_name', 'traffic_limit_bytes'] }],
      ['VPN user password changed', 'info', { name: 'ona' }],
      ['VPN user revoked', 'warning', { name: 'ona' }],
      ['VPN server restarted', 'info', {}],
      ['VPN reloaded', 'info', {}],
    ]);
    expect((await call.patch(auth, url, { enabled: true })).json<VpnUser>().enabled).toBe(true);
    expect((await activityOf(ctx, serviceId)).at(-1)?.action).toBe('VPN user enabled');

    // Created again under a deleted user's name, it asks for a certificate generation the name never had.
    await call.del(auth, url);
    const again = await userOf(auth, serviceId);
    expect((await userRow(again.id))!.certGeneration).toBeGreaterThan(afterRevoke.certGeneration);
  });

  it('answers 404 for another account’s service or user and changes nothing; 401 without a session', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    const ona = await userOf(auth, serviceId);
    const stranger = await ownerWithService(ctx);
    const theirs = await userOf(stranger.auth, stranger.serviceId, { username: 'jonas' });
    const snapshot = async () => ({
      users: await listUsers(auth, serviceId),
      generation: (await serviceRow(ctx, serviceId)).generation,
      activity: await activityOf(ctx, serviceId),
    });
    const before = await snapshot();
    const user = `/users/${ona.id}`;
    const routes: Route[] = [
      ['GET', '/status'],
      ['GET', '/sessions'],
      ['GET', '/traffic'],
      ['GET', '/users'],
      ['POST', '/users', { username: 'intruder', password: PASSWORD }],
      ['GET', user],
      ['PATCH', user, { enabled: false }],
      ['DELETE', user],
      ['POST', `${user}/reset-password`, { password: 'intruder-pass' }],
      ['POST', `${user}/disconnect`],
      ['POST', `${user}/revoke`],
      ['POST', '/sessions/kill-all'],
      ['GET', `${user}/config`],
      ['GET', `${user}/config/download`],
      ['POST', `${user}/config/link`],
      ['POST', '/restart'],
      ['POST', '/reload'],
    ];
    await expectHiddenFromStranger(call, stranger.auth, base(serviceId), routes);
    // The stranger's own service with the owner's user id: not theirs either.
    for (const [method, path, body] of routes.filter(([, path]) => path.startsWith(user))) {
      const response = await call.send(method, stranger.auth, `${base(stranger.serviceId)}${path}`, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toMatchObject({ detail: 'vpn_user_not_found' });
    }
    const traffic = await call.get(stranger.auth, `${base(stranger.serviceId)}/traffic?user_id=${ona.id}`);
    expect(traffic.statusCode).toBe(404);
    expect(fake.asked).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect((await listUsers(stranger.auth, stranger.serviceId)).users.map((u) => u.id)).toEqual([theirs.id]);
  });

  it('shows a report’s sessions and usage in users, sessions, status and the overview', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const address = await place(serviceId);
    const ona = await userOf(auth, serviceId, { traffic_limit_bytes: 1_000_000 });
    const jonas = await userOf(auth, serviceId, { username: 'jonas' });
    const month = monthOf(ctx.now());
    await reportVpn(serviceId, {
      sessions: [
        {
          user: 'ona',
          real_address: '203.0.113.5:51234',
          virtual_address: '10.8.0.6',
          bytes_received: 700,
          bytes_sent: 300,
          connected_since: '2026-03-01T10:00:00Z',
        },
        {
          user: 'ona',
          real_address: '198.51.100.9:40000',
          virtual_address: '10.8.0.10',
          bytes_received: 70,
          bytes_sent: 30,
          connected_since: '2026-03-01T11:00:00Z',
        },
        {
          user: 'ghost',
          real_address: '192.0.2.1:1',
          virtual_address: '10.8.0.14',
          bytes_received: 1,
          bytes_sent: 1,
          connected_since: '2026-03-01T11:00:00Z',
        },
      ],
      usage: [
        { user: 'ona', month, bytes_received: 600_000, bytes_sent: 500_000, over_limit: true },
        { user: 'ghost', month, bytes_received: 9, bytes_sent: 9, over_limit: false },
      ],
    });

    const users = new Map((await listUsers(auth, serviceId)).users.map((user) => [user.id, user]));
    expect(users.get(ona.id)).toMatchObject({
      online: true,
      real_ip: '198.51.100.9',
      virtual_ip: '10.8.0.10',
      bytes_sent: 330,
      bytes_received: 770,
      connected_since: '2026-03-01T11:00:00.000Z',
      traffic_used_bytes: 1_100_000,
      over_limit: true,
    });
    expect(users.get(jonas.id)).toMatchObject({
      online: false,
      real_ip: null,
      bytes_sent: 0,
      traffic_used_bytes: 0,
      over_limit: false,
    });
    const sessions = (await call.get(auth, `${base(serviceId)}/sessions`)).json<VpnSessionsResponse>();
    expect(Math.abs(Date.parse(sessions.reported_at ?? '') - ctx.now().getTime())).toBeLessThan(60_000);
    expect(sessions.sessions).toEqual([
      {
        user_id: ona.id,
        username: 'ona',
        backup_client: false,
        real_address: '203.0.113.5:51234',
        virtual_address: '10.8.0.6',
        bytes_sent: 300,
        bytes_received: 700,
        connected_since: '2026-03-01T10:00:00.000Z',
      },
      expect.objectContaining({ user_id: ona.id, real_address: '198.51.100.9:40000' }),
    ]);
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<VpnStatus>();
    expect(status).toMatchObject({
      placed: true,
      address,
      port: 1194,
      protocol: 'udp',
      users: 2,
      sessions: 2,
      limit: 5,
    });
    const overview = (await call.get(auth, '/api/v1/services/overview')).json<{
      services: ServiceOverviewItem[];
    }>();
    expect(overview.services.find((service) => service.id === serviceId)).toMatchObject({
      vpn_users: 2,
      vpn_online: 1,
    });

    // The next report without sessions: nobody is online, the month's usage stays.
    await reportVpn(serviceId, { sessions: [], usage: [] });
    expect((await call.get(auth, `${base(serviceId)}/users/${ona.id}`)).json<VpnUser>()).toMatchObject({
      online: false,
      traffic_used_bytes: 1_100_000,
    });
    expect(
      (await call.get(auth, `${base(serviceId)}/sessions`)).json<VpnSessionsResponse>().sessions,
    ).toEqual([]);
  });

  it('keeps usage as hourly deltas across reports, a lower counter and a month change; the chart has every bucket', async () => {
    const { owner, auth: created, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    const ona = await userOf(created, serviceId);
    const jonas = await userOf(created, serviceId, { username: 'jonas' });
    // A minute into an hour, so the hours below are the ones the test means.
    ctx.advance(HOUR_MS - (ctx.now().getTime() % HOUR_MS) + 60_000);
    const month = monthOf(ctx.now());
    const previous = new Date(ctx.now());
    previous.setUTCDate(1);
    previous.setUTCMonth(previous.getUTCMonth() - 1);
    const lastMonth = monthOf(previous);
    const usage = (user: string, m: string, sent: number, received: number) => ({
      user,
      month: m,
      bytes_sent: sent,
      bytes_received: received,
      over_limit: false,
    });
    const report = (...entries: ReturnType<typeof usage>[]) =>
      reportVpn(serviceId, { sessions: [], usage: entries });

    await report(usage('ona', lastMonth, 1000, 500), usage('jonas', month, 10, 20)); // +1000/+500, +10/+20
    await report(usage('ona', month, 200, 100)); // a new month: +200/+100
    await report(usage('ona', lastMonth, 9999, 9999)); // an older month: ignored
    await report(usage('ona', month, 200, 100)); // nothing new
    ctx.advance(2 * HOUR_MS);
    await report(usage('ona', month, 300, 150)); // +100/+50, two hours later
    await report(usage('ona', month, 10, 5)); // the node lost its count: +10/+5
    // Hours later: a new sign-in (access tokens are short-lived).
    const signedIn = await login(ctx, owner.email);
    const auth = { authorization: `Bearer ${signedIn.json<LoginResponse>().access_token}` };

    const traffic = async (query: string) =>
      (await call.get(auth, `${base(serviceId)}/traffic${query}`)).json<VpnTrafficResponse>();
    const day = await traffic('?range=24h');
    expect(day.range).toBe('24h');
    expect(day.buckets).toHaveLength(24);
    const hour = Math.floor(ctx.now().getTime() / HOUR_MS) * HOUR_MS;
    expect(day.buckets.map((bucket) => Date.parse(bucket.start))).toEqual(
      Array.from({ length: 24 }, (_, index) => hour - (23 - index) * HOUR_MS),
    );
    expect(day.buckets[23]).toMatchObject({ bytes_sent: 110, bytes_received: 55 });
    expect(day.buckets[21]).toMatchObject({ bytes_sent: 1210, bytes_received: 620 });
    const total = (response: VpnTrafficResponse) =>
      response.buckets.reduce(
        (sum, bucket) => [sum[0]! + bucket.bytes_sent, sum[1]! + bucket.bytes_received],
        [0, 0],
      );
    expect(total(day)).toEqual([1320, 675]);
    const onlyOna = await traffic(`?range=24h&user_id=${ona.id}`);
    expect(total(onlyOna)).toEqual([1310, 655]);
    expect(total(await traffic(`?range=7d&user_id=${jonas.id}`))).toEqual([10, 20]);
    const week = await traffic('?range=7d');
    expect(week.buckets).toHaveLength(7);
    expect(week.buckets.at(-1)?.start).toBe(new Date(hour - (hour % (24 * HOUR_MS))).toISOString());
    expect(total(week)).toEqual(total(day));
    expect((await traffic('?range=30d')).buckets).toHaveLength(30);
    expect((await traffic('')).range).toBe('24h');
    const bad = await call.get(auth, `${base(serviceId)}/traffic?range=1y`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ errors: [{ field: 'querystring.range', code: 'invalid_value' }] });

    // The month's usage is the node's last count of this month.
    const listed = new Map((await listUsers(auth, serviceId)).users.map((user) => [user.username, user]));
    expect(listed.get('ona')?.traffic_used_bytes).toBe(15);
    expect(listed.get('jonas')?.traffic_used_bytes).toBe(30);

    // A deleted user's hours stay the workspace's.
    await call.del(auth, `${base(serviceId)}/users/${jonas.id}`);
    expect(total(await traffic('?range=24h'))).toEqual([1320, 675]);
  });

  it('hands the node’s config through as JSON and as a file; maps the node’s failures; ends sessions by node calls', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, { name: 'Biuras' });
    const ona = await userOf(auth, serviceId);
    const user = `${base(serviceId)}/users/${ona.id}`;

    const unplaced = await call.get(auth, `${user}/config`);
    expect(unplaced.statusCode).toBe(409);
    expect(unplaced.json()).toMatchObject({ detail: 'vpn_not_placed' });
    expect((await call.post(auth, `${base(serviceId)}/sessions/kill-all`)).json()).toEqual({
      disconnected: 0,
    });

    await place(serviceId);
    const certGeneration = (await userRow(ona.id))!.certGeneration;
    const json = await call.get(auth, `${user}/config?type=ovpn`);
    expect(json.statusCode).toBe(200);
    expect(json.headers['cache-control']).toBe('private, no-store');
    expect(json.json<VpnConfigResponse>()).toEqual({
      type: 'ovpn',
      filename: 'Biuras-ona.ovpn',
      content: `client\nremote 10.15.0.1 1194 udp\n# ona certificate ${certGeneration}\n`,
    });
    expect(fake.asked).toEqual([
      { serviceId, kind: 'vpn.config', payload: { user: 'ona', cert_generation: certGeneration } },
    ]);

    const file = await call.get(auth, `${user}/config/download`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/x-openvpn-profile');
    expect(file.headers['content-disposition']).toBe('attachment; filename="Biuras-ona.ovpn"');
    expect(file.body).toBe(`client\nremote 10.15.0.1 1194 udp\n# ona certificate ${certGeneration}\n`);
    expect((await call.get(auth, `${user}/config?type=pem`)).statusCode).toBe(422);

    const refusals: Array<[NodeCallFailureCode, number, string]> = [
      ['not_placed', 409, 'vpn_not_placed'],
      ['node_unreachable', 503, 'node_unreachable'],
      ['not_found', 409, 'vpn_user_not_applied'],
      ['failed', 502, 'vpn_node_failed'],
      ['unsupported', 502, 'vpn_node_failed'],
    ];
    for (const [code, status, detail] of refusals) {
      fake.failWith(code);
      const response = await call.get(auth, `${user}/config/download`);
      expect(response.statusCode, code).toBe(status);
      expect(response.json(), code).toMatchObject({ detail });
    }
    fake.failWith('node_unreachable');
    expect((await call.get({ ...auth, 'accept-language': 'lt' }, `${user}/config`)).json()).toEqual({
      detail: 'node_unreachable',
      message: 'Saugojimo mazgas laiku neatsakė. Bandykite dar kartą po minutės.',
    });

    fake.failWith(null);
    fake.asked.length = 0;
    expect((await call.post(auth, `${user}/disconnect`)).json()).toEqual({ disconnected: 2 });
    expect((await call.post(auth, `${base(serviceId)}/sessions/kill-all`)).json()).toEqual({
      disconnected: 3,
    });
    expect(fake.asked).toEqual([
      { serviceId, kind: 'vpn.disconnect', payload: { user: 'ona' } },
      { serviceId, kind: 'vpn.kill_all', payload: {} },
    ]);
    // A node without the user (not applied yet) has no session of it to end.
    fake.failWith('not_found');
    expect((await call.post(auth, `${user}/disconnect`)).json()).toEqual({ disconnected: 0 });
    fake.failWith('node_unreachable');
    expect((await call.post(auth, `${base(serviceId)}/sessions/kill-all`)).statusCode).toBe(503);
  });

  it('a one-time config link: under the public URL, works once without a session, not after it expires', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    const ona = await userOf(auth, serviceId);
    const linkOf = async () => {
      const response = await call.post(auth, `${base(serviceId)}/users/${ona.id}/config/link`);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<VpnConfigLinkResponse>();
    };
    const link = await linkOf();
    const prefix = `${ctx.config.publicUrl.replace(/\/+$/, '')}/api/v1/vpn/config-links/`;
    expect(link.url.startsWith(prefix)).toBe(true);
    expect(Date.parse(link.expires_at) - ctx.now().getTime()).toBeLessThanOrEqual(
      VPN_CONFIG_LINK_TTL_SECONDS * 1000,
    );
    expect(Date.parse(link.expires_at) - ctx.now().getTime()).toBeGreaterThan(
      VPN_CONFIG_LINK_TTL_SECONDS * 1000 - 5000,
    );
    const path = new URL(link.url).pathname;
    const open = () => ctx.app.inject({ method: 'GET', url: path });

    // The node cannot answer: the link is not spent.
    fake.failWith('node_unreachable');
    expect((await open()).statusCode).toBe(503);
    fake.failWith(null);
    const first = await open();
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/x-openvpn-profile');
    expect(first.headers['content-disposition']).toMatch(/^attachment; filename=".+-ona\.ovpn"$/);
    expect(first.body).toContain('# ona certificate');
    const second = await open();
    expect(second.statusCode).toBe(404);
    expect(second.json()).toMatchObject({ detail: 'not_found' });

    const late = await linkOf();
    ctx.advance(VPN_CONFIG_LINK_TTL_SECONDS * 1000 + 1000);
    expect((await ctx.app.inject({ method: 'GET', url: new URL(late.url).pathname })).statusCode).toBe(404);
    const guessed = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/vpn/config-links/${'x'.repeat(43)}`,
    });
    expect(guessed.statusCode).toBe(404);

    // Deleting the user takes its links with it.
    const orphan = await linkOf();
    await call.del(auth, `${base(serviceId)}/users/${ona.id}`);
    expect((await ctx.app.inject({ method: 'GET', url: new URL(orphan.url).pathname })).statusCode).toBe(404);

    const stranger = await signedInUser(ctx);
    const theirs = await call.post(stranger.auth, `${base(serviceId)}/users/${ona.id}/config/link`);
    expect(theirs.statusCode).toBe(404);

    // Guessing is slowed down: one address gets a few dozen tries a minute.
    const answers = new Set<number>();
    for (let attempt = 0; attempt < 35; attempt++) {
      const guess = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/vpn/config-links/guess-${String(attempt).padStart(30, '0')}`,
        remoteAddress: '203.0.113.99',
      });
      answers.add(guess.statusCode);
    }
    expect([...answers].sort()).toEqual([404, 429]);
  });
});
