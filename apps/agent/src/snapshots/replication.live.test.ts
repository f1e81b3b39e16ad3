// Replication between two workspace storages on this host, as root with the real btrfs (issue 37's
// mechanism for standbys, failover and moves): a whole send, then an incremental one that carries
// only what changed, both byte-identical on the other side; a failed receive leaves nothing; the
// standby promoted serves the newest snapshot it holds, writable. Skipped, with the reason, where
// not root or without btrfs-progs.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { liveSkipReason } from '../testing/live.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import {
  commonParent,
  promoteSnapshot,
  receiveSnapshot,
  replicateSnapshot,
  sendSnapshot,
} from './replication.ts';
import { listSnapshots, takeSnapshot } from './snapshots.ts';

const reason = await liveSkipReason('replication test', ['mkfs.btrfs', 'btrfs', 'mount', 'umount']);

const MB = 1024 * 1024;
let root: string;
let primary: WorkspaceLayout;
let standby: WorkspaceLayout;

/** A btrfs storage as the storage driver makes one: top level at `pool`, `data` at the data root. */
async function makeStorage(dir: string, withData: boolean): Promise<WorkspaceLayout> {
  const layout = workspaceLayout(dir);
  await mkdir(layout.pool, { recursive: true });
  await mkdir(layout.dataRoot, { recursive: true });
  await runCommand('truncate', ['-s', String(512 * MB), layout.image], { check: true });
  await runCommand('mkfs.btrfs', ['-q', '-f', '-K', '--mixed', layout.image], { check: true });
  await runCommand('mount', ['-o', 'loop,commit=5', layout.image, layout.pool], { check: true });
  await runCommand('btrfs', ['subvolume', 'create', join(layout.pool, 'snapshots')], { check: true });
  if (withData) {
    await runCommand('btrfs', ['subvolume', 'create', join(layout.pool, 'data')], { check: true });
    await runCommand('mount', ['--bind', join(layout.pool, 'data'), layout.dataRoot], { check: true });
  }
  return layout;
}

async function release(layout: WorkspaceLayout | undefined) {
  if (!layout) return;
  await runCommand('umount', [layout.dataRoot]);
  await runCommand('umount', [layout.pool]);
}

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 6, 12, 0, seconds));

describe.skipIf(reason !== undefined)(
  'snapshot replication (root, btrfs)',
  { shuffle: false, timeout: 120_000 },
  () => {
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'agent-repl-'));
      primary = await makeStorage(join(root, 'a'), true);
      standby = await makeStorage(join(root, 'b'), false);
    });

    afterAll(async () => {
      if (!root) return;
      await release(primary);
      await release(standby);
      await rm(root, { recursive: true, force: true });
    });

    it('sends the first snapshot whole and the next as only what changed, byte-identical on the standby', async () => {
      const big = randomBytes(32 * MB);
      await writeFile(join(primary.dataRoot, 'big.bin'), big);
      await writeFile(join(primary.dataRoot, 'note.txt'), 'first\n');
      const first = await takeSnapshot(primary, runCommand, 'scheduled', at(0));
      const whole = await replicateSnapshot(primary, standby, first.name, undefined, runCommand);
      expect(whole.bytes).toBeGreaterThan(32 * MB);

      await writeFile(join(primary.dataRoot, 'note.txt'), 'second\n');
      const second = await takeSnapshot(primary, runCommand, 'scheduled', at(1));
      const parent = commonParent(
        (await listSnapshots(primary)).map((s) => s.name),
        (await listSnapshots(standby)).map((s) => s.name),
      );
      expect(parent).toBe(first.name);
      const increment = await replicateSnapshot(primary, standby, second.name, parent, runCommand);
      // The 32 MiB file did not change: it is not sent again.
      expect(increment.bytes).toBeLessThan(MB);

      const received = join(standby.pool, 'snapshots', second.name);
      expect(await readFile(join(received, 'note.txt'), 'utf8')).toBe('second\n');
      expect((await readFile(join(received, 'big.bin'))).equals(big)).toBe(true);
      // Received read-only, as it was sent.
      await expect(writeFile(join(received, 'x'), 'x')).rejects.toThrow(/EROFS/);
    });

    it('leaves nothing of a receive that fails', async () => {
      const third = await takeSnapshot(primary, runCommand, 'scheduled', at(2));
      const garbage = Readable.from([Buffer.from('btrfs-stream'), randomBytes(4096)]);
      await expect(receiveSnapshot(standby, third.name, garbage, runCommand)).rejects.toThrow(
        /btrfs receive/,
      );
      expect((await listSnapshots(standby)).map((s) => s.name)).not.toContain(third.name);
      // The same snapshot sent again whole then arrives: nothing half-made stood in its way.
      const sent = sendSnapshot(primary, third.name);
      await Promise.all([receiveSnapshot(standby, third.name, sent.stream, runCommand), sent.done]);
      expect((await listSnapshots(standby)).map((s) => s.name)).toContain(third.name);
    });

    it('promotes the standby: its data is the newest snapshot, writable; a storage with data is never overwritten', async () => {
      const newest = (await listSnapshots(standby))[0]!.name;
      await promoteSnapshot(standby, newest, runCommand);
      const data = join(standby.pool, 'data');
      expect(await readFile(join(data, 'note.txt'), 'utf8')).toBe('second\n');
      await writeFile(join(data, 'after.txt'), 'written after the promotion\n');
      await expect(promoteSnapshot(standby, newest, runCommand)).rejects.toThrow(/not overwritten/);
    });
  },
);
