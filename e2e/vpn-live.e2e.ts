// The VPN through the whole product, as issue 15 asks (acceptance 1 and 2), without a browser:
// the API buys two workspaces, makes a Samba user, a share reachable only through the VPN, and VPN
// users; the embedded node runs one openvpn per workspace; a real openvpn client in a client
// namespace beyond the node (agent testing/network.ts) connects with the .ovpn the API hands out
// and reaches the share through the tunnel, while the share's public address refuses it. The
// dashboard's calls see the session (real and virtual address, growing bytes) within 5 s;
// disconnect, a wrong password, a disabled user, a revoked user and a spent traffic limit each
// keep the user out, and none of it restarts the server (its pid stays). One workspace's config
// does not open the other's server, and kill-all on one leaves the other's session up.
//
// Needs root, samba, openvpn, easy-rsa and /dev/net/tun (CI has them); elsewhere it is skipped
// with the reason printed. Whatever step it got to, it stops its clients, terminates its
// workspaces through the API, removes its client namespaces and checks nothing is left.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SambaShare, VpnSessionsResponse, VpnStatus, VpnUser, WorkspaceUser } from '@debesis/contract';
import {
  makeTestClient,
  removeTestClient,
  testClient,
  type TestClient,
} from '@debesis/agent/testing/network';
import {
  connectVpnClient,
  inClientNamespace,
  stopAllVpnClients,
  type VpnConnection,
} from '@debesis/agent/testing/vpn-client';
import { createVerifiedAccounts, signInTokens } from '../scripts/lib/accounts.ts';
import {
  findLeftovers,
  isClean,
  liveWorkspacesUnavailable,
  localWorkspaceLayout,
  removeLeftovers,
} from '../scripts/lib/live-workspaces.ts';
import { LIVE_ADDRESS_POOL, type RunningServer } from '../scripts/lib/processes.ts';
import { startLiveJourneyProduct, vpnUnavailable } from './support/live.ts';
import {
  buyWorkspace,
  cheapestPlan,
  customerApi,
  json,
  terminateWorkspace,
  type BoughtWorkspace,
  type CustomerApi,
} from '../scripts/lib/workspace-api.ts';

/** The server's address inside the tunnel (the agent's VPN_TUNNEL_NETWORK's first). */
const TUNNEL_SERVER = '10.8.0.1';
const SHARE = 'projects';
const SAMBA_USER = { name: 'alice', password: 'Alice-Share-Pass-7' };
const PASSWORD = 'Vpn-User-Pass-1';
const LIMIT_BYTES = 1_048_576;
/** How soon the dashboard's calls must show a new session (issue 15). */
const SESSION_SEEN_WITHIN_MS = 5000;

const unavailable = liveWorkspacesUnavailable() ?? vpnUnavailable();
if (unavailable) {
  console.warn(
    `[e2e] live VPN journey skipped: ${unavailable} (CI runs it as root with samba, openvpn and easy-rsa)`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `probe` until it answers something, at most `withinMs`. */
async function waitFor<T>(what: string, withinMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`, { cause: last });
    await sleep(100);
  }
}

/** Two client namespaces in different /30s: one beyond the node for each workspace's clients. */
function twoClients(): [TestClient, TestClient] {
  const first = testClient(12);
  let second = testClient(12);
  while (second.block === first.block) second = testClient(12);
  return [first, second];
}

describe.skipIf(unavailable !== undefined)(
  'the VPN through the product (root, real openvpn server and client)',
  { shuffle: false, timeout: 180_000 },
  () => {
    const [client, otherClient] = twoClients();
    let product: RunningServer | undefined;
    let api: CustomerApi | undefined;
    const bought: string[] = [];
    let w1: BoughtWorkspace;
    let w2: BoughtWorkspace;
    let clientsMade = false;
    const dir = mkdtempSync(join(tmpdir(), 'vpn-live-e2e-'));
    const users: Record<string, VpnUser> = {};
    let w1Pid: number | undefined;

    const vpnLayout = (serviceId: string) => {
      if (!product) throw new Error('the product did not start');
      return localWorkspaceLayout(product.dataDir, serviceId).vpn;
    };
    /** The workspace's openvpn as the agent's supervisor recorded it. */
    const serverPid = (serviceId: string): number | undefined => {
      const file = vpnLayout(serviceId).processFile;
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid : undefined;
    };
    const serverLog = (serviceId: string) => () =>
      readFile(vpnLayout(serviceId).logFile, 'utf8').catch(() => '');

    const customer = () => {
      if (!api) throw new Error('no signed-in customer');
      return api;
    };
    const get = async <T>(path: string) => json<T>(await customer().get(path), `GET ${path}`);
    const send = async <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
      json<T>(await customer().send(method, path, body), `${method} ${path}`);

    /** Until the node has applied every change of the workspace and its VPN serves. */
    const applied = (serviceId: string) =>
      waitFor(`${serviceId} applied`, 60_000, async () => {
        const status = await get<VpnStatus>(`/vpn/${serviceId}/status`);
        return status.apply_status === 'applied' && status.serving === true ? status : undefined;
      });

    const createVpnUser = async (serviceId: string, username: string, extra: object = {}) => {
      const user = await send<VpnUser>('POST', `/vpn/${serviceId}/users`, {
        username,
        password: PASSWORD,
        ...extra,
      });
      users[`${serviceId}/${username}`] = user;
      return user;
    };
    const userOf = (serviceId: string, username: string) => {
      const user = users[`${serviceId}/${username}`];
      if (!user) throw new Error(`no VPN user ${username}`);
      return user;
    };

    /** The .ovpn as the dashboard downloads it. */
    const download = async (serviceId: string, username: string) => {
      const response = await customer().get(
        `/vpn/${serviceId}/users/${userOf(serviceId, username).id}/config/download`,
      );
      expect(response.status, await response.clone().text()).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.ovpn"$/);
      return response.text();
    };

    const connect = (
      serviceId: string,
      ovpn: string,
      username: string,
      password = PASSWORD,
      from: TestClient = client,
      timeoutMs?: number,
    ): Promise<VpnConnection> =>
      connectVpnClient(ovpn, username, password, {
        netns: from.netns,
        dir,
        serverLog: serverLog(serviceId),
        ...(timeoutMs ? { timeoutMs } : {}),
      });

    const sessions = (serviceId: string) => get<VpnSessionsResponse>(`/vpn/${serviceId}/sessions`);
    const sessionOf = async (serviceId: string, username: string) =>
      (await sessions(serviceId)).sessions.find((session) => session.username === username);

    const smbclient = (address: string, command: string) =>
      inClientNamespace(
        client.netns,
        'smbclient',
        [
          `//${address}/${SHARE}`,
          '-U',
          `${SAMBA_USER.name}%${SAMBA_USER.password}`,
          '-m',
          'SMB3',
          '-c',
          command,
        ],
        60_000,
      );

    beforeAll(async () => {
      product = await startLiveJourneyProduct({
        AGENT_CLIENT_ROUTES: `${client.block},${otherClient.block}`,
        // The production default: a new session is seen through openvpn's wake file, not a poll.
        AGENT_POLL_INTERVAL_MS: '5000',
      });
      const [email = ''] = await createVerifiedAccounts(product.url, product.dataDir, 1);
      api = await customerApi(product.url, (await signInTokens(product.url, email)).access_token);
      // The cheapest plan with room for five VPN users.
      const plan = await cheapestPlan(product.url);
      const order = { ...plan.order, users_count: Math.max(plan.order.users_count, 5) };
      const onService = (id: string) => bought.push(id);
      w1 = await buyWorkspace(api, order, 'vpn-live-1', { withinMs: 120_000, onService });
      w2 = await buyWorkspace(api, order, 'vpn-live-2', { withinMs: 120_000, onService });
      expect(w1.address).toMatch(/^198\.18\.12\.\d+$/);
      expect(w2.address).toMatch(/^198\.18\.12\.\d+$/);
      clientsMade = true;
      await makeTestClient(client, [w1.address, w2.address]);
      await makeTestClient(otherClient, [w1.address, w2.address]);
    }, 300_000);

    // Each test's clients end with it.
    afterEach(() => stopAllVpnClients());

    afterAll(async () => {
      await stopAllVpnClients();
      const failures: string[] = [];
      if (api)
        for (const id of bought)
          await terminateWorkspace(api, id).catch((error: unknown) => failures.push(String(error)));
      if (clientsMade) for (const each of [client, otherClient]) await removeTestClient(each);
      rmSync(dir, { recursive: true, force: true });
      if (!product) return;
      const left = findLeftovers(product.dataDir, LIVE_ADDRESS_POOL);
      if (!isClean(left)) removeLeftovers(left);
      await product.stop();
      // Checked after the clean-up, so that a failure here leaves nothing behind either.
      expect(failures).toEqual([]);
      expect(left, 'the terminated workspaces left something on the machine').toEqual({
        processes: [],
        mounts: [],
        loopDevices: [],
        addresses: [],
      });
    }, 180_000);

    it('a downloaded config connects; through the tunnel a VPN-only share answers, from outside it does not; the session shows at once and counts bytes', async () => {
      const id = w1.id;
      await send<WorkspaceUser>('POST', `/user-groups/${id}/users`, SAMBA_USER);
      await send<SambaShare>('POST', `/samba/${id}/shares`, {
        name: SHARE,
        bind_public_ip: false,
        users: [{ name: SAMBA_USER.name, read: true, write: true }],
      });
      await createVpnUser(id, 'ann');
      await applied(id);
      const { shares } = await get<{ shares: SambaShare[] }>(`/samba/${id}/shares`);
      expect(shares.find((share) => share.name === SHARE)).toMatchObject({
        bind_public_ip: false,
        apply_status: 'applied',
      });
      w1Pid = serverPid(id);
      expect(w1Pid).toBeDefined();

      const ann = await connect(id, await download(id, 'ann'), 'ann');
      expect(ann.outcome, ann.log).toBe('connected');
      expect(ann.virtualAddress).toMatch(/^10\.8\.0\.\d+$/);
      const connectedAt = Date.now();
      const session = await waitFor('the session in the API', SESSION_SEEN_WITHIN_MS, () =>
        sessionOf(id, 'ann'),
      );
      console.warn(
        `[e2e] a new VPN session was in the API ${Date.now() - connectedAt} ms after it connected`,
      );
      expect(session.virtual_address).toBe(ann.virtualAddress);
      expect(session.real_address).toContain(client.address);

      // Through the tunnel: the share that is not on the public address answers.
      const local = join(dir, 'hello.txt');
      writeFileSync(local, 'hello through the tunnel\n');
      const through = await smbclient(TUNNEL_SERVER, `put ${local} hello.txt; ls`);
      expect(through.exitCode, `${through.stdout}\n${through.stderr}`).toBe(0);
      expect(through.stdout).toContain('hello.txt');
      // From the same client, outside the tunnel, at the workspace's address: refused. The
      // cheapest plan's address is NAT, the VPN's door only: smbd does not listen there at all.
      const outside = await smbclient(w1.address, 'ls');
      expect(outside.exitCode, `${outside.stdout}\n${outside.stderr}`).not.toBe(0);
      expect(outside.stdout).not.toContain('hello.txt');
      expect(`${outside.stdout}\n${outside.stderr}`).toContain('NT_STATUS_CONNECTION_REFUSED');

      // The session's bytes grow with the traffic.
      const before = session.bytes_received + session.bytes_sent;
      const grown = await waitFor('the session’s bytes grown', 10_000, async () => {
        const now = await sessionOf(id, 'ann');
        return now && now.bytes_received + now.bytes_sent > before ? now : undefined;
      });
      expect(grown.bytes_received).toBeGreaterThan(session.bytes_received);
      expect(serverPid(id)).toBe(w1Pid);
    });

    it('disconnect ends the session: the client ends and the sessions are empty', async () => {
      const id = w1.id;
      const ann = await connect(id, await download(id, 'ann'), 'ann');
      expect(ann.outcome, ann.log).toBe('connected');
      await waitFor('the session in the API', SESSION_SEEN_WITHIN_MS, () => sessionOf(id, 'ann'));
      expect(await send(`POST`, `/vpn/${id}/users/${userOf(id, 'ann').id}/disconnect`)).toEqual({
        disconnected: 1,
      });
      expect(await ann.ended(10_000)).toBe(true);
      await waitFor('no sessions', 10_000, async () =>
        (await sessions(id)).sessions.length === 0 ? true : undefined,
      );
      expect(serverPid(id)).toBe(w1Pid);
    });

    it('a wrong password, a disabled user and a revoked user are each refused; the server keeps running', async () => {
      const id = w1.id;
      const annConfig = await download(id, 'ann');
      const wrong = await connect(id, annConfig, 'ann', 'not-the-password');
      expect(wrong.outcome, wrong.log).toBe('auth_failed');

      const dan = await createVpnUser(id, 'dan');
      const rex = await createVpnUser(id, 'rex');
      await applied(id);
      const danConfig = await download(id, 'dan');
      const rexConfig = await download(id, 'rex');

      await send('PATCH', `/vpn/${id}/users/${dan.id}`, { enabled: false });
      await send('POST', `/vpn/${id}/users/${rex.id}/revoke`);
      await applied(id);
      const disabled = await connect(id, danConfig, 'dan');
      expect(disabled.outcome, disabled.log).toBe('auth_failed');
      const revoked = await connect(id, rexConfig, 'rex');
      expect(revoked.outcome, revoked.log).toBe('cert_refused');
      // A config downloaded after the revocation carries a new certificate, and connects.
      const renewed = await connect(id, await download(id, 'rex'), 'rex');
      expect(renewed.outcome, renewed.log).toBe('connected');
      await renewed.stop();
      expect(serverPid(id)).toBe(w1Pid);
    });

    it('a user over its traffic limit is cut off and refused at its next connect', async () => {
      const id = w1.id;
      const tim = await createVpnUser(id, 'tim', { traffic_limit_bytes: LIMIT_BYTES });
      await applied(id);
      const config = await download(id, 'tim');
      const first = await connect(id, config, 'tim');
      expect(first.outcome, first.log).toBe('connected');
      const big = join(dir, 'big.bin');
      writeFileSync(big, Buffer.alloc(2 * LIMIT_BYTES, 7));
      // Cut off during or after it: the put may or may not finish, the limit is spent either way.
      await smbclient(TUNNEL_SERVER, `put ${big} big.bin`);
      expect(await first.ended(15_000)).toBe(true);
      const over = await waitFor('tim over its limit', 10_000, async () => {
        const user = await get<VpnUser>(`/vpn/${id}/users/${tim.id}`);
        return user.over_limit ? user : undefined;
      });
      expect(over.traffic_used_bytes).toBeGreaterThan(LIMIT_BYTES);
      expect(await sessionOf(id, 'tim')).toBeUndefined();
      const again = await connect(id, config, 'tim');
      expect(again.outcome, again.log).toBe('auth_failed');
      expect(serverPid(id)).toBe(w1Pid);
    });

    it('each workspace runs its own server: one’s config does not open the other; kill-all on one leaves the other’s session up', async () => {
      await createVpnUser(w2.id, 'bob');
      await applied(w2.id);
      const w2Pid = serverPid(w2.id);
      expect(w2Pid).toBeDefined();
      expect(w2Pid).not.toBe(w1Pid);

      // Workspace 1's config, pointed at workspace 2: its server drops it (another tls-crypt key,
      // another CA), so the client never gets in.
      const annConfig = await download(w1.id, 'ann');
      const redirected = annConfig.replace(/^remote \S+/m, `remote ${w2.address}`);
      expect(redirected).not.toBe(annConfig);
      await expect(connect(w2.id, redirected, 'ann', PASSWORD, client, 8000)).rejects.toThrow(
        /neither connected nor was refused/,
      );
      expect(await serverLog(w2.id)()).toMatch(/tls-crypt unwrapping failed/);
      expect((await sessions(w2.id)).sessions).toEqual([]);

      const ann = await connect(w1.id, annConfig, 'ann');
      expect(ann.outcome, ann.log).toBe('connected');
      const bob = await connect(w2.id, await download(w2.id, 'bob'), 'bob', PASSWORD, otherClient);
      expect(bob.outcome, bob.log).toBe('connected');
      await waitFor('both sessions in the API', SESSION_SEEN_WITHIN_MS, async () =>
        (await sessionOf(w1.id, 'ann')) && (await sessionOf(w2.id, 'bob')) ? true : undefined,
      );

      expect(await send('POST', `/vpn/${w1.id}/sessions/kill-all`)).toEqual({ disconnected: 1 });
      expect(await ann.ended(10_000)).toBe(true);
      await waitFor('workspace 1 without sessions', 10_000, async () =>
        (await sessions(w1.id)).sessions.length === 0 ? true : undefined,
      );
      expect((await sessions(w2.id)).sessions.map((session) => session.username)).toEqual(['bob']);
      expect(await bob.ended(1000)).toBe(false);
      await bob.stop();
      expect(serverPid(w1.id)).toBe(w1Pid);
      expect(serverPid(w2.id)).toBe(w2Pid);
    });
  },
);
