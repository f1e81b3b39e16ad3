// The Linux-user portal on a live workspace, as issue 20 asks (acceptance: "a Linux user changes
// their password in the portal, then signs in with smbclient using the new one and fails with the
// old"), through the API only: the owner makes a workspace user and a Samba share on the
// workspace's public address; the user signs in to the portal (form-encoded, as its page posts),
// finds the share with the command to reach it, and changes the password there; once the node has
// applied the change (the service's observed generation), smbclient on the user's own machine (a
// client namespace beyond the node) lists the share with the new password and is refused the old
// one. The time from the portal's answer until smbclient takes the new password is measured and
// printed (target 2 s; not asserted: a loaded CI is no measure). Where OpenVPN can run, the user
// also has a VPN user of the same name: its password follows, the portal hands its .ovpn from the
// node, and openvpn on the same machine connects with the new password and is refused the old;
// and a share not bound to the public address, refused there, is reached through the tunnel at
// the address the portal shows for it.
// The browser's side of the portal is workspace-live.e2e.ts's.
//
// Needs root with samba and smbclient (a real workspace: disk image, namespaces); elsewhere it is
// skipped with the reason printed. It terminates its workspace and checks nothing is left.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LINUX_USER_API_BASE,
  LINUX_USER_LOGIN_PATH,
  type LinuxUserChangePasswordResponse,
  type LinuxUserMe,
  type LinuxUserService,
  type LinuxUserSharesResponse,
  type LinuxUserTokenResponse,
  type SambaShare,
  type ServiceStatusDetail,
  type VpnUser,
  type WorkspaceUser,
} from '@debesis/contract';
import { testClient } from '@debesis/agent/testing/network';
import { connectVpnClient } from '@debesis/agent/testing/vpn-client';
import { csrf } from '../scripts/lib/accounts.ts';
import { liveWorkspacesUnavailable } from '../scripts/lib/live-workspaces.ts';
import { buyWorkspace, json, type BoughtWorkspace } from '../scripts/lib/workspace-api.ts';
import {
  nodeApplied,
  planNamed,
  useClientMachine,
  useLiveProduct,
  vpnUnavailable,
  waitFor,
} from './support/live.ts';
import { useScratchDir } from './support/scratch-dir.ts';

const SHARE = 'projects';
const VPN_SHARE = 'team';
const USER = 'ona';
const PASSWORD = 'Ona-First-Pass-1';
const NEW_PASSWORD = 'Ona-Portal-Pass-2';

const unavailable = liveWorkspacesUnavailable();
if (unavailable) {
  console.warn(
    `[e2e] live Linux-user portal skipped: ${unavailable} (CI runs it as root with samba and smbclient)`,
  );
}
const noVpn = unavailable ?? vpnUnavailable();
if (noVpn && !unavailable) console.warn(`[e2e] the portal's VPN password and config are not tried: ${noVpn}`);

describe.skipIf(unavailable !== undefined)(
  'the Linux-user portal on a live workspace (root, real smbd)',
  { shuffle: false, timeout: 240_000 },
  () => {
    /** The Linux user's own machine: a client namespace beyond the node (the pool's third octet is 12). */
    const machine = testClient(12);
    const live = useLiveProduct({ env: { AGENT_CLIENT_ROUTES: machine.block } });
    const { get, send } = live;
    const machineSetUp = useClientMachine(machine);
    const dir = useScratchDir('linux-user-live-e2e');
    let workspace: BoughtWorkspace;
    /** The portal's token as the password change answered it. */
    let portalToken = '';

    const baseUrl = () => live.product.url;
    const status = () => get<ServiceStatusDetail>(`/services/${workspace.id}/status`);
    /** Waits until the node has applied everything asked of the workspace so far. */
    const applied = (withinMs = 60_000) => nodeApplied(live, workspace.id, withinMs);

    /** smbclient on the user's machine, as the portal tells them to run it. */
    const smbclient = (password: string, command: string, unc = `//${workspace.address}/${SHARE}`) => {
      const result = spawnSync(
        'ip',
        [
          'netns',
          'exec',
          machine.netns,
          'smbclient',
          unc,
          '-U',
          `${USER}%${password}`,
          '-m',
          'SMB3',
          '-c',
          command,
        ],
        { encoding: 'utf8', timeout: 30_000, cwd: dir },
      );
      return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
    };

    const signIn = (password: string) =>
      fetch(`${baseUrl()}${LINUX_USER_LOGIN_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: USER,
          password,
          grant_type: 'password',
          client_id: workspace.id,
        }).toString(),
      });
    const portalGet = (token: string, path: string) =>
      fetch(`${baseUrl()}${LINUX_USER_API_BASE}${path}`, { headers: { authorization: `Bearer ${token}` } });

    beforeAll(async () => {
      await live.signUp();
      // MINI has an address of its own: the share is served there, to the user's machine.
      const plan = await planNamed(live.product.url, 'MINI');
      workspace = await buyWorkspace(live.customer(), plan, 'linux-user-live', {
        withinMs: 120_000,
        onService: live.bought,
      });
      await send<WorkspaceUser>('POST', `/user-groups/${workspace.id}/users`, {
        name: USER,
        password: PASSWORD,
      });
      await send<SambaShare>('POST', `/samba/${workspace.id}/shares`, {
        name: SHARE,
        bind_public_ip: true,
        users: [{ name: USER, read: true, write: true }],
      });
      if (!noVpn) {
        await send<VpnUser>('POST', `/vpn/${workspace.id}/users`, { username: USER, password: PASSWORD });
        // A share not bound to the public address: VPN clients only.
        await send<SambaShare>('POST', `/samba/${workspace.id}/shares`, {
          name: VPN_SHARE,
          users: [{ name: USER, read: true, write: true }],
        });
      }
      await applied(120_000);
      await machineSetUp.make([workspace.address]);
    }, 300_000);

    it('a password changed in the portal: smbclient on the user’s machine takes the new one, refuses the old', async () => {
      // The user's first password works from their machine (smbd may still be starting).
      writeFileSync(join(dir, 'plan.txt'), 'the first drawing\n');
      const first = await waitFor('smbclient with the first password', 30_000, async () => {
        const put = smbclient(PASSWORD, 'put plan.txt plan.txt; ls');
        return put.ok ? put : undefined;
      });
      expect(first.output).toContain('plan.txt');

      // The portal: signed in by the service ID, form-encoded as its page posts.
      const signedIn = await signIn(PASSWORD);
      expect(signedIn.status, await signedIn.clone().text()).toBe(200);
      const { access_token: token } = (await signedIn.json()) as LinuxUserTokenResponse;
      expect(token).toMatch(/^lut_/);
      const me = await json<LinuxUserMe>(await portalGet(token, '/me'), 'portal me');
      expect(me).toMatchObject({ username: USER, service_id: workspace.id, vpn_access: !noVpn });
      const service = await json<LinuxUserService>(await portalGet(token, '/service'), 'portal service');
      expect(service).toMatchObject({ ip_address: workspace.address, vpn_only: false, status: 'active' });
      const { shares } = await json<LinuxUserSharesResponse>(await portalGet(token, '/shares'), 'shares');
      expect(shares.find((share) => share.kind === 'smb' && share.name === SHARE)).toMatchObject({
        rights: 'read_write',
        address: `smb://${workspace.address}/${SHARE}`,
        connect: { linux: `smbclient //${workspace.address}/${SHARE} -U ${USER}` },
      });

      // The change, with the CSRF pair a browser has.
      const pair = await csrf(baseUrl());
      const { generation: before } = await status();
      const answered = await fetch(`${baseUrl()}${LINUX_USER_API_BASE}/change-password`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          cookie: pair.cookie,
          'x-csrf-token': pair.token,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          current_password: PASSWORD,
          new_password: NEW_PASSWORD,
          new_password_confirm: NEW_PASSWORD,
        }),
      });
      const since = performance.now();
      const changed = await json<LinuxUserChangePasswordResponse>(answered, 'change-password');
      expect(changed.applied_to).toEqual(
        noVpn ? ['smb', 'ftp', 'sftp', 'ldap'] : ['smb', 'ftp', 'sftp', 'ldap', 'vpn'],
      );
      portalToken = changed.access_token;

      // From the answer on: when smbclient takes the new password, and when the node reports the
      // change applied (one generation for the directory, one more for the VPN user).
      let smbAt: number | undefined;
      let appliedAt: number | undefined;
      const { generation } = await status();
      expect(generation).toBe(before + (noVpn ? 1 : 2));
      await waitFor('the new password applied and taken by smbclient', 30_000, async () => {
        if (smbAt === undefined && smbclient(NEW_PASSWORD, 'ls').ok) smbAt = performance.now() - since;
        if (appliedAt === undefined) {
          const now = await status();
          if (now.observed_generation >= generation) appliedAt = performance.now() - since;
        }
        return smbAt !== undefined && appliedAt !== undefined ? true : undefined;
      }).catch(async (error: unknown) => {
        // What the node said and what smbclient answers: the log of a CI run keeps only this.
        const now = await status();
        const smb = smbclient(NEW_PASSWORD, 'ls').output.trim().split('\n').at(-1);
        throw new Error(
          `${(error as Error).message}; applied after ${appliedAt ?? 'never'} ms, smbclient ${smbAt ?? 'never'} ms; ` +
            `node: generation ${now.generation}, observed ${now.observed_generation}, last error ${now.last_error ?? 'none'}; ` +
            `smbclient now: ${smb}`,
        );
      });
      console.warn(
        `[e2e] a password changed in the Linux-user portal: applied by the node after ${Math.round(appliedAt ?? 0)} ms, ` +
          `smbclient took it after ${Math.round(smbAt ?? 0)} ms (target 2 s)`,
      );

      // Applied: the new password lists the share, the old one is a logon failure.
      const listed = smbclient(NEW_PASSWORD, 'ls');
      expect(listed.ok, listed.output).toBe(true);
      expect(listed.output).toContain('plan.txt');
      const old = smbclient(PASSWORD, 'ls');
      expect(old.ok, old.output).toBe(false);
      expect(old.output).toContain('NT_STATUS_LOGON_FAILURE');

      // The portal: the old token ended with the old password, the new one carries on; the old
      // password signs in no more, the new one does.
      expect((await portalGet(token, '/me')).status).toBe(401);
      expect((await portalGet(portalToken, '/me')).status).toBe(200);
      expect((await signIn(PASSWORD)).status).toBe(401);
      expect((await signIn(NEW_PASSWORD)).status).toBe(200);
    });

    it.skipIf(noVpn !== undefined)(
      'the VPN password followed: the portal’s .ovpn connects with the new password, not the old',
      async () => {
        if (!portalToken) throw new Error('the password change did not happen');
        const download = await portalGet(portalToken, '/vpn-config/download');
        expect(download.status, await download.clone().text()).toBe(200);
        expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=".*-ona\.ovpn"/);
        const ovpn = await download.text();
        expect(ovpn).toMatch(/^remote /m);

        const refused = await connectVpnClient(ovpn, USER, PASSWORD, {
          netns: machine.netns,
          dir,
          timeoutMs: 60_000,
        });
        expect(refused.outcome, refused.log).toBe('auth_failed');
        // The share that answers VPN clients only: the portal shows it at the tunnel's server
        // address, and it is refused at the public one.
        const { shares } = await json<LinuxUserSharesResponse>(
          await portalGet(portalToken, '/shares'),
          'shares',
        );
        const team = shares.find((share) => share.kind === 'smb' && share.name === VPN_SHARE);
        expect(team?.address).toBe(`smb://10.8.0.1/${VPN_SHARE}`);
        expect(team?.connect.linux).toBe(`smbclient //10.8.0.1/${VPN_SHARE} -U ${USER}`);
        const outside = smbclient(NEW_PASSWORD, 'ls', `//${workspace.address}/${VPN_SHARE}`);
        expect(outside.ok, outside.output).toBe(false);

        const connected = await connectVpnClient(ovpn, USER, NEW_PASSWORD, {
          netns: machine.netns,
          dir,
          timeoutMs: 60_000,
        });
        expect(connected.outcome, connected.log).toBe('connected');
        // Through the tunnel, as the portal says.
        const through = smbclient(NEW_PASSWORD, 'ls', `//10.8.0.1/${VPN_SHARE}`);
        await connected.stop();
        expect(through.ok, through.output).toBe(true);
      },
    );
  },
);
