import { describe, expect, it } from 'vitest';
import {
  backupClientsQuotaBytes,
  type BackupClient,
  type BackupClientCreated,
  type BackupClientsResponse,
  type NodeCallKind,
  type VpnSessionsResponse,
  type VpnUsersResponse,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { bcryptVerify } from 'hash-wasm';
import { injectWithCsrf } from '../../test/test-app.ts';
import { verifySha512Crypt } from '../directory/passwords.ts';
import type { NodeCalls } from '../nodes/node-calls.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  serviceRow,
  type Auth,
} from '../directory/workspace.test-support.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2 };

describe('backup clients', () => {
  const asked: Array<{ serviceId: string; kind: NodeCallKind; payload: unknown }> = [];
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind, payload: unknown) => {
      asked.push({ serviceId, kind, payload });
      return { ok: true, result: { ovpn: 'client\nremote 10.18.1.1 1194\n' } };
    }) as NodeCalls['call'],
    stream: () => Promise.resolve({ ok: false, code: 'unsupported', error: 'no streams here' }),
  };

  const { ctx, call, node, placedService } = useWorkspaceTestApp({
    clock: true,
    nodeCalls,
    node: { name: 'backup-clients-node', addresses: ['10.18.0.1'], subnet: '10.18.1', idBase: 9_000_000 },
  });

  const base = (serviceId: string) => `/api/v1/backups/${serviceId}`;

  async function addClient(auth: Auth, serviceId: string, name: string): Promise<BackupClientCreated> {
    const response = await call.post(auth, `${base(serviceId)}/clients`, { name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BackupClientCreated>();
  }
  const list = async (auth: Auth, serviceId: string) => {
    const response = await call.get(auth, `${base(serviceId)}/clients`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BackupClientsResponse>();
  };
  const desiredOf = async (serviceId: string): Promise<WorkspaceDesiredState> => {
    const desired = (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
    if (!desired) throw new Error('the service is not in the node’s desired state');
    return desired;
  };

  it('a new client is a VPN login and a REST login with one password, shown once, kept only as hashes', async () => {
    const { auth, serviceId } = await placedService();
    const created = await addClient(auth, serviceId, 'office-pc');
    expect(created).toMatchObject({
      name: 'office-pc',
      status: 'disconnected',
      revoked_at: null,
      snapshots: 0,
      repository_url: 'rest:http://office-pc@10.8.0.1:8000/office-pc/',
    });
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const desired = await desiredOf(serviceId);
    const [client] = desired.backup?.clients ?? [];
    expect(client?.name).toBe('office-pc');
    expect(await bcryptVerify({ password: created.password, hash: client!.password_bcrypt })).toBe(true);
    expect(desired.backup?.client_repositories).toEqual(['office-pc']);
    const login = desired.vpn?.users.find((user) => user.name === 'office-pc');
    // Marked a machine's: the node confines its tunnel to the REST server (agent vpn/backup-client-tunnel.ts).
    expect(login).toMatchObject({ enabled: true, traffic_limit_bytes: 0, backup_client: true });
    expect(verifySha512Crypt(created.password, login!.password_crypt)).toBe(true);

    // The password is never shown again, and the VPN tab does not list the login as a VPN user.
    const listed = await list(auth, serviceId);
    expect(listed).toMatchObject({ limit: 5, endpoint: { address: '10.8.0.1', port: 8000 } });
    // Their quota is the plan's disk, as the node holds it (the desired state's storage size).
    expect(listed.quota).toEqual({ bytes: backupClientsQuotaBytes(desired.storage_bytes), used_bytes: 0 });
    expect(JSON.stringify(listed)).not.toContain(created.password);
    const vpnUsers = (await call.get(auth, `/api/v1/vpn/${serviceId}/users`)).json<VpnUsersResponse>();
    expect(vpnUsers.users).toEqual([]);
    await expect(activityOf(ctx, serviceId)).resolves.toContainEqual(
      expect.objectContaining({ action: 'Backup client added', details: { name: 'office-pc' } }),
    );
  });

  it('refuses a name any VPN login has, and more clients than the plan has users', async () => {
    const { auth, serviceId } = await placedService();
    const vpnUser = await call.post(auth, `/api/v1/vpn/${serviceId}/users`, {
      username: 'laptop',
      password: 'Vpn-pass-123',
    });
    expect(vpnUser.statusCode, vpnUser.body).toBe(201);
    const taken = await call.post(auth, `${base(serviceId)}/clients`, { name: 'laptop' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ detail: 'backup_client_exists' });
    const bad = await call.post(auth, `${base(serviceId)}/clients`, { name: 'Not a name!' });
    expect(bad.statusCode).toBe(422);

    for (const name of ['c1', 'c2', 'c3', 'c4', 'c5']) await addClient(auth, serviceId, name);
    const over = await call.post(auth, `${base(serviceId)}/clients`, { name: 'c6' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ detail: 'backup_client_limit' });
    // Clients are counted apart from VPN users: the VPN user above did not take a client's place.
    expect((await list(auth, serviceId)).clients).toHaveLength(5);

    // A plan with fewer users than the service has clients does not fit.
    const quote = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/plan-changes/quote',
      headers: auth,
      payload: { service_id: serviceId, ...STARTER },
    });
    expect(quote.statusCode).toBe(422);
    expect(quote.json<{ errors: Array<{ field: string; code: string }> }>().errors).toContainEqual(
      expect.objectContaining({ field: 'users_count', code: 'below_backup_clients_in_use' }),
    );
  });

  it('is connected while its VPN login has a session or a push is recent; the node’s word is stored', async () => {
    const { auth, serviceId } = await placedService();
    const created = await addClient(auth, serviceId, 'nas');
    const report = async (features: object) =>
      node.report([
        {
          service_id: serviceId,
          observed_generation: (await serviceRow(ctx, serviceId)).generation,
          ok: true,
          drivers: [],
          failures: [],
          features,
        },
      ]);
    const pushedAt = ctx.now().toISOString();
    await report({
      backup_clients: {
        clients: [
          { name: 'nas', snapshots: 3, repository_bytes: 40_960, last_push_at: pushedAt, pushing: false },
        ],
      },
    });
    let [client] = (await list(auth, serviceId)).clients;
    expect(client).toMatchObject({
      id: created.id,
      status: 'connected',
      vpn_online: false,
      snapshots: 3,
      repository_bytes: 40_960,
      last_push_at: pushedAt,
      off_node_at: null,
    });
    // The node copied it off the node; a report of an older agent (no off_node_at) keeps that.
    const copiedAt = new Date(ctx.now().getTime() + 5000).toISOString();
    const nas = {
      name: 'nas',
      snapshots: 3,
      repository_bytes: 40_960,
      last_push_at: pushedAt,
      pushing: false,
    };
    await report({ backup_clients: { clients: [{ ...nas, off_node_at: copiedAt }] } });
    expect((await list(auth, serviceId)).clients[0]?.off_node_at).toBe(copiedAt);
    await report({ backup_clients: { clients: [nas] } });
    expect((await list(auth, serviceId)).clients[0]?.off_node_at).toBe(copiedAt);
    // A push sixteen minutes ago, without a session: disconnected.
    await report({
      backup_clients: {
        clients: [
          {
            name: 'nas',
            snapshots: 3,
            repository_bytes: 40_960,
            last_push_at: new Date(ctx.now().getTime() - 16 * 60_000).toISOString(),
            pushing: false,
          },
        ],
      },
    });
    [client] = (await list(auth, serviceId)).clients;
    expect(client?.status).toBe('disconnected');
    // A VPN session of its login: connected again, and the VPN tab marks the session a client's.
    await report({
      vpn: {
        sessions: [
          {
            user: 'nas',
            real_address: '198.19.4.2:40000',
            virtual_address: '10.8.0.2',
            bytes_sent: 10,
            bytes_received: 20,
            connected_since: ctx.now().toISOString(),
          },
        ],
        usage: [],
      },
    });
    [client] = (await list(auth, serviceId)).clients;
    expect(client).toMatchObject({ status: 'connected', vpn_online: true });
    const sessions = (await call.get(auth, `/api/v1/vpn/${serviceId}/sessions`)).json<VpnSessionsResponse>();
    expect(sessions.sessions).toEqual([expect.objectContaining({ username: 'nas', backup_client: true })]);
  });

  it('gives the client’s VPN config from the node; a disconnected client’s is refused', async () => {
    const { auth, serviceId } = await placedService();
    const created = await addClient(auth, serviceId, 'studio');
    const config = await call.get(auth, `${base(serviceId)}/vpn-config?client_id=${created.id}`);
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json()).toMatchObject({ type: 'ovpn', content: 'client\nremote 10.18.1.1 1194\n' });
    expect(config.json<{ filename: string }>().filename).toMatch(/-studio\.ovpn$/);
    const desired = await desiredOf(serviceId);
    const login = desired.vpn?.users.find((user) => user.name === 'studio');
    expect(asked.at(-1)).toEqual({
      serviceId,
      kind: 'vpn.config',
      payload: { user: 'studio', cert_generation: login!.cert_generation },
    });

    const disconnected = await call.post(auth, `${base(serviceId)}/clients/${created.id}/disconnect`);
    expect(disconnected.statusCode, disconnected.body).toBe(200);
    expect(disconnected.json<BackupClient>()).toMatchObject({ status: 'disconnected' });
    expect(disconnected.json<BackupClient>().revoked_at).not.toBeNull();
    const refused = await call.get(auth, `${base(serviceId)}/vpn-config?client_id=${created.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: 'backup_client_revoked' });
  });

  it('disconnect revokes both logins and keeps the backups; delete removes the client and its backups', async () => {
    const { auth, serviceId } = await placedService();
    const created = await addClient(auth, serviceId, 'server');
    const before = (await desiredOf(serviceId)).vpn!.users.find((user) => user.name === 'server')!;

    const disconnected = await call.post(auth, `${base(serviceId)}/clients/${created.id}/disconnect`);
    expect(disconnected.statusCode, disconnected.body).toBe(200);
    let desired = await desiredOf(serviceId);
    expect(desired.backup).toMatchObject({ clients: [], client_repositories: ['server'] });
    const after = desired.vpn!.users.find((user) => user.name === 'server')!;
    expect(after.enabled).toBe(false);
    expect(after.cert_generation).toBeGreaterThan(before.cert_generation);
    // Again: nothing changes.
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect((await call.post(auth, `${base(serviceId)}/clients/${created.id}/disconnect`)).statusCode).toBe(
      200,
    );
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    const deleted = await call.del(auth, `${base(serviceId)}/clients/${created.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    desired = await desiredOf(serviceId);
    expect(desired.backup).toMatchObject({ clients: [], client_repositories: [] });
    expect(desired.vpn).toBeUndefined();
    expect((await list(auth, serviceId)).clients).toEqual([]);
    const gone = await call.post(auth, `${base(serviceId)}/clients/${created.id}/disconnect`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ detail: 'backup_client_not_found' });
    await expect(activityOf(ctx, serviceId)).resolves.toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'Backup client disconnected', details: { name: 'server' } }),
        expect.objectContaining({ action: 'Backup client deleted', details: { name: 'server' } }),
      ]),
    );
  });

  it('another account’s service is not found', async () => {
    const { serviceId } = await placedService();
    const stranger = await ownerWithService(ctx);
    const response = await call.get(stranger.auth, `${base(serviceId)}/clients`);
    expect(response.statusCode).toBe(404);
  });
});
