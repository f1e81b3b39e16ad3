// /api/v1/snapshots/{serviceId} through app.inject, on a real database: the list as the node
// reports it, one taken on demand through the node call, one a minute, another account's 404, an
// ext4 workspace that takes none, and one snapshot read in the backup browser (browse, download).
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  BackupBrowseResponse,
  NodeCallKind,
  NodeStreamCallKind,
  Snapshot,
  SnapshotsListResponse,
  SnapshotsReport,
} from '@debesis/contract';
import { SUBUSER, subuserSignIn } from '../../test/security.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  expectNodeFileDownloaded,
  ownerWithService,
} from '../directory/workspace.test-support.ts';
import { workspaceReport } from '../../test/services.ts';
import type { NodeCallFailureCode, NodeCalls } from '../workspace/workspace-feature.ts';

const snapshot = (name: string, kind: Snapshot['kind'] = 'scheduled'): Snapshot => {
  const [, y, mo, d, h, mi, s] = /^@GMT-(\d+)\.(\d+)\.(\d+)-(\d+)\.(\d+)\.(\d+)$/.exec(name)!;
  return { name, taken_at: `${y}-${mo}-${d}T${h}:${mi}:${s}.000Z`, kind };
};

/** The one snapshot the fake node holds files of, and its one folder and file. */
const BROWSED = '@GMT-2026.12.06-18.15.00';
const FILE_PATH = '/shares/ataskaita už lapkritį.txt';

/**
 * A node that takes a snapshot when asked (or refuses with `failure`), holds `/shares` and one
 * file in BROWSED, and remembers the calls.
 */
function fakeNode() {
  const asked: Array<{ serviceId: string; kind: NodeCallKind | NodeStreamCallKind; payload?: unknown }> = [];
  let failure: NodeCallFailureCode | null = null;
  let taken = 0;
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind, payload: { name?: string; path?: string }) => {
      if (kind === 'snapshot.browse') {
        asked.push({ serviceId, kind, payload });
        if (payload.name !== BROWSED) return { ok: false, code: 'not_found', error: 'no such snapshot' };
        const found = payload.path === '/shares';
        const entries = [
          { name: 'projects', type: 'dir', size: null, modified_at: '2026-12-01T10:00:00.000Z' },
          {
            name: 'ataskaita už lapkritį.txt',
            type: 'file',
            size: 11,
            modified_at: '2026-12-01T10:00:00.000Z',
          },
        ];
        return { ok: true, result: { found, entries: found ? entries : [], truncated: false } };
      }
      asked.push({ serviceId, kind });
      if (failure) return { ok: false, code: failure, error: `the node says ${failure}` };
      taken += 1;
      return {
        ok: true,
        result: snapshot(`@GMT-2026.12.06-19.00.${String(taken).padStart(2, '0')}`, 'manual'),
      };
    }) as NodeCalls['call'],
    stream: (async (serviceId: string, kind: NodeStreamCallKind, payload: { name: string; path: string }) => {
      asked.push({ serviceId, kind, payload });
      if (kind !== 'snapshot.download') return { ok: false, code: 'unsupported', error: 'no streams here' };
      if (payload.name !== BROWSED || payload.path !== FILE_PATH)
        return { ok: false, code: 'not_found', error: 'no such file' };
      const body = Readable.from([Buffer.from('hello '), Buffer.from('world')]);
      return { ok: true, stream: { name: 'ataskaita už lapkritį.txt', size: 11, body } };
    }) as NodeCalls['stream'],
  };
  return {
    nodeCalls,
    asked,
    failWith(code: NodeCallFailureCode | null) {
      failure = code;
    },
  };
}

describe('snapshots', () => {
  const fake = fakeNode();

  const { ctx, call, node, placedService } = useWorkspaceTestApp({
    clock: true,
    nodeCalls: fake.nodeCalls,
    node: { name: 'snapshots-node', addresses: ['10.16.0.1'] },
  });
  beforeEach(() => {
    fake.failWith(null);
    fake.asked.length = 0;
  });

  const url = (serviceId: string) => `/api/v1/snapshots/${serviceId}`;
  const report = (serviceId: string, snapshots: SnapshotsReport) =>
    node.report([workspaceReport(serviceId, { features: { snapshots } })]);

  it('lists the snapshots the node reports, newest first, with the schedule', async () => {
    const { auth, serviceId } = await placedService();
    const before = await call.get(auth, url(serviceId));
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<SnapshotsListResponse>()).toEqual({
      supported: true,
      reason: null,
      snapshots: [],
      reported_at: null,
      interval_minutes: 15,
    });
    const listed = [snapshot('@GMT-2026.12.06-18.45.00'), snapshot('@GMT-2026.12.06-18.30.00', 'manual')];
    await report(serviceId, { supported: true, snapshots: listed });
    const after = (await call.get(auth, url(serviceId))).json<SnapshotsListResponse>();
    expect(after.snapshots).toEqual(listed);
    expect(after.reported_at).toEqual(expect.any(String));
  });

  it('takes one now through the node (202), lists it at once, and refuses another within the minute', async () => {
    const { auth, serviceId } = await placedService();
    const taken = await call.post(auth, url(serviceId));
    expect(taken.statusCode, taken.body).toBe(202);
    const { snapshot: made } = taken.json<{ snapshot: Snapshot }>();
    expect(made.kind).toBe('manual');
    expect(fake.asked).toEqual([{ serviceId, kind: 'snapshot.take' }]);
    expect((await call.get(auth, url(serviceId))).json<SnapshotsListResponse>().snapshots[0]).toEqual(made);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'Snapshot taken',
      tone: 'success',
      details: { name: made.name },
    });

    const again = await call.post({ ...auth, 'accept-language': 'lt' }, url(serviceId));
    expect(again.statusCode).toBe(429);
    const refusal = again.json<{ detail: string; message: string }>();
    expect(refusal.detail).toBe('snapshot_too_soon');
    expect(refusal.message).toContain('minutę');
    expect(again.headers['retry-after']).toBeDefined();
    expect(fake.asked).toHaveLength(1);

    ctx.advance(61_000);
    expect((await call.post(auth, url(serviceId))).statusCode).toBe(202);
  });

  it('gives the minute back when the node did not take it', async () => {
    const { auth, serviceId } = await placedService();
    fake.failWith('node_unreachable');
    const failed = await call.post(auth, url(serviceId));
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ detail: 'node_unreachable' });
    fake.failWith(null);
    expect((await call.post(auth, url(serviceId))).statusCode).toBe(202);
  });

  it('answers 404 to another account, reading or taking', async () => {
    const { serviceId } = await placedService();
    const other = await ownerWithService(ctx);
    const read = await call.get(other.auth, url(serviceId));
    expect(read.statusCode).toBe(404);
    const take = await call.post(other.auth, url(serviceId));
    expect(take.statusCode).toBe(404);
    expect(fake.asked).toEqual([]);
  });

  it('says an ext4 workspace takes no snapshots, and refuses one on demand without asking the node', async () => {
    const { auth, serviceId } = await placedService();
    await report(serviceId, { supported: false, reason: 'ext4_storage', snapshots: [] });
    const listed = (await call.get(auth, url(serviceId))).json<SnapshotsListResponse>();
    expect(listed).toMatchObject({ supported: false, reason: 'ext4_storage', snapshots: [] });
    const refused = await call.post(auth, url(serviceId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: 'snapshots_unsupported' });
    expect(fake.asked).toEqual([]);
  });

  it('maps a node that says it cannot to snapshots_unsupported', async () => {
    const { auth, serviceId } = await placedService();
    fake.failWith('unsupported');
    const refused = await call.post(auth, url(serviceId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: 'snapshots_unsupported' });
  });

  describe('in the backup browser', () => {
    const listed = [snapshot('@GMT-2026.12.06-18.30.00'), snapshot(BROWSED, 'manual')];
    const browseUrl = (serviceId: string, name: string, path: string) =>
      `${url(serviceId)}/${encodeURIComponent(name)}/browse?path=${encodeURIComponent(path)}`;
    const downloadUrl = (serviceId: string, name: string, path: string) =>
      `${url(serviceId)}/${encodeURIComponent(name)}/download?path=${encodeURIComponent(path)}`;
    async function withSnapshots() {
      const owned = await placedService();
      await report(owned.serviceId, { supported: true, snapshots: listed });
      return owned;
    }

    it('lists one folder of a listed snapshot through the node', async () => {
      const { auth, serviceId } = await withSnapshots();
      const browsed = await call.get(auth, browseUrl(serviceId, BROWSED, '/shares'));
      expect(browsed.statusCode, browsed.body).toBe(200);
      const body = browsed.json<BackupBrowseResponse>();
      expect(body).toMatchObject({ path: '/shares', truncated: false });
      expect(body.entries.map((each) => [each.name, each.type])).toEqual([
        ['projects', 'dir'],
        ['ataskaita už lapkritį.txt', 'file'],
      ]);
      expect(fake.asked).toEqual([
        { serviceId, kind: 'snapshot.browse', payload: { name: BROWSED, path: '/shares' } },
      ]);
    });

    it('answers a folder the snapshot lacks, a snapshot not listed and one pruned on the node with 404', async () => {
      const { auth, serviceId } = await withSnapshots();
      const missing = await call.get(
        { ...auth, 'accept-language': 'lt' },
        browseUrl(serviceId, BROWSED, '/nowhere'),
      );
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({
        detail: 'snapshot_path_not_found',
        message: 'To momentinėje kopijoje nėra.',
      });
      const unlisted = await call.get(auth, browseUrl(serviceId, '@GMT-2020.01.01-00.00.00', '/'));
      expect(unlisted.statusCode).toBe(404);
      expect(unlisted.json()).toMatchObject({ detail: 'snapshot_not_found' });
      const garbage = await call.get(auth, browseUrl(serviceId, '../../etc', '/'));
      expect(garbage.statusCode).toBe(404);
      expect(fake.asked).toHaveLength(1);
      // Listed, but the node pruned it since its report.
      const pruned = await call.get(auth, browseUrl(serviceId, '@GMT-2026.12.06-18.30.00', '/'));
      expect(pruned.statusCode).toBe(404);
      expect(pruned.json()).toMatchObject({ detail: 'snapshot_not_found' });
    });

    it('refuses a bad path with 422 without asking the node', async () => {
      const { auth, serviceId } = await withSnapshots();
      for (const path of ['../etc', '/shares/../../etc', 'shares', '/shares/'])
        expect((await call.get(auth, browseUrl(serviceId, BROWSED, path))).statusCode, path).toBe(422);
      for (const path of ['/', '/shares/../etc/passwd'])
        expect((await call.get(auth, downloadUrl(serviceId, BROWSED, path))).statusCode, path).toBe(422);
      expect(fake.asked).toEqual([]);
    });

    it('downloads one file as an attachment, piped from the node; a missing file is 404', async () => {
      const { auth, serviceId } = await withSnapshots();
      const file = await call.get(auth, downloadUrl(serviceId, BROWSED, FILE_PATH));
      expectNodeFileDownloaded(file);
      expect(fake.asked).toEqual([
        { serviceId, kind: 'snapshot.download', payload: { name: BROWSED, path: FILE_PATH } },
      ]);
      const missing = await call.get(auth, downloadUrl(serviceId, BROWSED, '/shares/none.txt'));
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ detail: 'snapshot_path_not_found' });
    });

    it('answers 404 to another account and refuses a subuser of another service; serves the service’s subuser', async () => {
      const { serviceId, auth } = await withSnapshots();
      const other = await placedService();
      for (const target of [
        browseUrl(serviceId, BROWSED, '/shares'),
        downloadUrl(serviceId, BROWSED, FILE_PATH),
      ])
        expect((await call.get(other.auth, target)).statusCode, target).toBe(404);
      expect(fake.asked).toEqual([]);

      for (const owned of [{ serviceId, auth }, other]) {
        const made = await call.post(owned.auth, `/api/v1/subusers/${owned.serviceId}`, {
          username: SUBUSER.username,
          password: SUBUSER.password,
          password_confirm: SUBUSER.password,
        });
        expect(made.statusCode, made.body).toBe(201);
      }
      const stranger = { authorization: `Bearer ${await subuserSignIn(ctx, other.serviceId)}` };
      for (const target of [
        browseUrl(serviceId, BROWSED, '/shares'),
        downloadUrl(serviceId, BROWSED, FILE_PATH),
      ]) {
        const refused = await call.get(stranger, target);
        expect(refused.statusCode, target).toBe(403);
        expect(refused.json()).toMatchObject({ detail: 'subuser_not_allowed' });
      }
      expect(fake.asked).toEqual([]);
      const own = { authorization: `Bearer ${await subuserSignIn(ctx, serviceId)}` };
      expect((await call.get(own, browseUrl(serviceId, BROWSED, '/shares'))).statusCode).toBe(200);
      expect((await call.get(own, downloadUrl(serviceId, BROWSED, FILE_PATH))).statusCode).toBe(200);
    });
  });
});
