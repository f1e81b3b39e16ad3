// The `backup.download` stream call: one file of one snapshot, as bytes. The file is looked up in
// its folder's listing first (browse.ts: its type and size, and a clear `not_found` for anything
// but a regular file), then `restic dump` writes it to stdout, which is the answer's body as it
// comes: nothing is staged on the node's disk. The upload reading it slowly slows restic down
// (the pipe's back-pressure); the upload ending early (the owner went away) ends restic's process
// group; restic failing midway fails the body, so the API's caller never takes a cut file for a
// whole one.
import { spawn } from 'node:child_process';
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import type { NodeCallPayload, NodeStreamCallPayload } from '@debesis/contract';
import { NodeCallError, type NodeCallStream } from '../calls/node-call.ts';
import type { StreamCommandRunner } from '../exec/stream-command.ts';
import { browseSnapshot } from './browse.ts';
import type { RepositoryPaths } from './repository.ts';
import { resticEnvironment } from './restic.ts';

export async function snapshotFile(
  paths: RepositoryPaths,
  payload: NodeStreamCallPayload<'backup.download'>,
  spawnForBrowse?: StreamCommandRunner,
): Promise<NodeCallStream> {
  const folder = posix.dirname(payload.path);
  const name = posix.basename(payload.path);
  const listing: NodeCallPayload<'backup.browse'> = { snapshot_id: payload.snapshot_id, path: folder };
  const { found, entries } = await browseSnapshot(paths, listing, spawnForBrowse);
  const entry = found ? entries.find((each) => each.name === name) : undefined;
  if (!entry || entry.type !== 'file')
    throw new NodeCallError('not_found', `no file ${payload.path} in snapshot ${payload.snapshot_id}`);

  const child = spawn('restic', ['--no-lock', 'dump', '--', payload.snapshot_id, payload.path], {
    env: resticEnvironment(paths),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const body = new PassThrough();
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  child.stdout.pipe(body, { end: false });
  child.once('close', (code, signal) => {
    if (code === 0) body.end();
    else if (!body.destroyed) {
      const said = stderr.trim().split('\n').pop() ?? '';
      body.destroy(new Error(`restic dump ended with ${code ?? signal}: ${said}`));
    }
  });
  child.once('error', (error) => body.destroy(error));
  // The reader gone before the end: restic (and anything it started) stops.
  body.once('close', () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
  return { name, size: entry.size, body };
}
