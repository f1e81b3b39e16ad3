import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  nfsClientAdmits,
  nfsClientProblem,
  nfsSectionSchema,
  type NfsClientsResponse,
  type NfsDisconnectResponse,
  type NodeCallKind,
  type NfsExport,
  type NfsExportsResponse,
  type NfsReport,
  type NfsStats,
  type NfsStatus,
  type ServiceOverviewItem,
  type WorkspaceApplyResponse,
} from '@debesis/contract';
import {
  expectHiddenFromStranger,
  type Route,
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  PASSWORD,
  serviceRow,
  type Auth,
} from '../directory/workspace.test-support.ts';
import type { NodeCalls } from '../nodes/node-calls.ts';
import { nfsExports } from './nfs.table.ts';

describe('NFS client rules (unit)', () => {
  it('takes an IPv4 address, a network without host bits or a hostname; nothing a server reads as a wildcard', () => {
    for (const ok of [
      '192.168.1.10',
      '10.0.0.0/8',
      '0.0.0.0/0',
      '192.168.1.0/24',
      'laptop',
      'nas-2.biuras.lt',
    ])
      expect(nfsClientProblem(ok), ok).toBeUndefined();
    for (const bad of [
      '10.0.0.300',
      '010.0.0.1',
      '10.0.0.0/33',
      '10.0.0.0/08',
      '*.biuras.lt',
      '@staff',
      'a b',
      '1.2.3',
      'host.123',
      '-x',
    ])
      expect(nfsClientProblem(bad), bad).toBe('nfs_client_invalid');
    expect(nfsClientProblem('192.168.1.7/24')).toBe('nfs_client_host_bits');
  });

  it('tells which addresses a rule admits; a hostname rule is not resolved (null)', () => {
    expect(nfsClientAdmits('192.168.1.0/24', '192.168.1.77')).toBe(true);
    expect(nfsClientAdmits('192.168.1.0/24', '192.168.2.1')).toBe(false);
    expect(nfsClientAdmits('192.168.1.10', '192.168.1.10')).toBe(true);
    expect(nfsClientAdmits('192.168.1.10', '192.168.1.11')).toBe(false);
    expect(nfsClientAdmits('0.0.0.0/0', '203.0.113.9')).toBe(true);
    expect(nfsClientAdmits('laptop.biuras.lt', '192.168.1.10')).toBeNull();
    expect(nfsClientAdmits('192.168.1.0/24', '::1')).toBe(false);
  });
});

describe('NFS exports', () => {
  /** What the node was asked, and whether it knows `nfs.disconnect` (an older agent does not). */
  const asked: Array<{ serviceId: string; kind: NodeCallKind; payload: unknown }> = [];
  let nodeKnowsDisconnect = true;
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind, payload: unknown) => {
      asked.push({ serviceId, kind, payload });
      if (kind !== 'nfs.disconnect' || !nodeKnowsDisconnect)
        return { ok: false, code: 'unsupported', error: kind };
      return { ok: true, result: { blocked_until: '2026-01-01T00:01:30.000Z' } };
    }) as NodeCalls['call'],
    stream: () => Promise.resolve({ ok: false, code: 'unsupported', error: 'no streams here' }),
  };

  const { ctx, call, node, place } = useWorkspaceTestApp({
    clock: true,
    nodeCalls,
    node: { name: 'nfs-node', addresses: ['10.16.0.1'] },
  });

  const base = (serviceId: string) => `/api/v1/nfs/${serviceId}`;
  const shareUrl = (serviceId: string, path: string) =>
    `${base(serviceId)}/shares/${encodeURIComponent(path)}`;
  const createExport = (auth: Auth, serviceId: string, body: object) =>
    call.post(auth, `${base(serviceId)}/shares`, body);
  async function exportOf(auth: Auth, serviceId: string, body: object = {}): Promise<NfsExport> {
    const response = await createExport(auth, serviceId, {
      path: 'shares/projektai',
      client: '192.168.1.0/24',
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<NfsExport>();
  }
  const listExports = async (auth: Auth, serviceId: string) =>
    (await call.get(auth, `${base(serviceId)}/shares`)).json<NfsExportsResponse>();
  const exportRow = async (serviceId: string, path: string) =>
    (await ctx.database.db.select().from(nfsExports).where(eq(nfsExports.serviceId, serviceId))).find(
      (row) => row.path === path,
    );
  const addUser = async (auth: Auth, serviceId: string, name: string) => {
    const response = await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, {
      name,
      password: PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  const desiredOf = async (serviceId: string) =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
  const report = async (serviceId: string, nfs: NfsReport, extra: object = {}) =>
    node.report([
      {
        service_id: serviceId,
        observed_generation: (await serviceRow(ctx, serviceId)).generation,
        ok: true,
        drivers: [{ driver: 'nfs', live: true, serving: true }],
        failures: [],
        features: { nfs },
        ...extra,
      },
    ]);

  it('exports a folder: stamped, logged, in the desired state (path as typed without its slashes); deleted, the section goes', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const address = await place(serviceId);
    await addUser(auth, serviceId, 'ona');
    expect((await desiredOf(serviceId))?.nfs).toBeUndefined();
    const before = (await serviceRow(ctx, serviceId)).generation;

    const created = await exportOf(auth, serviceId, {
      path: '/shares/projektai/',
      access: 'read_write',
      description: 'Brėžiniai',
      owner: 'ona',
    });
    expect(created).toMatchObject({
      path: 'shares/projektai',
      client: '192.168.1.0/24',
      access: 'read_write',
      description: 'Brėžiniai',
      owner: 'ona',
      mount: `${address}:/shares/projektai`,
      apply_status: 'applying',
      apply_error: null,
    });
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect(generation).toBe(before + 1);
    expect((await exportRow(serviceId, 'shares/projektai'))?.changedGeneration).toBe(generation);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'NFS export created',
      tone: 'success',
      details: { name: 'shares/projektai', client: '192.168.1.0/24', access: 'read_write' },
    });
    // Read-only unless asked, no owner unless named.
    const second = await exportOf(auth, serviceId, { path: 'archyvas', client: 'nas.biuras.lt' });
    expect(second).toMatchObject({ access: 'read_only', owner: null, description: '' });

    const section = (await desiredOf(serviceId))?.nfs;
    expect(section && nfsSectionSchema.parse(section)).toEqual(section);
    expect(section).toEqual({
      port: 2049,
      exports: [
        { path: 'archyvas', client: 'nas.biuras.lt', access: 'read_only' },
        { path: 'shares/projektai', client: '192.168.1.0/24', access: 'read_write', owner: 'ona' },
      ],
    });
    const list = await listExports(auth, serviceId);
    expect(list.limit).toBe(100);
    expect(list.exports.map((entry) => entry.path)).toEqual(['archyvas', 'shares/projektai']);

    // Applied once the node reports the generation; failed when it lists the export.
    await report(serviceId, { clients: [] });
    expect((await listExports(auth, serviceId)).exports.map((entry) => entry.apply_status)).toEqual([
      'applied',
      'applied',
    ]);
    await report(
      serviceId,
      { clients: [] },
      {
        failures: [{ kind: 'nfs_export', name: 'archyvas', error: 'owner is deactivated' }],
      },
    );
    const failed = (await listExports(auth, serviceId)).exports[0];
    expect(failed).toMatchObject({ apply_status: 'failed', apply_error: 'owner is deactivated' });
    expect((await call.get(auth, `${base(serviceId)}/status`)).json<NfsStatus>().apply_status).toBe('failed');

    for (const path of ['archyvas', '/shares/projektai']) {
      expect((await call.del(auth, shareUrl(serviceId, path))).statusCode).toBe(204);
    }
    expect(await exportRow(serviceId, 'shares/projektai')).toBeUndefined();
    expect((await desiredOf(serviceId))?.nfs).toBeUndefined();
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'NFS export deleted',
      tone: 'warning',
      details: { name: 'shares/projektai' },
    });
  });

  it('refuses bad input with field codes (outside the storage, not a client rule, a taken folder, unknown owners), changing nothing', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await addUser(auth, serviceId, 'ona');
    expect((await call.patch(auth, `/api/v1/user-groups/${serviceId}/users/ona/deactivate`)).statusCode).toBe(
      200,
    );
    await exportOf(auth, serviceId);
    const valid = { path: 'kitas', client: '192.168.1.10' };
    const invalid: Array<[object, string, string]> = [
      [{ ...valid, path: '../etc' }, 'path', 'nfs_path_outside'],
      [{ ...valid, path: 'shares/../../etc' }, 'path', 'nfs_path_outside'],
      [{ ...valid, path: 'shares/./x' }, 'path', 'nfs_path_outside'],
      [{ ...valid, path: 'my files' }, 'path', 'nfs_path_invalid'],
      [{ ...valid, path: 'shares//x' }, 'path', 'nfs_path_invalid'],
      [{ ...valid, path: 'C:\\data' }, 'path', 'nfs_path_invalid'],
      [{ ...valid, path: 'home/ona' }, 'path', 'share_path_reserved'],
      [{ ...valid, path: 'System' }, 'path', 'share_path_reserved'],
      [{ ...valid, path: '/' }, 'path', 'required'],
      [{ ...valid, path: 'a'.repeat(65) }, 'path', 'too_long'],
      [{ client: '192.168.1.10' }, 'path', 'required'],
      [{ ...valid, client: '' }, 'client', 'required'],
      [{ ...valid, client: '10.0.0.300' }, 'client', 'nfs_client_invalid'],
      [{ ...valid, client: '*.biuras.lt' }, 'client', 'nfs_client_invalid'],
      [{ ...valid, client: '@staff' }, 'client', 'nfs_client_invalid'],
      [{ ...valid, client: '192.168.1.0/33' }, 'client', 'nfs_client_invalid'],
      [{ ...valid, client: '192.168.1.7/24' }, 'client', 'nfs_client_host_bits'],
      [{ ...valid, access: 'rw' }, 'access', 'invalid_value'],
      [{ ...valid, owner: 'nobody' }, 'owner', 'workspace_user_unknown'],
      [{ ...valid, owner: 'ona' }, 'owner', 'nfs_owner_inactive'],
      [{ ...valid, path: 'shares/projektai' }, 'path', 'nfs_path_exported'],
      [{ ...valid, path: '/shares/projektai/' }, 'path', 'nfs_path_exported'],
    ];
    const before = await serviceRow(ctx, serviceId);
    const exportsBefore = await listExports(auth, serviceId);
    for (const [body, field, code] of invalid) {
      const response = await createExport(auth, serviceId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ errors: [{ field, code }] });
    }
    const lt = await call.post({ ...auth, 'accept-language': 'lt' }, `${base(serviceId)}/shares`, {
      path: 'shares/projektai',
      client: '10.0.0.0/8',
    });
    expect(lt.json()).toMatchObject({
      detail: 'validation_error',
      errors: [
        {
          field: 'path',
          code: 'nfs_path_exported',
          message: 'Šis aplankas jau eksportuojamas. Verčiau pakeiskite jo eksportą',
        },
      ],
    });

    const url = shareUrl(serviceId, 'shares/projektai');
    for (const [body, field, code] of [
      [{ path: 'kitas' }, 'body', 'unknown_field'],
      [{ client: '10.0.0.1/8' }, 'client', 'nfs_client_host_bits'],
      [{ access: 'write' }, 'access', 'invalid_value'],
      [{ owner: 'nobody' }, 'owner', 'workspace_user_unknown'],
      [{ owner: 'ona' }, 'owner', 'nfs_owner_inactive'],
    ] as const) {
      const response = await call.patch(auth, url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({ errors: [{ field, code }] });
    }
    const missing = await call.patch(auth, shareUrl(serviceId, 'nera'), { access: 'read_write' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ detail: 'nfs_export_not_found' });
    expect((await call.del(auth, shareUrl(serviceId, '../shares/projektai'))).statusCode).toBe(404);

    expect((await serviceRow(ctx, serviceId)).generation).toBe(before.generation);
    expect(await listExports(auth, serviceId)).toEqual(exportsBefore);
  });

  it('changes an export (client, access, description, owner) by its URL-encoded path; the same values change nothing', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    await addUser(auth, serviceId, 'ona');
    await addUser(auth, serviceId, 'jonas');
    await exportOf(auth, serviceId, { owner: 'ona' });
    const url = shareUrl(serviceId, 'shares/projektai');
    expect(url).toContain('shares%2Fprojektai');

    const before = (await serviceRow(ctx, serviceId)).generation;
    const same = await call.patch(auth, url, { client: '192.168.1.0/24', owner: 'ona', description: '' });
    expect(same.statusCode).toBe(200);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before);

    const patched = await call.patch(auth, url, { client: 'laptop', access: 'read_write', owner: 'jonas' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<NfsExport>()).toMatchObject({
      path: 'shares/projektai',
      client: 'laptop',
      access: 'read_write',
      owner: 'jonas',
      apply_status: 'applying',
    });
    const generation = (await serviceRow(ctx, serviceId)).generation;
    expect(generation).toBe(before + 1);
    expect((await exportRow(serviceId, 'shares/projektai'))?.changedGeneration).toBe(generation);
    expect((await call.patch(auth, url, { owner: null })).json<NfsExport>().owner).toBeNull();
    expect((await desiredOf(serviceId))?.nfs?.exports).toEqual([
      { path: 'shares/projektai', client: 'laptop', access: 'read_write' },
    ]);
    const actions = (await activityOf(ctx, serviceId))
      .filter((entry) => entry.action.startsWith('NFS'))
      .map((entry) => [entry.action, entry.details]);
    expect(actions).toEqual([
      ['NFS export created', { name: 'shares/projektai', client: '192.168.1.0/24', access: 'read_only' }],
      ['NFS export updated', { name: 'shares/projektai', fields: ['client', 'access', 'owner'] }],
      ['NFS export updated', { name: 'shares/projektai', fields: ['owner'] }],
    ]);

    const reload = await call.post(auth, `${base(serviceId)}/reload`);
    expect(reload.statusCode).toBe(202);
    const sync = await call.post(auth, `${base(serviceId)}/sync`);
    expect(sync.statusCode).toBe(202);
    expect(sync.json<WorkspaceApplyResponse>().generation).toBe(
      reload.json<WorkspaceApplyResponse>().generation + 1,
    );
    expect((await activityOf(ctx, serviceId)).slice(-2).map((entry) => entry.action)).toEqual([
      'NFS reloaded',
      'NFS synced',
    ]);
  });

  it('an owner deleted from the directory: the export is written as the workspace itself, stamped with the deletion', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    await addUser(auth, serviceId, 'ona');
    await exportOf(auth, serviceId, { owner: 'ona' });
    await exportOf(auth, serviceId, { path: 'kitas' });
    const kitas = await exportRow(serviceId, 'kitas');
    expect((await call.del(auth, `/api/v1/user-groups/${serviceId}/users/ona`)).statusCode).toBe(204);
    const generation = (await serviceRow(ctx, serviceId)).generation;
    const row = await exportRow(serviceId, 'shares/projektai');
    expect(row).toMatchObject({ ownerUserId: null, changedGeneration: generation });
    // The other export did not change.
    expect((await exportRow(serviceId, 'kitas'))?.changedGeneration).toBe(kitas?.changedGeneration);
    expect((await desiredOf(serviceId))?.nfs?.exports).toEqual([
      { path: 'kitas', client: '192.168.1.0/24', access: 'read_only' },
      { path: 'shares/projektai', client: '192.168.1.0/24', access: 'read_only' },
    ]);
    // A user of the same name created again is not the owner.
    await addUser(auth, serviceId, 'ona');
    expect((await listExports(auth, serviceId)).exports.map((entry) => entry.owner)).toEqual([null, null]);
  });

  it("shows each export's counters as the node reports them (ganesha's statistics)", async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    await exportOf(auth, serviceId, { access: 'read_write' });
    await exportOf(auth, serviceId, { path: 'laptopui', client: '192.168.1.10' });
    const counters = { reads: 3, read_bytes: 4096, writes: 2, write_bytes: 15 };
    await report(serviceId, {
      clients: [],
      // An export the node no longer serves is not one of the service's: left out.
      exports: [
        { path: 'shares/projektai', ...counters },
        { path: 'gone', reads: 1, read_bytes: 1, writes: 1, write_bytes: 1 },
      ],
    });
    const stats = (await call.get(auth, `${base(serviceId)}/stats`)).json<NfsStats>();
    expect(stats.counters).toBe('available');
    expect(
      stats.exports.map(({ path, operations, bytes_read, bytes_written }) => ({
        path,
        operations,
        bytes_read,
        bytes_written,
      })),
    ).toEqual([
      { path: 'laptopui', operations: null, bytes_read: null, bytes_written: null },
      { path: 'shares/projektai', operations: 5, bytes_read: 4096, bytes_written: 15 },
    ]);
    // A report without counters (an older agent, a server starting) keeps the last ones.
    await report(serviceId, { clients: [] });
    const again = (await call.get(auth, `${base(serviceId)}/stats`)).json<NfsStats>();
    expect(again.exports.find((entry) => entry.path === 'shares/projektai')?.operations).toBe(5);
  });

  it('shows the reported clients in clients, status, stats and the overview; disconnect asks the node to refuse the client', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const address = await place(serviceId);
    const empty = (await call.get(auth, `${base(serviceId)}/clients`)).json<NfsClientsResponse>();
    expect(empty).toEqual({ clients: [], reported_at: null });
    await exportOf(auth, serviceId, { access: 'read_write' });
    await exportOf(auth, serviceId, { path: 'laptopui', client: '192.168.1.10' });
    await exportOf(auth, serviceId, { path: 'pagal-varda', client: 'nas.biuras.lt' });
    await report(serviceId, {
      clients: [
        {
          address: '192.168.1.10',
          version: '4.2',
          connected: true,
          client_name: 'Linux NFSv4.2 laptop',
          mount_point: null,
        },
        {
          address: '192.168.1.20',
          version: '4.1',
          connected: false,
          client_name: 'Linux NFSv4.1 nas',
          mount_point: null,
        },
      ],
    });

    const clients = (await call.get(auth, `${base(serviceId)}/clients`)).json<NfsClientsResponse>();
    expect(Math.abs(Date.parse(clients.reported_at ?? '') - ctx.now().getTime())).toBeLessThan(60_000);
    expect(clients.clients).toEqual([
      {
        address: '192.168.1.10',
        version: '4.2',
        connected: true,
        client_name: 'Linux NFSv4.2 laptop',
        mount_point: null,
        exports: ['laptopui', 'shares/projektai'],
      },
      {
        address: '192.168.1.20',
        version: '4.1',
        connected: false,
        client_name: 'Linux NFSv4.1 nas',
        mount_point: null,
        exports: ['shares/projektai'],
      },
    ]);
    const status = (await call.get(auth, `${base(serviceId)}/status`)).json<NfsStatus>();
    expect(status).toMatchObject({
      placed: true,
      address,
      port: 2049,
      protocol: 'nfs4',
      live: true,
      serving: true,
      apply_status: 'applied',
      exports: 3,
      limit: 100,
      clients: 2,
      connected: 1,
    });
    const stats = (await call.get(auth, `${base(serviceId)}/stats`)).json<NfsStats>();
    expect(stats).toMatchObject({ counters: 'unavailable', clients: 2, connected: 1 });
    expect(stats.exports).toEqual([
      {
        path: 'laptopui',
        client: '192.168.1.10',
        access: 'read_only',
        clients: 1,
        connected: 1,
        operations: null,
        bytes_read: null,
        bytes_written: null,
      },
      {
        path: 'pagal-varda',
        client: 'nas.biuras.lt',
        access: 'read_only',
        clients: null,
        connected: null,
        operations: null,
        bytes_read: null,
        bytes_written: null,
      },
      {
        path: 'shares/projektai',
        client: '192.168.1.0/24',
        access: 'read_write',
        clients: 2,
        connected: 1,
        operations: null,
        bytes_read: null,
        bytes_written: null,
      },
    ]);
    const overview = (await call.get(auth, '/api/v1/services/overview')).json<{
      services: ServiceOverviewItem[];
    }>();
    expect(overview.services.find((service) => service.id === serviceId)).toMatchObject({ nfs_exports: 3 });

    const generation = (await serviceRow(ctx, serviceId)).generation;
    const disconnected = await call.post(auth, `${base(serviceId)}/clients/192.168.1.10/disconnect`);
    expect(disconnected.statusCode, disconnected.body).toBe(200);
    expect(disconnected.json<NfsDisconnectResponse>()).toEqual({
      address: '192.168.1.10',
      blocked_until: '2026-01-01T00:01:30.000Z',
    });
    expect(asked.at(-1)).toEqual({ serviceId, kind: 'nfs.disconnect', payload: { address: '192.168.1.10' } });
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'NFS client disconnected',
      tone: 'warning',
      details: { address: '192.168.1.10' },
    });
    // A node whose agent predates the call says so with the feature's own code.
    nodeKnowsDisconnect = false;
    const refused = await call.post(auth, `${base(serviceId)}/clients/192.168.1.20/disconnect`);
    nodeKnowsDisconnect = true;
    expect(refused.statusCode).toBe(501);
    expect(refused.json()).toMatchObject({ detail: 'nfs_disconnect_unsupported' });
    const calls = asked.length;
    const unknown = await call.post(auth, `${base(serviceId)}/clients/192.168.1.99/disconnect`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ detail: 'nfs_client_not_found' });
    expect(asked).toHaveLength(calls);
    // Nothing of the desired state changed: the export's rule stays, the node keeps the block.
    expect((await serviceRow(ctx, serviceId)).generation).toBe(generation);

    // The next report replaces the clients; without exports nothing is kept.
    await report(serviceId, { clients: [] });
    expect((await call.get(auth, `${base(serviceId)}/clients`)).json<NfsClientsResponse>().clients).toEqual(
      [],
    );
    await report(serviceId, {
      clients: [
        { address: '192.168.1.10', version: '4', connected: true, client_name: 'x', mount_point: null },
      ],
    });
    for (const path of ['laptopui', 'pagal-varda', 'shares/projektai'])
      await call.del(auth, shareUrl(serviceId, path));
    await report(serviceId, {
      clients: [
        { address: '192.168.1.10', version: '4', connected: true, client_name: 'x', mount_point: null },
      ],
    });
    expect((await call.get(auth, `${base(serviceId)}/clients`)).json<NfsClientsResponse>().clients).toEqual(
      [],
    );
  });

  it('answers 404 for another account’s service and changes nothing; 401 without a session', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await place(serviceId);
    await exportOf(auth, serviceId);
    await report(serviceId, {
      clients: [
        { address: '192.168.1.10', version: '4.2', connected: true, client_name: 'x', mount_point: null },
      ],
    });
    const stranger = await ownerWithService(ctx);
    await exportOf(stranger.auth, stranger.serviceId, { path: 'ju' });
    const snapshot = async () => ({
      exports: await listExports(auth, serviceId),
      row: await exportRow(serviceId, 'shares/projektai'),
      generation: (await serviceRow(ctx, serviceId)).generation,
      activity: await activityOf(ctx, serviceId),
    });
    const before = await snapshot();
    const share = `/shares/${encodeURIComponent('shares/projektai')}`;
    const routes: Route[] = [
      ['GET', '/shares'],
      ['POST', '/shares', { path: 'isibrovelis', client: '10.0.0.1' }],
      ['PATCH', share, { client: '0.0.0.0/0', access: 'read_write' }],
      ['DELETE', share],
      ['GET', '/clients'],
      ['POST', '/clients/192.168.1.10/disconnect'],
      ['GET', '/status'],
      ['GET', '/stats'],
      ['POST', '/reload'],
      ['POST', '/sync'],
    ];
    await expectHiddenFromStranger(call, stranger.auth, base(serviceId), routes);
    // The stranger's own service with the owner's export path: not theirs either.
    for (const [method, path, body] of routes.filter(([, path]) => path === share)) {
      const response = await call.send(method, stranger.auth, `${base(stranger.serviceId)}${path}`, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toMatchObject({ detail: 'nfs_export_not_found' });
    }
    expect(await snapshot()).toEqual(before);
    expect((await listExports(stranger.auth, stranger.serviceId)).exports.map((entry) => entry.path)).toEqual(
      ['ju'],
    );
  });
});
