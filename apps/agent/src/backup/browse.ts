// The `backup.browse` node call: one folder of one snapshot, as `restic ls --json` lists it (not
// recursive in 0.14: the folder and its direct children). The lines are read as they come and
// only the entries are kept; restic is stopped once more than SNAPSHOT_BROWSE_MAX are seen. With
// the agent's cheap key (repository.ts) and no lock, a folder of 10,000 entries answers in
// ~0.2 s. It only reads, beside whatever job runs.
import { SNAPSHOT_BROWSE_MAX, type BackupBrowseResult, type NodeCallPayload } from '@debesis/contract';
import { NodeCallError } from '../calls/node-call.ts';
import type { StreamCommandRunner } from '../exec/stream-command.ts';
import { repositoryPresent, type RepositoryPaths } from './repository.ts';
import { createRestic, describeResticFailure } from './restic.ts';
import { SnapshotFolderReader } from './restic-json.ts';

const BROWSE_TIMEOUT_MS = 60_000;

export async function browseSnapshot(
  paths: RepositoryPaths,
  payload: NodeCallPayload<'backup.browse'>,
  spawn?: StreamCommandRunner,
): Promise<BackupBrowseResult> {
  if (!(await repositoryPresent(paths)))
    throw new NodeCallError('not_found', 'this workspace has no backup repository');
  const reader = new SnapshotFolderReader(payload.path, SNAPSHOT_BROWSE_MAX);
  const result = await createRestic(paths, spawn).run(
    ['--no-lock', 'ls', '--json', '--', payload.snapshot_id, payload.path],
    { onLine: (line) => reader.take(line), timeoutMs: BROWSE_TIMEOUT_MS },
  );
  if (!result.ok && result.stopped !== 'stopped')
    throw new NodeCallError('failed', describeResticFailure(result));
  // restic says nothing on stdout for a snapshot it does not have ("no matching ID" on stderr).
  if (!reader.snapshotSeen)
    throw new NodeCallError('not_found', `no snapshot ${payload.snapshot_id} in this workspace's repository`);
  return { found: reader.found, entries: reader.found ? reader.entries : [], truncated: reader.truncated };
}
