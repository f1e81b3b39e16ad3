// The `backup.browse` node call: one folder of one snapshot. Read from the snapshot's listing
// index (snapshot-index.ts, written after the backup that made it) when there is one: a folder of
// 10,000 entries answers in ~10 ms. Without one (a snapshot made before the index existed, or
// whose index could not be written or read), `restic ls --json` of the folder answers as before
// (not recursive in 0.14: the folder and its direct children), and the snapshot is indexed in the
// background for the next browse. The lines are read as they come and only the entries are kept;
// restic is stopped once more than SNAPSHOT_BROWSE_MAX are seen. With the agent's cheap key
// (repository.ts) and no lock, that takes ~0.4 s for 10,000 entries. It only reads, beside
// whatever job runs.
//
// The index answers for a snapshot as long as its file is there: a job removes the file when the
// repository stops listing the snapshot (snapshot-index.ts), and the repository must be there.
import { SNAPSHOT_BROWSE_MAX, type BackupBrowseResult, type NodeCallPayload } from '@debesis/contract';
import { NodeCallError } from '../calls/node-call.ts';
import type { StreamCommandRunner } from '../exec/stream-command.ts';
import { repositoryPresent, type RepositoryPaths } from './repository.ts';
import { createRestic, describeResticFailure } from './restic.ts';
import { SnapshotFolderReader } from './restic-json.ts';
import { indexInBackground, readIndexedFolder } from './snapshot-index.ts';

const BROWSE_TIMEOUT_MS = 60_000;

export async function browseSnapshot(
  paths: RepositoryPaths,
  payload: NodeCallPayload<'backup.browse'>,
  spawn?: StreamCommandRunner,
): Promise<BackupBrowseResult> {
  const restic = createRestic(paths, spawn);
  const requireRepository = async () => {
    const present = await repositoryPresent(paths, restic).catch((error: unknown) => {
      throw new NodeCallError('failed', error instanceof Error ? error.message : String(error));
    });
    if (!present) throw new NodeCallError('not_found', 'this workspace has no backup repository');
  };
  // On the backup target, asking whether the repository is there is a restic call of its own
  // (~0.5 s): the index, when it has the snapshot, answers without it.
  if (!paths.remote) await requireRepository();
  const indexed = await readIndexedFolder(paths, payload.snapshot_id, payload.path);
  if (indexed.status === 'indexed') return indexed.result;
  if (paths.remote) await requireRepository();

  const reader = new SnapshotFolderReader(payload.path, SNAPSHOT_BROWSE_MAX);
  const result = await restic.run(['--no-lock', 'ls', '--json', '--', payload.snapshot_id, payload.path], {
    onLine: (line) => reader.take(line),
    timeoutMs: BROWSE_TIMEOUT_MS,
  });
  if (!result.ok && result.stopped !== 'stopped')
    throw new NodeCallError('failed', describeResticFailure(result));
  // restic says nothing on stdout for a snapshot it does not have ("no matching ID" on stderr).
  if (!reader.snapshotSeen)
    throw new NodeCallError('not_found', `no snapshot ${payload.snapshot_id} in this workspace's repository`);
  indexInBackground(paths, restic, payload.snapshot_id);
  return { found: reader.found, entries: reader.found ? reader.entries : [], truncated: reader.truncated };
}
