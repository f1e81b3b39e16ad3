// Replicating a workspace's snapshots to another storage: the mechanism issue 37's standby replica,
// failover and moves are built on (decision: btrfs send/receive of the read-only snapshots the
// workspace takes anyway, rather than rsync of the live tree or a block device copy; a snapshot is
// crash-consistent and a send of it with `-p <parent>` carries only the blocks changed since the
// parent, found from btrfs's own metadata without reading the unchanged files).
//
// The sending side streams `btrfs send [-p parent] <snapshot>`; the receiving side is another
// workspace storage of the same layout (workspace-layout.ts), where `btrfs receive` makes the same
// snapshot, read-only, under the same name in its `snapshots` subvolume. A later send may take any
// snapshot both sides hold as its parent (commonParent). A standby is promoted by making its
// `data` subvolume a writable snapshot of the newest snapshot it received. The bytes travel as a
// stream, so the same functions serve two storages on one host (moves on one node, the tests) and,
// with a transport between them, two nodes.
//
// Which subvolume holds the snapshots sent is the caller's: the customer's `snapshots` (the
// default), or `replicas`, where a standby's replica snapshots live out of Samba's and the
// customer's sight (replicas/).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CommandRunner } from '../exec/run-command.ts';
import { exists } from '../system/host.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import { DATA_SUBVOLUME, SNAPSHOTS_SUBVOLUME, type SnapshotFolder } from './snapshots.ts';

/** The part of stderr kept for the error. */
const STDERR_TAIL = 4096;

export interface ReplicationOptions {
  /** The subvolume the snapshots are in, on both sides. Default: the customer's `snapshots`. */
  folder?: SnapshotFolder;
  signal?: AbortSignal;
}

const folderPath = (layout: WorkspaceLayout, options: ReplicationOptions = {}) =>
  join(layout.pool, options.folder ?? SNAPSHOTS_SUBVOLUME);

/** A snapshot's replication stream and how its sender ended. */
export interface SnapshotStream {
  stream: Readable;
  /** Resolves when `btrfs send` exited 0; rejects with its words otherwise. */
  done: Promise<void>;
}

/** How a program ended: resolved on exit 0, rejected with the end of its stderr otherwise. */
function exited(child: ReturnType<typeof spawn>, what: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`${what}: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${what} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}: ${stderr.trim()}`,
          ),
        );
    });
  });
}

/**
 * The stream of one of the workspace's snapshots: whole, or, with `parent` (a snapshot the
 * receiving side holds too), only what changed since it.
 */
export function sendSnapshot(
  layout: WorkspaceLayout,
  name: string,
  parent?: string,
  options: ReplicationOptions = {},
): SnapshotStream {
  const { signal } = options;
  const args = ['send', '-q'];
  if (parent) args.push('-p', join(folderPath(layout, options), parent));
  args.push(join(folderPath(layout, options), name));
  const child = spawn('btrfs', args, { stdio: ['ignore', 'pipe', 'pipe'], ...(signal ? { signal } : {}) });
  return { stream: child.stdout, done: exited(child, `btrfs send of ${name}`) };
}

/**
 * Receives a snapshot's stream into the storage's snapshots (read-only, under the name it was sent
 * with). A receive that fails leaves nothing: the half-made subvolume is deleted, so a later try
 * (or a parent chosen from what is there) never starts from a snapshot that is not whole.
 */
export async function receiveSnapshot(
  layout: WorkspaceLayout,
  name: string,
  input: Readable,
  run: CommandRunner,
  options: ReplicationOptions = {},
): Promise<void> {
  const { signal } = options;
  const child = spawn('btrfs', ['receive', folderPath(layout, options)], {
    stdio: ['pipe', 'ignore', 'pipe'],
    ...(signal ? { signal } : {}),
  });
  const ended = exited(child, `btrfs receive of ${name}`);
  try {
    await Promise.all([pipeline(input, child.stdin), ended]);
  } catch (error) {
    child.kill('SIGKILL');
    await ended.catch(() => undefined);
    const partial = join(folderPath(layout, options), name);
    if (await exists(partial)) await run('btrfs', ['subvolume', 'delete', partial], { timeoutMs: 60_000 });
    throw error;
  }
}

/**
 * Sends a snapshot from one storage into another on this host: whole, or from `parent`. Both ends
 * must succeed; the stream's bytes are counted (what a transfer between nodes would carry).
 */
export async function replicateSnapshot(
  from: WorkspaceLayout,
  to: WorkspaceLayout,
  name: string,
  parent: string | undefined,
  run: CommandRunner,
  options: ReplicationOptions = {},
): Promise<{ bytes: number }> {
  const sent = sendSnapshot(from, name, parent, options);
  let bytes = 0;
  sent.stream.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  await Promise.all([receiveSnapshot(to, name, sent.stream, run, options), sent.done]);
  return { bytes };
}

/**
 * The newest snapshot both sides hold (names sort by time), the parent of the next incremental
 * send; undefined when they share none (the next send is whole).
 */
export function commonParent(source: readonly string[], target: readonly string[]): string | undefined {
  const held = new Set(target);
  return [...source]
    .sort()
    .reverse()
    .find((name) => held.has(name));
}

/**
 * Makes the storage serve a snapshot it received: its `data` subvolume becomes a writable snapshot
 * of it (a standby promoted, a move's last step). Refused while the storage has data of its own.
 */
export async function promoteSnapshot(
  layout: WorkspaceLayout,
  name: string,
  run: CommandRunner,
  options: Pick<ReplicationOptions, 'folder'> = {},
): Promise<void> {
  const data = join(layout.pool, DATA_SUBVOLUME);
  if (await exists(data))
    throw new Error(`${data} exists: a storage with data of its own is not overwritten`);
  await run('btrfs', ['subvolume', 'snapshot', join(folderPath(layout, options), name), data], {
    check: true,
    timeoutMs: 60_000,
  });
}
