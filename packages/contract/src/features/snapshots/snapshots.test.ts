// The backup browser's node calls on a snapshot: a snapshot's name and a path from its root, never
// a way out of either; the download names one file, never the root.
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../errors.ts';
import { nodeCallPayloadSchemas, nodeCallResultSchemas, nodeStreamCallPayloadSchemas } from '../../nodes.ts';
import { snapshotParamsSchema } from './snapshots.ts';

const NAME = '@GMT-2026.12.06-18.54.31';
const browse = nodeCallPayloadSchemas['snapshot.browse'];
const download = nodeStreamCallPayloadSchemas['snapshot.download'];

describe('snapshot.browse and snapshot.download', () => {
  it('take a snapshot’s name and a path from its root', () => {
    expect(browse.parse({ name: NAME, path: '/' })).toEqual({ name: NAME, path: '/' });
    expect(browse.safeParse({ name: NAME, path: '/shares/ataskaita už lapkritį.txt' }).success).toBe(true);
    expect(download.safeParse({ name: NAME, path: '/shares/a.txt' }).success).toBe(true);
  });

  it('refuse a name that is no snapshot’s and a path that leaves the snapshot', () => {
    for (const name of ['..', '@GMT-2026.12.06-18.54', 'data', `${NAME}/..`])
      expect(browse.safeParse({ name, path: '/' }).success, name).toBe(false);
    for (const path of ['', 'shares', '/shares/', '/shares/../..', '/./a', '/a\0b'])
      expect(browse.safeParse({ name: NAME, path }).success, path).toBe(false);
    expect(download.safeParse({ name: NAME, path: '/' }).success).toBe(false);
  });

  it('answer as a backup’s browse does', () => {
    const entry = { name: 'shares', type: 'dir', size: null, modified_at: '2026-12-06T18:54:31.000Z' };
    expect(
      nodeCallResultSchemas['snapshot.browse'].safeParse({ found: true, entries: [entry], truncated: false })
        .success,
    ).toBe(true);
  });

  it('route by service and a name checked by the service (404), not by the schema', () => {
    const serviceId = '0b7e9c52-3f4a-4d1b-8c2e-9a0f1b2c3d4e';
    expect(snapshotParamsSchema.safeParse({ serviceId, name: 'latest' }).success).toBe(true);
    expect(snapshotParamsSchema.safeParse({ serviceId: 'x', name: NAME }).success).toBe(false);
    expect(ERROR_STATUS.snapshot_not_found).toBe(404);
    expect(ERROR_STATUS.snapshot_path_not_found).toBe(404);
  });
});
