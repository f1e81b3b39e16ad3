import { describe, expect, it } from 'vitest';
import type {
  LinuxUserChangePasswordResponse,
  LinuxUserMe,
  LinuxUserService,
  LinuxUserSharesResponse,
  LinuxUserTokenResponse,
  NodeCallKind,
  ServiceState,
  VpnUser,
} from '@debesis/contract';
import { ntHash, verifySha512Crypt } from '../directory/passwords.ts';
import { injectWithCsrf } from '../../test/test-app.ts';
import type { NodeCalls } from '../nodes/node-calls.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';

const PASSWORD = 'ona-pass-123';

describe('the Linux-user portal', () => {
  let placed = 0;
  const nodeCalls: NodeCalls = {
    call: (async (_serviceId: string, kind: NodeCallKind, payload: { user: string }) => {
      if (kind === 'vpn.config') return { ok: true, result: { ovpn: `client\n# for ${payload.user}\n` } };
      return { ok: false, code: 'unsupported', error: kind };
    }) as NodeCalls['call'],
    stream: async () => ({
      ok: false,
      code: 'unsupported',
      error: 'no streams here',
    }),
  };

  const { ctx, call, node } = useWorkspaceTestApp({
    nodeCalls,
    node: { name: 'linux-user-node', addresses: ['10.29.0.1'] },
  });

  const portal = '/api/v1/api/linux-user';
  const bearer = (token: string): Auth => ({ authorization: `Bearer ${token}` });

  /** A placed workspace with user `ona` (in group `staff`), shares and FTP as each test needs. */
  async function workspace() {
    const owner = await ownerWithService(ctx);
    placed += 1;
    await setService(ctx, owner.serviceId, {
      nodeId: node.id,
      address: `10.29.1.${placed}`,
      idBase: 8_000_000 + placed * 10_000,
    });
    const made = async (url: string, body: object) => {
      const response = await call.post(owner.auth, url, body);
      expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(300);
      return response;
    };
    await made(`/api/v1/user-groups/${owner.serviceId}/users`, { name: 'ona', password: PASSWORD });
    await made(`/api/v1/user-groups/${owner.serviceId}/users`, { name: 'jonas', password: PASSWORD });
    await made(`/api/v1/user-groups/${owner.serviceId}/groups`, { name: 'designers', members: ['ona'] });
    return { ...owner, made };
  }

  const login = (body: Record<string, string>, form = true, ip = '198.51.100.30') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/linux-user/login',
      remoteAddress: ip,
      ...(form
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(body).toString(),
          }
        : { payload: body }),
    });

  async function signIn(serviceId: string, password = PASSWORD, username = 'ona'): Promise<string> {
    const response = await login({ username, password, grant_type: 'password', client_id: serviceId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LinuxUserTokenResponse>().access_token;
  }

  it('signs a workspace user in by the service ID, form-encoded or JSON; refuses everything else alike', async () => {
    const { serviceId, auth } = await workspace();
    const form = await login({
      username: 'Ona',
      password: PASSWORD,
      grant_type: 'password',
      client_id: serviceId,
    });
    expect(form.statusCode, form.body).toBe(200);
    const answer = form.json<LinuxUserTokenResponse>();
    expect(answer).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(answer.access_token).toMatch(/^lut_/);
    const json = await login(
      { username: 'ona', password: PASSWORD, grant_type: 'password', client_id: serviceId },
      false,
    );
    expect(json.statusCode).toBe(200);

    const other = await ownerWithService(ctx);
    for (const body of [
      { username: 'ona', password: 'wrong-pass-1', grant_type: 'password', client_id: serviceId },
      { username: 'nobody', password: PASSWORD, grant_type: 'password', client_id: serviceId },
      { username: 'ona', password: PASSWORD, grant_type: 'password', client_id: other.serviceId },
    ]) {
      const refused = await login(body);
      expect(refused.statusCode).toBe(401);
      expect(refused.json<{ detail: string }>().detail).toBe('invalid_credentials');
    }
    const grant = await login({
      username: 'ona',
      password: PASSWORD,
      grant_type: 'client_credentials',
      client_id: serviceId,
    });
    expect(grant.statusCode).toBe(422);
    expect(grant.json<{ errors: Array<{ field: string; code: string }> }>().errors).toContainEqual(
      expect.objectContaining({ field: 'grant_type', code: 'unsupported_grant_type' }),
    );
    const workspaceId = await login({
      username: 'ona',
      password: PASSWORD,
      grant_type: 'password',
      client_id: 'ws-1',
    });
    expect(workspaceId.json<{ errors: Array<{ code: string }> }>().errors[0]?.code).toBe(
      'linux_user_workspace_invalid',
    );

    // Deactivated: refused at sign-in (after the right password), and its token stops.
    const token = answer.access_token;
    await call.patch(auth, `/api/v1/user-groups/${serviceId}/users/ona/deactivate`);
    const inactive = await login({
      username: 'ona',
      password: PASSWORD,
      grant_type: 'password',
      client_id: serviceId,
    });
    expect(inactive.json<{ detail: string }>().detail).toBe('linux_user_inactive');
    expect((await call.get(bearer(token), `${portal}/me`)).statusCode).toBe(401);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain('Linux user logged in');
  });

  it('limits wrong passwords like the owner’s sign-in', async () => {
    const { serviceId } = await workspace();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await login(
        { username: 'ona', password: 'wrong-pass-1', grant_type: 'password', client_id: serviceId },
        true,
        '198.51.100.31',
      );
      expect(wrong.statusCode).toBe(401);
    }
    const limited = await login(
      { username: 'ona', password: PASSWORD, grant_type: 'password', client_id: serviceId },
      true,
      '198.51.100.31',
    );
    expect(limited.statusCode).toBe(429);
  });

  it('shows the user, the workspace and the shares it can reach, with rights and how to connect', async () => {
    const { serviceId, made, auth } = await workspace();
    await made(`/api/v1/samba/${serviceId}/shares`, {
      name: 'projects',
      description: 'Drawings',
      bind_public_ip: true,
      users: [{ name: 'ona', read: true, write: true }],
    });
    await made(`/api/v1/samba/${serviceId}/shares`, { name: 'team', groups: ['designers'] });
    await made(`/api/v1/samba/${serviceId}/shares`, { name: 'private', users: [{ name: 'jonas' }] });
    await made(`/api/v1/samba/${serviceId}/shares`, {
      name: 'archive',
      users: [{ name: 'ona', read: true, write: false }],
      groups: ['designers'],
    });
    await made(`/api/v1/samba/${serviceId}/shares`, { name: 'lobby', guest_ok: true });
    const token = await signIn(serviceId);

    const me = (await call.get(bearer(token), `${portal}/me`)).json<LinuxUserMe>();
    expect(me).toMatchObject({
      username: 'ona',
      service_id: serviceId,
      groups: ['designers'],
      vpn_access: false,
    });
    const service = (await call.get(bearer(token), `${portal}/service`)).json<LinuxUserService>();
    expect(service).toMatchObject({ id: serviceId, status: 'active', ip_address: `10.29.1.${placed}` });

    const { shares } = (await call.get(bearer(token), `${portal}/shares`)).json<LinuxUserSharesResponse>();
    const byName = new Map(shares.map((share) => [`${share.kind}:${share.name}`, share]));
    expect(byName.has('smb:private')).toBe(false);
    expect(byName.get('smb:projects')).toMatchObject({
      rights: 'read_write',
      via_group: null,
      description: 'Drawings',
      address: `smb://10.29.1.${placed}/projects`,
      connect: { linux: `smbclient //10.29.1.${placed}/projects -U ona` },
    });
    expect(byName.get('smb:projects')?.connect.windows).toBe(
      `net use * \\\\10.29.1.${placed}\\projects /user:ona`,
    );
    // Through her group: read and write; the VPN's only (not bound to the public address), so at
    // the tunnel's server address.
    expect(byName.get('smb:team')).toMatchObject({
      via_group: 'designers',
      rights: 'read_write',
      address: 'smb://10.8.0.1/team',
      connect: { linux: 'smbclient //10.8.0.1/team -U ona' },
    });
    // An entry of her own decides over her group's; a guest share is read by anyone.
    expect(byName.get('smb:archive')).toMatchObject({ rights: 'read', via_group: null });
    expect(byName.get('smb:lobby')).toMatchObject({
      rights: 'read',
      via_group: null,
      connect: { linux: 'smbclient //10.8.0.1/lobby -N' },
    });
    // FTP and SFTP are on for every user by default, read and write.
    expect(byName.get('sftp:sftp')?.connect.linux).toMatch(/^sftp -P 22 ona@10\.29\.1\.\d+$/);
    expect(byName.get('ftp:ftp')).toMatchObject({
      rights: 'read_write',
      address: `ftp://10.29.1.${placed}:21`,
      connect: { linux: `lftp ftp://ona@10.29.1.${placed}:21` },
    });

    // Read only over FTP: read; FTP off for her: neither FTP nor SFTP.
    const readOnly = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: `/api/v1/ftp/${serviceId}/users/ona/permissions`,
      headers: auth,
      payload: { permissions: 'read_only' },
    });
    expect(readOnly.statusCode, readOnly.body).toBe(200);
    const limited = (await call.get(bearer(token), `${portal}/shares`)).json<LinuxUserSharesResponse>();
    expect(limited.shares.filter((share) => share.kind !== 'smb').map((share) => share.rights)).toEqual([
      'read',
      'read',
    ]);
    await call.post(auth, `/api/v1/ftp/${serviceId}/users/ona/disable`);
    const after = (await call.get(bearer(token), `${portal}/shares`)).json<LinuxUserSharesResponse>();
    expect(after.shares.every((share) => share.kind === 'smb')).toBe(true);
  });

  it('changes the password everywhere at once, VPN too when the user has it, and hands a new token', async () => {
    const { serviceId, made, auth } = await workspace();
    const vpnUser = (
      await made(`/api/v1/vpn/${serviceId}/users`, { username: 'ona', password: PASSWORD })
    ).json<VpnUser>();
    const token = await signIn(serviceId);
    expect((await call.get(bearer(token), `${portal}/me`)).json<LinuxUserMe>().vpn_access).toBe(true);

    const mismatch = await call.post(bearer(token), `${portal}/change-password`, {
      current_password: PASSWORD,
      new_password: 'brand-new-pass-1',
      new_password_confirm: 'brand-new-pass-2',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json<{ errors: Array<{ field: string; message: string }> }>().errors).toContainEqual(
      expect.objectContaining({ field: 'new_password_confirm', message: 'Passwords do not match' }),
    );
    const wrongCurrent = await call.post(bearer(token), `${portal}/change-password`, {
      current_password: 'not-my-password',
      new_password: 'brand-new-pass-1',
      new_password_confirm: 'brand-new-pass-1',
    });
    expect(wrongCurrent.json<{ detail: string }>().detail).toBe('invalid_current_password');

    const changed = await call.post(bearer(token), `${portal}/change-password`, {
      current_password: PASSWORD,
      new_password: 'brand-new-pass-1',
      new_password_confirm: 'brand-new-pass-1',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const answer = changed.json<LinuxUserChangePasswordResponse>();
    expect(answer.applied_to).toEqual(['smb', 'ftp', 'sftp', 'ldap', 'vpn']);
    expect(answer.message).toBe('Your password was changed.');
    // The old token ended with the old password; the new one works.
    expect((await call.get(bearer(token), `${portal}/me`)).statusCode).toBe(401);
    expect((await call.get(bearer(answer.access_token), `${portal}/me`)).statusCode).toBe(200);
    const old = await login({
      username: 'ona',
      password: PASSWORD,
      grant_type: 'password',
      client_id: serviceId,
    });
    expect(old.statusCode).toBe(401);
    await signIn(serviceId, 'brand-new-pass-1');

    // One change of the directory and one of the VPN user, each for the node to apply: the node is
    // asked for the new password's hashes for SMB (NT), FTP, SFTP and LDAP (crypt) and the VPN.
    const users = (await call.get(auth, `/api/v1/vpn/${serviceId}/users`)).json<{ users: VpnUser[] }>().users;
    expect(users.find((user) => user.id === vpnUser.id)?.apply_status).toBe('applying');
    const desired = (await node.desired()).workspaces.find((each) => each.service_id === serviceId);
    const ona = desired?.users.find((user) => user.name === 'ona');
    expect(ona && verifySha512Crypt('brand-new-pass-1', ona.password_crypt)).toBe(true);
    expect(ona?.password_nt).toBe(await ntHash('brand-new-pass-1'));
    const onaVpn = desired?.vpn?.users.find((user) => user.name === 'ona');
    expect(onaVpn && verifySha512Crypt('brand-new-pass-1', onaVpn.password_crypt)).toBe(true);
    const actions = (await activityOf(ctx, serviceId)).map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'user password changed',
        'VPN user password changed',
        'Linux user password changed',
      ]),
    );

    // Without a VPN user of its name, the VPN is not in the list.
    const other = await workspace();
    const plain = await signIn(other.serviceId);
    const alone = await call.post(bearer(plain), `${portal}/change-password`, {
      current_password: PASSWORD,
      new_password: 'brand-new-pass-3',
      new_password_confirm: 'brand-new-pass-3',
    });
    expect(alone.json<LinuxUserChangePasswordResponse>().applied_to).toEqual(['smb', 'ftp', 'sftp', 'ldap']);
  });

  it('shows the workspace in the state the owner’s services list shows it: stopped, restarting', async () => {
    const { serviceId, auth } = await workspace();
    const token = await signIn(serviceId);
    const both = async () => {
      const portalState = (await call.get(bearer(token), `${portal}/service`)).json<LinuxUserService>();
      const listed = (await call.get(auth, '/api/v1/services/status')).json<{ services: ServiceState[] }>();
      const owners = listed.services.find((each) => each.id === serviceId);
      return [portalState.display_state, owners?.display_state];
    };
    await setService(ctx, serviceId, { runState: 'stopped' });
    expect(await both()).toEqual(['stopped', 'stopped']);
    await setService(ctx, serviceId, { runState: 'running', restartGeneration: 7, observedGeneration: 6 });
    expect(await both()).toEqual(['restarting', 'restarting']);
  });

  it('ends a token when the owner sets a new password or the workspace is terminated', async () => {
    const { serviceId, auth } = await workspace();
    const token = await signIn(serviceId);
    const repassworded = await call.patch(auth, `/api/v1/user-groups/${serviceId}/users/ona/password`, {
      password: 'owner-set-pass-1',
    });
    expect(repassworded.statusCode, repassworded.body).toBe(200);
    expect((await call.get(bearer(token), `${portal}/me`)).statusCode).toBe(401);

    const again = await signIn(serviceId, 'owner-set-pass-1');
    expect((await call.get(bearer(again), `${portal}/me`)).statusCode).toBe(200);
    await setService(ctx, serviceId, { status: 'terminated' });
    expect((await call.get(bearer(again), `${portal}/me`)).statusCode).toBe(401);
    const gone = await login({
      username: 'ona',
      password: 'owner-set-pass-1',
      grant_type: 'password',
      client_id: serviceId,
    });
    expect(gone.statusCode).toBe(401);
    expect(gone.json<{ detail: string }>().detail).toBe('invalid_credentials');
  });

  it('limits wrong current passwords at a password change, per workspace user', async () => {
    const { serviceId } = await workspace();
    const token = await signIn(serviceId);
    const change = (current: string) =>
      call.post(bearer(token), `${portal}/change-password`, {
        current_password: current,
        new_password: 'brand-new-pass-1',
        new_password_confirm: 'brand-new-pass-1',
      });
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await change('not-my-password')).statusCode).toBe(422);
    expect((await change(PASSWORD)).statusCode).toBe(429);
    // Another user of the workspace is not held up by hers.
    const jonas = await signIn(serviceId, PASSWORD, 'jonas');
    const his = await call.post(bearer(jonas), `${portal}/change-password`, {
      current_password: PASSWORD,
      new_password: 'brand-new-pass-2',
      new_password_confirm: 'brand-new-pass-2',
    });
    expect(his.statusCode, his.body).toBe(200);
  });

  it('hands the user its own VPN config, and says so when it has none', async () => {
    const { serviceId, made } = await workspace();
    const token = await signIn(serviceId);
    const none = await call.get(bearer(token), `${portal}/vpn-config/download`);
    expect(none.statusCode).toBe(404);
    expect(none.json<{ detail: string }>().detail).toBe('linux_user_no_vpn');

    await made(`/api/v1/vpn/${serviceId}/users`, { username: 'ona', password: PASSWORD });
    const file = await call.get(bearer(token), `${portal}/vpn-config/download`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toMatch(/application\/x-openvpn-profile/);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".*-ona\.ovpn"/);
    expect(file.body).toContain('# for ona');
  });

  it('keeps the portal’s token and the owner’s apart, both ways', async () => {
    const { serviceId, auth } = await workspace();
    const token = await signIn(serviceId);
    for (const url of [
      '/api/v1/users/me',
      `/api/v1/samba/${serviceId}/shares`,
      `/api/v1/backups/${serviceId}/schedules`,
    ]) {
      const refused = await call.get(bearer(token), url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json<{ detail: string }>().detail).toBe('linux_user_not_allowed');
    }
    const ownerThere = await call.get(auth, `${portal}/me`);
    expect(ownerThere.statusCode).toBe(403);
    expect(ownerThere.json<{ detail: string }>().detail).toBe('linux_user_token_required');
    expect((await call.get({}, `${portal}/me`)).statusCode).toBe(401);
    // A token changed by one letter is no token.
    const at = token.length - 10;
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect((await call.get(bearer(forged), `${portal}/me`)).statusCode).toBe(401);
  });
});
