// Snapshots of a live workspace (issue 37, acceptance 2), as root against the real programs: a
// btrfs image with its `data` subvolume at the data root, a snapshot taken on demand (the node
// call), then the file overwritten; the real smbclient lists the snapshot in `allinfo` and reads
// the old bytes through the @GMT path, while the snapshot refuses a write. Also: online grow and
// shrink, a shrink btrfs refuses, a write past the size (NT_STATUS_DISK_FULL), retention deleting
// an old snapshot, and removal leaving no mount behind. The backup browser reads the same snapshot
// through the storage driver's calls (snapshot.browse, snapshot.download), never through a link. Skipped, with the reason, where not root.
import { randomUUID } from 'node:crypto';
import { readFile, rm, statfs, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { SAMBA_SERVER_DEFAULTS, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { runNodeCall, type NodeCallStream } from './calls/node-call.ts';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { createReconcileMemory } from './reconcile.ts';
import { listSnapshots, snapshotName, snapshotPass, takeSnapshot } from './snapshots/snapshots.ts';
import { storageFileSystem } from './system/btrfs.ts';
import { loopDevicesOf } from './system/loop-devices.ts';
import { mountAt } from './system/mounts.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { reconcileWorkspaceOnce } from './testing/live-pass.ts';
import { LIVE_WORKSPACE_PROGRAMS, liveNodeWorkspace, liveSkipReason } from './testing/live.ts';

const reason = await liveSkipReason('snapshots test', [...LIVE_WORKSPACE_PROGRAMS, 'mkfs.btrfs', 'btrfs']);

const MB = 1024 * 1024;
const B = WORKSPACE_ID_FIRST_BASE;
const workspace = liveNodeWorkspace('live');
const { service: SERVICE, address: ADDRESS, layout, dataDir, localDir } = workspace;
const PORT = 445;

let generation = 0;
const memory = createReconcileMemory();
const drivers = createDefaultDrivers({ live: true, smbPort: PORT, addressPool: [ADDRESS] });

function state(storageMb: number, removed = false): WorkspaceDesiredState {
  return {
    ...desiredWorkspace({
      service_id: SERVICE,
      address: ADDRESS,
      storage_bytes: storageMb * MB,
      id_base: B,
      users: [desiredUser('alice', B + 1)],
      samba: {
        shares: [desiredShare('projects', { users: [{ name: 'alice', ...perms(true, true) }] })],
        settings: SAMBA_SERVER_DEFAULTS,
      },
    }),
    ...(removed ? { state: 'removed' as const } : {}),
  };
}

async function pass(desiredState: WorkspaceDesiredState): Promise<WorkspaceReport> {
  generation += 1;
  const desired = { ...desiredState, generation };
  return (await reconcileWorkspaceOnce(desired, { dataDir: dataDir(), address: ADDRESS, drivers, memory }))
    .report;
}

/** Runs one node call of the workspace as the agent would. */
function nodeCall(kind: string, payload: Record<string, unknown>) {
  return runNodeCall(
    { call_id: randomUUID(), service_id: SERVICE, kind, payload, deadline: '' },
    {
      handlers: drivers,
      applied: () => ({ ...state(300), generation }),
      layout: () => layout(),
      dataDir: dataDir(),
      run: runCommand,
      logger: silentLogger,
    },
  );
}

async function smb(command: string) {
  const result = await runCommand(
    'smbclient',
    [`//${ADDRESS}/projects`, '-p', String(PORT), '-U', 'alice', '-m', 'SMB3', '-c', command],
    { env: { ...process.env, PASSWD: 'alice-password' }, timeoutMs: 120_000 },
  );
  return { ok: result.ok, output: `${result.stdout}\n${result.stderr}` };
}

describe.skipIf(reason !== undefined)(
  'snapshots of a live workspace (root, btrfs, real smbd)',
  { shuffle: false, timeout: 120_000 },
  () => {
    beforeAll(async () => {
      await workspace.create();
    });

    afterAll(() => workspace.remove());

    it('makes btrfs storage: data subvolume at the data root, snapshots read-only beside it, one scheduled snapshot', async () => {
      const report = await pass(state(300));
      expect(report.error).toBeUndefined();
      expect(report.ok).toBe(true);
      expect(await storageFileSystem(layout().image)).toEqual({ type: 'btrfs', bytes: 300 * MB });
      expect(await mountAt(layout().dataRoot)).toMatchObject({ fsType: 'btrfs' });
      expect((await mountAt(layout().snapshotsDir))?.options).toMatch(/(^|,)ro(,|$)/);
      expect(report.facts?.storage_bytes).toBe(300 * MB);
      // The first pass finds a scheduled snapshot due and takes it.
      expect(report.features?.snapshots).toMatchObject({ supported: true });
      expect(report.features?.snapshots?.snapshots.map((s) => s.kind)).toEqual(['scheduled']);
    });

    it('shows a snapshot taken on demand as a Previous Version: allinfo lists it, the @GMT path reads the old bytes', async () => {
      const file = join(localDir(), 'report.txt');
      await writeFile(file, 'the old bytes\n');
      const put = await smb(`put ${file} report.txt`);
      expect(put.ok, put.output).toBe(true);
      // A second apart from the scheduled one, so it is a snapshot of its own.
      await new Promise((resolve) => setTimeout(resolve, 1100));

      // A link out of the storage, which the backup browser must not follow.
      await symlink('/etc/passwd', join(layout().dataRoot, 'shares/projects/escape'));
      const answer = await nodeCall('snapshot.take', {});
      expect(answer).toMatchObject({ ok: true, result: { kind: 'manual' } });
      if (!answer.ok || !('result' in answer)) throw new Error('no snapshot taken');
      const name = (answer.result as { name: string }).name;

      await writeFile(file, 'the new bytes, written after the snapshot\n');
      const overwrite = await smb(`put ${file} report.txt`);
      expect(overwrite.ok, overwrite.output).toBe(true);

      const info = await smb('allinfo report.txt');
      expect(info.output).toContain(name);
      const old = join(localDir(), 'old.txt');
      const got = await smb(`get "${name}\\report.txt" ${old}`);
      expect(got.ok, got.output).toBe(true);
      expect(await readFile(old, 'utf8')).toBe('the old bytes\n');
      // The other form a client uses: into the version's folder, then the file.
      const inside = await smb(`cd ${name}; ls`);
      expect(inside.output).toContain('report.txt');
      const now = join(localDir(), 'now.txt');
      await smb(`get report.txt ${now}`);
      expect(await readFile(now, 'utf8')).toBe('the new bytes, written after the snapshot\n');
      // A snapshot is read-only: over SMB and for root on the node.
      const refused = await smb(`put ${file} "${name}\\report.txt"`);
      expect(refused.output).toMatch(/NT_STATUS_(ACCESS_DENIED|MEDIA_WRITE_PROTECTED|OBJECT_PATH_NOT_FOUND)/);
      await expect(writeFile(join(layout().snapshotsDir, name, 'shares/projects/x'), 'x')).rejects.toThrow(
        /EROFS/,
      );

      const report = await pass(state(300));
      expect(report.features?.snapshots?.snapshots[0]).toMatchObject({ name, kind: 'manual' });

      // The backup browser: the snapshot's folder as it was, and the old bytes of the file.
      const browsed = await nodeCall('snapshot.browse', { name, path: '/shares/projects' });
      expect(browsed).toMatchObject({ ok: true, result: { found: true, truncated: false } });
      const entries =
        'result' in browsed ? (browsed.result as { entries: Array<{ name: string }> }).entries : [];
      expect(entries.map((each) => each.name)).toEqual(['report.txt']);
      const downloaded = await nodeCall('snapshot.download', { name, path: '/shares/projects/report.txt' });
      if (!downloaded.ok || !('stream' in downloaded)) throw new Error('no download');
      const stream: NodeCallStream = downloaded.stream;
      expect(stream.size).toBe(14);
      expect(await text(stream.body)).toBe('the old bytes\n');
      expect(await nodeCall('snapshot.download', { name, path: '/shares/projects/escape' })).toMatchObject({
        ok: false,
        code: 'not_found',
      });
      expect(
        await nodeCall('snapshot.browse', { name: '@GMT-2020.01.01-00.00.00', path: '/' }),
      ).toMatchObject({ ok: false, code: 'not_found' });
    });

    it('holds what is sold: 90% of the smallest plan (3 GiB) fits in one file', async () => {
      const starter = await pass(state(3072));
      expect(starter.error).toBeUndefined();
      expect(starter.facts?.storage_bytes).toBe(3072 * MB);
      // fallocate reserves the room without writing it, so the node's disk is not filled.
      const file = join(layout().dataRoot, 'shares/projects/sold.bin');
      const fill = await runCommand('fallocate', ['-l', String(Math.floor(0.9 * 3072 * MB)), file]);
      expect(fill.ok, fill.stderr).toBe(true);
      await rm(file);
      // Counted free within seconds of the delete (btrfs's own 30 s commit would leave the disk
      // use, its alert and the snapshot rule half a minute behind).
      const freed = Date.now();
      const used = async () => {
        const fs = await statfs(layout().dataRoot);
        return 1 - fs.bavail / fs.blocks;
      };
      while ((await used()) > 0.5 && Date.now() - freed < 15_000)
        await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await used()).toBeLessThan(0.5);
      expect(Date.now() - freed).toBeLessThan(12_000);
      // The file's room serves metadata again: a snapshot and new files need it (with data and
      // metadata apart, one large file left none for them).
      await takeSnapshot(layout(), runCommand, 'manual', new Date(Date.now() + 2000));
      await writeFile(join(layout().dataRoot, 'shares/projects/after.txt'), 'after\n');
      await rm(join(layout().dataRoot, 'shares/projects/after.txt'));
    });

    it('grows and shrinks online; refuses a shrink below what btrfs allows; a write past the size is disk full', async () => {
      const grown = await pass(state(400));
      expect(grown.error).toBeUndefined();
      expect(grown.facts?.storage_bytes).toBe(400 * MB);
      const shrunk = await pass(state(280));
      expect(shrunk.error).toBeUndefined();
      expect(shrunk.facts?.storage_bytes).toBe(280 * MB);
      const refused = await pass(state(200));
      expect(refused.error_code).toBe('resize_refused');
      expect(refused.facts?.storage_bytes).toBe(280 * MB);
      await pass(state(280));

      const big = join(localDir(), 'big.bin');
      await runCommand('dd', ['if=/dev/zero', `of=${big}`, 'bs=1M', 'count=320'], { check: true });
      const full = await smb(`put ${big} big.bin`);
      expect(full.output).toContain('NT_STATUS_DISK_FULL');
      await smb('del big.bin');
    });

    it('retention deletes a snapshot older than 7 days and keeps the recent ones', async () => {
      const old = await takeSnapshot(
        layout(),
        runCommand,
        'scheduled',
        new Date(Date.now() - 8 * 24 * 3_600_000),
      );
      expect((await listSnapshots(layout())).map((s) => s.name)).toContain(old.name);
      const result = await snapshotPass(layout(), runCommand);
      expect(result.deleted).toEqual([old.name]);
      expect(result.snapshots.map((s) => s.name)).not.toContain(old.name);
      expect(result.snapshots.length).toBeGreaterThanOrEqual(2);
      expect(snapshotName(new Date(result.snapshots.at(-1)!.taken_at))).toBe(result.snapshots.at(-1)!.name);
    });

    it('gives the room back: files deleted from a full storage free their space as the snapshots holding them go', async () => {
      const filler = join(layout().dataRoot, 'shares/projects/filler.bin');
      const pad = join(layout().dataRoot, 'shares/projects/pad.bin');
      await runCommand('dd', ['if=/dev/zero', `of=${pad}`, 'bs=1M', 'count=16'], { check: true });
      await runCommand('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=400'], { timeoutMs: 120_000 });
      // A storage full to the last block has no room for a snapshot's metadata (mixed mode: data
      // and metadata share it), which is why no scheduled one is taken under 10% free; the pad
      // leaves it a little. The newest snapshot holds the filler; deleting the file frees nothing yet.
      await rm(pad);
      await runCommand('btrfs', ['filesystem', 'sync', layout().dataRoot], { check: true });
      await takeSnapshot(layout(), runCommand, 'manual', new Date(Date.now() + 5000));
      await rm(filler);
      await runCommand('btrfs', ['filesystem', 'sync', layout().dataRoot], { check: true });
      const free = async () => {
        const fs = await statfs(layout().dataRoot);
        return fs.bavail / fs.blocks;
      };
      expect(await free()).toBeLessThan(0.1);
      // A pass each: the oldest goes (and the pass waits until its room is counted free), no
      // scheduled one is taken, until there is room again.
      for (let pass = 0; pass < 10 && (await free()) < 0.1; pass += 1) {
        const result = await snapshotPass(layout(), runCommand);
        expect(result.taken).toBeUndefined();
      }
      expect(await free()).toBeGreaterThan(0.5);
    });

    it('removes the workspace: no mount and no loop device left', async () => {
      const image = layout().image;
      await pass(state(280, true));
      for (const point of [layout().dataRoot, layout().pool, layout().snapshotsDir])
        expect(await mountAt(point)).toBeUndefined();
      expect(await loopDevicesOf(image)).toEqual([]);
    });
  },
);
