// A workspace's storage with a hard size limit: a sparse image, loop-mounted at the workspace's
// data root (workspace-layout.ts). A new workspace's image is btrfs (from BTRFS_MIN_BYTES, which
// every plan is): its `data` subvolume is mounted at the data root, its top level at `pool` (the
// agent's alone) and its `snapshots` subvolume read-only at `snapshots`, where the workspace's
// read-only snapshots are (snapshots/snapshots.ts; Samba's Previous Versions read them). btrfs
// grows and shrinks online (`btrfs filesystem resize`, then the image file follows), so nothing
// stops for a resize. An image made before as ext4 (or smaller than btrfs allows) stays ext4 and
// works as before, without snapshots (its report says so): the file system is read from the
// image's superblock on every pass, never assumed. It is never converted in place, and it gets no
// standby (replication needs btrfs send), so it stays ext4 (docs/features/snapshots.md).
//
// ext4, as before: Writing past the size gives ENOSPC, which Samba
// turns into NT_STATUS_DISK_FULL. The image follows storage_bytes: it grows online when the
// kernel allows it; otherwise, and to shrink, offline, with the workspace's daemons stopped for
// the moment it takes (e2fsck -f, resize2fs, a shrunk image truncated). A resize that cannot be
// done (data that does not fit the smaller size, the image still in use, a failing check) leaves
// the storage mounted again at its old size, so the daemons start again, and is reported as the
// workspace's error with its reason; the report's `storage_bytes` is the size it really has. A
// refused shrink is not tried again until the wanted size changes, a failed resize not before a
// minute has passed (storage-resize.json), so a pass does not stop the daemons for it each time;
// the owner's restart (a new restart_token) tries either again at once.
//
// A standby (role `standby`, replicas/) has a btrfs storage of the same size holding only the
// `replicas` subvolume, the replicas it pulls: no `data`, nothing mounted but its top level, no
// snapshots; its report is its newest replica. A primary whose storage has no `data` but holds
// replicas (a standby promoted: a failover, a move's switch) makes `data` from the newest replica
// before it mounts it. Every btrfs storage has `replicas` (a primary keeps the ones it sent there).
//
// Stopped keeps the image mounted (data kept, usage still measured; nothing serves it). Removed
// unmounts, detaches and deletes. Without root or loop devices the data root is a plain folder
// with no limit, and the status says so. Another backend (LVM, ZFS) is another driver with the
// same name and the same data root.
import { NODE_DRIVERS } from '@debesis/contract';
import { open, readFile, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { z } from 'zod';
import { ensureDir } from '../fs/ensure-dir.ts';
import { countFiles, measureTree } from '../fs/measure-tree.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { EXT4_BLOCK, EXT4_IMAGE_MOUNT_OPTIONS, ext4Size, mkfsExt4Args } from '../system/ext4.ts';
import { storageFileSystem } from '../system/btrfs.ts';
import { createSparseImage } from '../system/sparse-image.ts';
import { firstMissingProgram } from '../system/host.ts';
import {
  DATA_SUBVOLUME,
  REPLICAS_SUBVOLUME,
  SNAPSHOTS_SUBVOLUME,
  listSnapshots,
  snapshotPass,
  takeSnapshot,
} from '../snapshots/snapshots.ts';
import type { SnapshotsReport } from '@debesis/contract';
import { NodeCallError, type NodeCallContext } from '../calls/node-call.ts';
import { errorMessage } from '../logger.ts';
import { exists } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import type { Driver, DriverContext, DriverResult } from './driver.ts';
import { promoteSnapshot } from '../snapshots/replication.ts';
import { wholeReplicas } from '../replicas/replica-store.ts';
import { replicaReport } from '../replicas/replica-pull.ts';
import { sendReplica } from '../replicas/replica-send.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';
import {
  browseSnapshotFolder,
  snapshotFileDownload,
  type SnapshotAccess,
} from '../snapshots/snapshot-files.ts';
import { workspaceOwners } from '../storage-files/storage-reader.ts';

export const STORAGE_DRIVER = NODE_DRIVERS.storage;
const BLOCK = EXT4_BLOCK;
// A fresh ext4 uses inodes 1–11 (reserved ones and lost+found): they are not the customer's files.
const EXT4_BASE_INODES = 11;
const PROGRAMS = ['losetup', 'mkfs.ext4', 'resize2fs', 'e2fsck', 'mount', 'umount'];
const DEVICE_MOUNT_OPTIONS = EXT4_IMAGE_MOUNT_OPTIONS;
const MOUNT_OPTIONS = `loop,${DEVICE_MOUNT_OPTIONS}`;
const BTRFS_PROGRAMS = ['mkfs.btrfs', 'btrfs'];
// commit=5: btrfs writes its transaction every 30 s by default, and until then a deleted file's
// room is not counted free (the dashboard's disk use, a disk alert, the 10% snapshot rule all lag
// half a minute behind a delete) and a crash loses up to 30 s of writes; 5 s, as ext4's journal.
const BTRFS_MOUNT_OPTIONS = 'nosuid,nodev,noexec,commit=5';
/** Below this a btrfs storage is made in mixed mode (mkfs.btrfs's soft advice: under 5 GiB). */
const MIXED_BELOW_BYTES = 5 * 1024 ** 3;
/**
 * The smallest btrfs the kernel resizes to (it refuses any resize below 256 MiB; mkfs.btrfs
 * itself needs 109 MiB): a smaller storage is made ext4, and a btrfs one is not shrunk below it.
 */
export const BTRFS_MIN_BYTES = 256 * 1024 * 1024;

/** storage_bytes rounded down to whole file-system blocks. */
export const imageBytes = (storageBytes: number) => Math.floor(storageBytes / BLOCK) * BLOCK;

export function createStorageImageDriver(options: LiveDriverOptions = {}): Driver {
  async function whyNotLive(): Promise<string | undefined> {
    const reason = await notLiveReason(options, PROGRAMS);
    if (reason) return reason;
    if (!(await exists('/dev/loop-control'))) return 'the host has no loop devices';
    return undefined;
  }

  return {
    name: STORAGE_DRIVER,
    phase: 'storage',
    standby: true,

    async apply(desired, context) {
      const layout = workspaceLayout(context.workspaceDir);
      const reason = await whyNotLive();
      if (desired.state === 'removed') return remove(layout, context, reason === undefined);
      if (reason) return plainFolder(layout, reason);
      return applyImage(desired, layout, context);
    },

    async observe(desired, context) {
      const layout = workspaceLayout(context.workspaceDir);
      if (desired.state === 'removed') return {};
      if (desired.role === 'standby') {
        if (await mountAt(layout.pool)) return { facts: await poolFacts(layout) };
        if ((await whyNotLive()) === undefined && (await exists(layout.image)))
          return { drift: 'the standby storage is not mounted' };
        return {};
      }
      const mounted = await mountAt(layout.dataRoot);
      if (mounted) {
        const facts = await imageFacts(layout);
        // btrfs: its snapshots' mounts are part of the storage (Samba's Previous Versions, taking them).
        if (
          (await storageFileSystem(layout.image).catch(() => undefined))?.type === 'btrfs' &&
          (!(await mountAt(layout.pool)) || !(await mountAt(layout.snapshotsDir)))
        )
          return { facts, drift: 'snapshots are not mounted' };
        return { facts };
      }
      // Not mounted: drift only if it ran as an image before (live mode, image present).
      if ((await whyNotLive()) === undefined && (await exists(layout.image)))
        return { drift: 'storage is not mounted' };
      return { facts: await folderFacts(layout) };
    },

    // The snapshots' part of the report, on every pass. It also takes the scheduled snapshot when
    // one is due and prunes (snapshots/snapshots.ts): a btrfs snapshot is one atomic step of a few
    // milliseconds, and the storage driver owns the storage, so the pass that finds one due takes
    // it rather than a timer of its own. A stopped workspace's data does not change: none is taken.
    async report(desired, context) {
      if (desired.state === 'removed') return {};
      if (desired.role === 'standby') {
        const replica = await replicaReport(workspaceLayout(context.workspaceDir));
        return replica ? { replica } : {};
      }
      return {
        snapshots: await snapshotsReport(
          workspaceLayout(context.workspaceDir),
          context,
          desired.state === 'running',
        ),
      };
    },

    calls: {
      'snapshot.take': async (_payload, { layout, run }) => {
        const fs = (await exists(layout.image)) ? await storageFileSystem(layout.image) : undefined;
        if (fs?.type !== 'btrfs')
          throw new NodeCallError(
            'unsupported',
            `the workspace's storage is ${fs?.type ?? 'a plain folder'}: no snapshots`,
          );
        if (!(await mountAt(layout.pool))) throw new NodeCallError('failed', 'the storage is not mounted');
        return takeSnapshot(layout, run, 'manual');
      },
      'replica.send': sendReplica,
      // The backup browser's view of a snapshot (snapshots/snapshot-files.ts).
      'snapshot.browse': (payload, context) => browseSnapshotFolder(snapshotAccess(context), payload),
      'snapshot.download': (payload, context) => snapshotFileDownload(snapshotAccess(context), payload),
    },
  };
}

const snapshotAccess = ({ layout, desired }: NodeCallContext): SnapshotAccess => ({
  snapshotsDir: layout.snapshotsDir,
  owners: workspaceOwners(desired.id_base),
});

const SNAPSHOT_RETRY_MS = 60_000;
/** When a workspace's scheduled snapshot last failed (by its folder), so a pass does not retry at once. */
const snapshotFailures = new Map<string, number>();

async function snapshotsReport(
  layout: WorkspaceLayout,
  context: DriverContext,
  schedule: boolean,
): Promise<SnapshotsReport> {
  const fs = (await exists(layout.image)) ? await storageFileSystem(layout.image) : undefined;
  if (!fs) return { supported: false, reason: 'no_image', snapshots: [] };
  if (fs.type === 'ext4') return { supported: false, reason: 'ext4_storage', snapshots: [] };
  if (!(await mountAt(layout.pool))) return { supported: true, snapshots: await listSnapshots(layout) };
  if (!schedule) return { supported: true, snapshots: await listSnapshots(layout) };
  // A failed scheduled snapshot (a full disk leaves btrfs no room for its metadata) is logged and
  // not tried again for a minute; the list is still reported.
  const failedAt = snapshotFailures.get(layout.root);
  if (failedAt !== undefined && Date.now() - failedAt < SNAPSHOT_RETRY_MS)
    return { supported: true, snapshots: await listSnapshots(layout) };
  let pass;
  try {
    pass = await snapshotPass(layout, context.run);
    snapshotFailures.delete(layout.root);
  } catch (error) {
    snapshotFailures.set(layout.root, Date.now());
    context.logger.warn({}, `snapshots: the scheduled snapshot or the prune failed: ${errorMessage(error)}`);
    return { supported: true, snapshots: await listSnapshots(layout) };
  }
  if (pass.taken || pass.deleted.length > 0)
    context.logger.info(
      { taken: pass.taken?.name, deleted: pass.deleted },
      `snapshots: ${pass.taken ? `took ${pass.taken.name}` : 'none due'}, deleted ${pass.deleted.length}`,
    );
  return { supported: true, snapshots: pass.snapshots.slice(0, 1000) };
}

async function plainFolder(layout: WorkspaceLayout, reason: string): Promise<DriverResult> {
  const changed = await ensureDir(layout.dataRoot, { mode: 0o755 });
  return {
    changed,
    actions: changed ? [`created ${layout.dataRoot} (plain folder)`] : [],
    status: {
      driver: STORAGE_DRIVER,
      live: false,
      reason: `${reason}: storage is a plain folder without a size limit`,
    },
    facts: await folderFacts(layout),
  };
}

async function applyImage(
  desired: WorkspaceDesiredState,
  layout: WorkspaceLayout,
  context: DriverContext,
): Promise<DriverResult> {
  const actions: string[] = [];
  const run = (command: string, args: string[]) =>
    context.run(command, args, { check: true, timeoutMs: 300_000 });
  const wanted = imageBytes(desired.storage_bytes);

  const standby = desired.role === 'standby';
  if (!(await exists(layout.image))) {
    const btrfs = wanted >= BTRFS_MIN_BYTES && (await firstMissingProgram(BTRFS_PROGRAMS)) === undefined;
    if (standby && !btrfs)
      throw new Error(
        `a standby needs a btrfs storage (btrfs-progs installed, at least ${BTRFS_MIN_BYTES} bytes)`,
      );
    // btrfs: the subvolumes are made once it is mounted (ensureSubvolumes), so a crash in between
    // leaves an image the next pass completes. The layout is chosen so the storage holds what was
    // sold (measured, docs/features/snapshots.md): btrfs's default DUP metadata took 17% of a
    // Starter's 3 GiB (a 2.6 GiB file did not fit) and guards against nothing a replica on another
    // node does not. Under MIXED_BELOW_BYTES data and metadata share block groups (btrfs's own
    // advice for small file systems): it holds 99% and one large file cannot take the room new
    // metadata needs (separate block groups then fail a snapshot or a new file with ENOSPC on an
    // empty storage). Above it, single metadata holds 97% and more.
    const layoutFlags = wanted < MIXED_BELOW_BYTES ? ['--mixed'] : ['-m', 'single'];
    await createSparseImage(layout.image, wanted, (partial) =>
      btrfs
        ? run('mkfs.btrfs', ['-q', '-f', '-K', ...layoutFlags, '-L', 'debesis', partial])
        : run('mkfs.ext4', mkfsExt4Args(partial)),
    );
    actions.push(`created a ${wanted}-byte ${btrfs ? 'btrfs' : 'ext4'} storage image`);
  }

  if ((await storageFileSystem(layout.image))?.type === 'btrfs')
    return applyBtrfs(desired, layout, context, actions);
  if (standby) throw new Error('a standby needs a btrfs storage: this one is ext4');

  if (await ensureDir(layout.dataRoot, { mode: 0o755, onlyWhenCreated: true }))
    actions.push(`created ${layout.dataRoot}`);

  let mounted = await mountAt(layout.dataRoot);
  if (mounted) await checkMountIsOurs(mounted.source, layout);

  const fsBytes = (await ext4Size(layout.image)) ?? 0;
  let problem: ResizeProblem | undefined;
  if (wanted === fsBytes) {
    await rm(refusalFile(layout), { force: true });
  } else {
    const earlier = await readRefusal(layout);
    if (earlier && !resizeDue(earlier, wanted, Date.now(), desired.restart_token)) {
      // The same resize was refused (or failed a moment ago): say so again without stopping the
      // daemons for it on every pass.
      problem = earlier.problem;
    } else {
      let grownOnline = false;
      if (wanted > fsBytes) {
        if ((await stat(layout.image)).size < wanted) {
          // Growing the file keeps it sparse: only written blocks take disk space.
          await truncateImage(layout, wanted);
        }
        if (mounted) {
          // Online: tell the loop device its file grew, then grow the mounted file system. The
          // kernel refuses this without CAP_SYS_RESOURCE (as in some containers): then offline.
          const refreshed = await context.run('losetup', ['-c', mounted.source]);
          grownOnline =
            refreshed.ok && (await context.run('resize2fs', [mounted.source], { timeoutMs: 300_000 })).ok;
        }
      }
      if (grownOnline) {
        actions.push(`grew storage from ${fsBytes} to ${wanted} bytes`);
      } else {
        const outcome = await resizeOffline(layout, context, mounted !== undefined, fsBytes, wanted);
        actions.push(...outcome.actions);
        mounted = await mountAt(layout.dataRoot);
        problem = outcome.problem;
        if (problem) await writeRefusal(layout, wanted, problem, desired.restart_token);
        else await rm(refusalFile(layout), { force: true });
      }
    }
  }

  if (!mounted) {
    await releaseImage(layout, context);
    await shortenImageToFileSystem(layout, wanted);
    await run('mount', ['-t', 'ext4', '-o', MOUNT_OPTIONS, layout.image, layout.dataRoot]);
    actions.push(`mounted storage at ${layout.dataRoot}`);
  }
  const facts = await imageFacts(layout);
  if (!problem)
    return { changed: actions.length > 0, actions, status: { driver: STORAGE_DRIVER, live: true }, facts };
  return {
    changed: actions.length > 0,
    actions,
    status: {
      driver: STORAGE_DRIVER,
      live: true,
      reason: problem.reason,
      ...(problem.refused ? { refused_bytes: wanted } : {}),
    },
    error: problem.reason,
    facts,
  };
}

/**
 * A btrfs storage: its top level mounted at `pool` (from the image, or from the device its data
 * subvolume is mounted from already), the `data` and `snapshots` subvolumes made when missing,
 * `data` mounted at the data root and `snapshots` read-only at `snapshotsDir`; then resized
 * online to the wanted size (the image file grows first; shrinks after). A shrink the data does
 * not leave room for (btrfs: ENOSPC), or below BTRFS_MIN_BYTES, is refused and remembered like
 * ext4's (storage-resize.json); the daemons never stop for a btrfs resize.
 */
async function applyBtrfs(
  desired: WorkspaceDesiredState,
  layout: WorkspaceLayout,
  context: DriverContext,
  actions: string[],
): Promise<DriverResult> {
  const run = (command: string, args: string[]) =>
    context.run(command, args, { check: true, timeoutMs: 300_000 });
  const wanted = imageBytes(desired.storage_bytes);
  const standby = desired.role === 'standby';
  for (const dir of standby ? [layout.pool] : [layout.dataRoot, layout.pool, layout.snapshotsDir])
    if (await ensureDir(dir, { mode: 0o755, onlyWhenCreated: true })) actions.push(`created ${dir}`);

  let pool = await mountAt(layout.pool);
  if (pool) {
    await checkMountIsOurs(pool.source, layout);
  } else {
    const data = await mountAt(layout.dataRoot);
    if (data) {
      await checkMountIsOurs(data.source, layout);
      await run('mount', [
        '-t',
        'btrfs',
        '-o',
        `subvolid=5,${BTRFS_MOUNT_OPTIONS}`,
        data.source,
        layout.pool,
      ]);
    } else {
      await releaseImage(layout, context);
      await run('mount', [
        '-t',
        'btrfs',
        '-o',
        `loop,subvolid=5,${BTRFS_MOUNT_OPTIONS}`,
        layout.image,
        layout.pool,
      ]);
    }
    actions.push(`mounted the storage's top level at ${layout.pool}`);
    pool = await mountAt(layout.pool);
    if (!pool) throw new Error(`${layout.pool} is not mounted after mount`);
  }
  const device = pool.source;
  if (!standby && !(await exists(join(layout.pool, DATA_SUBVOLUME)))) {
    // A standby promoted: it serves the newest replica it holds.
    const newest = (await wholeReplicas(layout, context.run))[0];
    if (newest) {
      await promoteSnapshot(layout, newest, context.run, { folder: REPLICAS_SUBVOLUME });
      actions.push(`made data from replica ${newest}`);
    }
  }
  const subvolumes = standby
    ? [REPLICAS_SUBVOLUME]
    : [DATA_SUBVOLUME, SNAPSHOTS_SUBVOLUME, REPLICAS_SUBVOLUME];
  for (const name of subvolumes) {
    if (await exists(join(layout.pool, name))) continue;
    await run('btrfs', ['subvolume', 'create', join(layout.pool, name)]);
    actions.push(`created subvolume ${name}`);
  }
  if (!standby && !(await mountAt(layout.dataRoot))) {
    await run('mount', [
      '-t',
      'btrfs',
      '-o',
      `subvol=${DATA_SUBVOLUME},${BTRFS_MOUNT_OPTIONS}`,
      device,
      layout.dataRoot,
    ]);
    actions.push(`mounted storage at ${layout.dataRoot}`);
  }
  if (!standby && !(await mountAt(layout.snapshotsDir))) {
    await run('mount', [
      '-t',
      'btrfs',
      '-o',
      `subvol=${SNAPSHOTS_SUBVOLUME},ro,${BTRFS_MOUNT_OPTIONS}`,
      device,
      layout.snapshotsDir,
    ]);
    actions.push(`mounted snapshots read-only at ${layout.snapshotsDir}`);
  }

  const fsBytes = (await storageFileSystem(layout.image))?.bytes ?? 0;
  let problem: ResizeProblem | undefined;
  if (wanted === fsBytes) {
    await rm(refusalFile(layout), { force: true });
    // A shrink whose image was not cut yet (a crash between the two steps).
    if ((await stat(layout.image)).size > fsBytes) {
      await truncateImage(layout, fsBytes);
      await context.run('losetup', ['-c', device]);
    }
  } else {
    const earlier = await readRefusal(layout);
    if (earlier && !resizeDue(earlier, wanted, Date.now(), desired.restart_token)) {
      problem = earlier.problem;
    } else {
      problem = await resizeBtrfs(layout, context, device, fsBytes, wanted);
      if (problem) await writeRefusal(layout, wanted, problem, desired.restart_token);
      else {
        await rm(refusalFile(layout), { force: true });
        actions.push(
          `${wanted > fsBytes ? 'grew' : 'shrank'} storage from ${fsBytes} to ${wanted} bytes (online)`,
        );
      }
    }
  }
  const facts = standby ? await poolFacts(layout) : await imageFacts(layout);
  const status = {
    driver: STORAGE_DRIVER,
    live: true,
    ...(problem ? { reason: problem.reason, ...(problem.refused ? { refused_bytes: wanted } : {}) } : {}),
  };
  return {
    changed: actions.length > 0,
    actions,
    status,
    ...(problem ? { error: problem.reason } : {}),
    facts,
  };
}

async function resizeBtrfs(
  layout: WorkspaceLayout,
  context: DriverContext,
  device: string,
  fsBytes: number,
  wanted: number,
): Promise<ResizeProblem | undefined> {
  const failed = resizeFailure(fsBytes, wanted);
  if (wanted < BTRFS_MIN_BYTES)
    return failed(`btrfs storage cannot be smaller than ${BTRFS_MIN_BYTES} bytes`, true);
  if (wanted > fsBytes) {
    if ((await stat(layout.image)).size < wanted) await truncateImage(layout, wanted);
    const refreshed = await context.run('losetup', ['-c', device]);
    if (!refreshed.ok) return failed(`losetup -c: ${refreshed.stderr.trim()}`);
  }
  const resize = await context.run('btrfs', ['filesystem', 'resize', String(wanted), layout.pool], {
    timeoutMs: 600_000,
  });
  if (!resize.ok) {
    const output = `${resize.stderr}\n${resize.stdout}`;
    const why = output.trim().split('\n').filter(Boolean).slice(-2).join('; ') || `exit ${resize.exitCode}`;
    // btrfs answers a shrink the data (snapshots included) does not fit with ENOSPC.
    return failed(`btrfs filesystem resize: ${why}`, wanted < fsBytes && /no space left/i.test(output));
  }
  if (wanted < fsBytes) {
    await truncateImage(layout, wanted);
    await context.run('losetup', ['-c', device]);
  }
  return undefined;
}

interface ResizeProblem {
  reason: string;
  /** The data does not fit the smaller size: not tried again until the wanted size changes. */
  refused: boolean;
}

/** How a resize from `fsBytes` to `wanted` that failed, or was refused, for `why` is told. */
function resizeFailure(fsBytes: number, wanted: number) {
  const verb = wanted > fsBytes ? 'growing' : 'shrinking';
  return (why: string, refused = false): ResizeProblem => ({
    reason:
      `storage stays ${fsBytes} bytes: ${verb} to ${wanted} bytes ${refused ? 'was refused' : 'failed'}: ${why}`.slice(
        0,
        1000,
      ),
    refused,
  });
}

/**
 * Grows or shrinks the file system with nothing using it: the daemons stopped, the storage
 * unmounted, checked with `e2fsck -f`, resized with `resize2fs`, a shrunk image truncated. When
 * it cannot be done (the image still in use, a check or resize that fails, data that does not fit
 * the smaller size), the storage is mounted again at the size it has, so the daemons start again
 * after this driver, and the problem is returned with its reason.
 */
async function resizeOffline(
  layout: WorkspaceLayout,
  context: DriverContext,
  mounted: boolean,
  fsBytes: number,
  wanted: number,
): Promise<{ actions: string[]; problem?: ResizeProblem }> {
  const actions: string[] = [];
  const failed = resizeFailure(fsBytes, wanted);
  await context.quiesce?.();
  if (mounted) {
    const result = await context.run('umount', [layout.dataRoot]);
    if (!result.ok) return { actions, problem: failed(`cannot unmount: ${result.stderr.trim() || 'busy'}`) };
  }
  const held = await waitForRelease(layout, context);
  if (held.length > 0) {
    // Someone else still holds the file system: mount the same device again (the same file
    // system, not a second one over the same file) and serve at the old size.
    await context.run('mount', ['-t', 'ext4', '-o', DEVICE_MOUNT_OPTIONS, held[0]!, layout.dataRoot], {
      check: true,
    });
    return { actions, problem: failed(`the storage image is still in use (${held.join(', ')})`) };
  }
  // e2fsck exits 1 when it fixed something, which is fine; 4 and above are real problems.
  const check = await context.run('e2fsck', ['-f', '-p', layout.image], { timeoutMs: 600_000 });
  if (check.exitCode === null || check.exitCode >= 4)
    return { actions, problem: failed(`e2fsck: ${check.stderr.trim() || check.stdout.trim()}`) };

  if (wanted < fsBytes) {
    const estimate = await context.run('resize2fs', ['-P', layout.image], { timeoutMs: 300_000 });
    const blocks = /minimum size of the filesystem:\s*(\d+)/i.exec(estimate.stdout)?.[1];
    const needed = blocks === undefined ? undefined : Number(blocks) * BLOCK;
    if (needed !== undefined && needed > wanted)
      return {
        actions,
        problem: failed(`the data needs at least ${needed} bytes`, true),
      };
  }
  const resize = await context.run(
    'resize2fs',
    wanted < fsBytes ? [layout.image, `${wanted / 1024}K`] : [layout.image],
    { timeoutMs: 600_000 },
  );
  if (!resize.ok) {
    const output = `${resize.stderr}\n${resize.stdout}`;
    const refused = /smaller than minimum|no space left/i.test(output);
    const why = output.trim().split('\n').filter(Boolean).slice(-2).join('; ') || `exit ${resize.exitCode}`;
    return { actions, problem: failed(`resize2fs: ${why}`, refused && wanted < fsBytes) };
  }
  if (wanted < fsBytes) await truncateImage(layout, wanted);
  actions.push(
    `${wanted > fsBytes ? 'grew' : 'shrank'} storage from ${fsBytes} to ${wanted} bytes (offline)`,
  );
  return { actions };
}

/**
 * A shrunk file system whose image was not truncated yet (a crash between the two steps): the
 * image is cut to the file system, unless a grow is still owed (then the file is grown first).
 */
async function shortenImageToFileSystem(layout: WorkspaceLayout, wanted: number): Promise<void> {
  const fsBytes = await ext4Size(layout.image);
  if (fsBytes !== undefined && wanted <= fsBytes && (await stat(layout.image)).size > fsBytes)
    await truncateImage(layout, fsBytes);
}

async function truncateImage(layout: WorkspaceLayout, bytes: number): Promise<void> {
  const handle = await open(layout.image, 'r+');
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}

// A resize that could not be done, remembered beside the image: the wanted size, when, why,
// whether the data did not fit (then it is not tried again until the wanted size changes; a
// failure is tried again after RESIZE_RETRY_MS) and the owner's restart it was tried under.
const RESIZE_RETRY_MS = 60_000;
const refusalFile = (layout: WorkspaceLayout) => join(layout.root, 'storage-resize.json');
const refusalSchema = z.object({
  wanted: z.number().int(),
  at: z.number(),
  reason: z.string(),
  refused: z.boolean(),
  restart_token: z.string().optional(),
});
export type ResizeRecord = z.infer<typeof refusalSchema>;

/**
 * Whether to try a remembered resize problem again now: another size is wanted, a failure's
 * pause is over, or the owner asked for a restart since (a new restart_token): their restart
 * restarts what is broken, the storage as much as the daemons, refused or not.
 */
export function resizeDue(
  earlier: ResizeRecord,
  wanted: number,
  now: number,
  restartToken: string | undefined,
): boolean {
  if (earlier.wanted !== wanted) return true;
  if (restartToken !== undefined && restartToken !== earlier.restart_token) return true;
  return !earlier.refused && now - earlier.at >= RESIZE_RETRY_MS;
}

async function readRefusal(layout: WorkspaceLayout) {
  const text = await readFile(refusalFile(layout), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let parsed;
  try {
    parsed = refusalSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const record = parsed.data;
  return { ...record, problem: { reason: record.reason, refused: record.refused } };
}

async function writeRefusal(
  layout: WorkspaceLayout,
  wanted: number,
  problem: ResizeProblem,
  restartToken: string | undefined,
): Promise<void> {
  const record: ResizeRecord = {
    wanted,
    at: Date.now(),
    reason: problem.reason,
    refused: problem.refused,
    ...(restartToken !== undefined ? { restart_token: restartToken } : {}),
  };
  await writeIfChanged(refusalFile(layout), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

async function checkMountIsOurs(source: string, layout: WorkspaceLayout): Promise<void> {
  if (!(await loopDevicesOf(layout.image)).includes(source))
    throw new Error(`${layout.dataRoot} holds ${source}, not this workspace's storage image`);
}

async function unmount(layout: WorkspaceLayout, context: DriverContext): Promise<void> {
  const result = await context.run('umount', [layout.dataRoot]);
  if (!result.ok) throw new Error(`cannot unmount ${layout.dataRoot}: ${result.stderr.trim() || 'busy'}`);
}

/**
 * Waits (up to 5 s) for the kernel to detach the image's loop devices after the last unmount
 * (autoclear); the devices still attached then, which someone else still holds. A device
 * attached but mounted nowhere (a crash between attach and mount) is detached.
 */
async function waitForRelease(layout: WorkspaceLayout, context?: DriverContext): Promise<string[]> {
  const deadline = Date.now() + 5000;
  while ((await loopDevicesOf(layout.image)).length > 0 && Date.now() <= deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const attached = await loopDevicesOf(layout.image);
  if (attached.length === 0 || !context) return attached;
  for (const device of attached) await context.run('losetup', ['-d', device]);
  return loopDevicesOf(layout.image);
}

/**
 * Makes sure no loop device holds the image any more before it is mounted afresh: a device
 * still attached belongs to a mount elsewhere; refuse rather than mount a second file system
 * over the same file.
 */
async function releaseImage(layout: WorkspaceLayout, context: DriverContext): Promise<void> {
  if ((await loopDevicesOf(layout.image)).length === 0) return;
  await context.quiesce?.();
  const held = await waitForRelease(layout, context);
  if (held.length > 0) throw new Error(`the storage image is still in use (${held.join(', ')})`);
}

async function remove(layout: WorkspaceLayout, context: DriverContext, live: boolean): Promise<DriverResult> {
  const actions: string[] = [];
  if (await mountAt(layout.dataRoot)) {
    await context.quiesce?.();
    await unmount(layout, context);
    actions.push(`unmounted ${layout.dataRoot}`);
  }
  for (const point of [layout.snapshotsDir, layout.pool]) {
    if (!(await mountAt(point))) continue;
    const result = await context.run('umount', [point]);
    if (!result.ok) throw new Error(`cannot unmount ${point}: ${result.stderr.trim() || 'busy'}`);
    actions.push(`unmounted ${point}`);
  }
  if (live) {
    for (const device of await loopDevicesOf(layout.image)) {
      await context.run('losetup', ['-d', device], { check: true });
      actions.push(`detached ${device}`);
    }
  }
  for (const file of [layout.image, `${layout.image}.new`, layout.snapshotKinds]) {
    if (await exists(file)) {
      await rm(file, { force: true });
      actions.push(`deleted ${file}`);
    }
  }
  return { changed: actions.length > 0, actions, status: { driver: STORAGE_DRIVER, live } };
}

// Up to this many inodes in use the files are counted by walking the tree (folders and homes are
// not files); above it the inode count stands in, where folders are a small share of it.
const WALK_FILES_UP_TO = 10_000;

/**
 * The last walk's count per storage, with the inodes in use when it was taken: a poll whose inode
 * count is the same reuses it (a walk of a few hundred homes costs ~40 ms, a poll should cost ~2).
 */
const walkedFiles = new Map<string, { inodes: number; files: number }>();

async function fileCount(dataRoot: string, inodes: number, key = false): Promise<number> {
  if (!key && inodes > WALK_FILES_UP_TO) return inodes;
  const known = walkedFiles.get(dataRoot);
  if (known?.inodes === inodes) return known.files;
  const tree = await countFiles(dataRoot, key ? 1_000_000 : WALK_FILES_UP_TO);
  if (!tree.complete) return key ? tree.files : inodes;
  walkedFiles.set(dataRoot, { inodes, files: tree.files });
  return tree.files;
}

async function imageFacts(layout: WorkspaceLayout) {
  const fs = await statfs(layout.dataRoot);
  const image = await storageFileSystem(layout.image).catch(() => undefined);
  const usedBlocks = fs.blocks - fs.bfree;
  // btrfs has no inode table (statfs says 0 files): the used blocks stand in as what tells a
  // poll whether the files may have changed since the last walk.
  const inodes = image?.type === 'btrfs' ? usedBlocks : Math.max(0, fs.files - fs.ffree - EXT4_BASE_INODES);
  return {
    disk_used_bytes: usedBlocks * fs.bsize,
    file_count: await fileCount(layout.dataRoot, inodes, image?.type === 'btrfs'),
    // From the superblock of the image, not statfs (which leaves out the file system's overhead).
    ...(image === undefined ? {} : { storage_bytes: image.bytes }),
  };
}

/** A standby's: what its replicas take (no data is mounted, no files are counted). */
async function poolFacts(layout: WorkspaceLayout) {
  const fs = await statfs(layout.pool);
  const image = await storageFileSystem(layout.image).catch(() => undefined);
  return {
    disk_used_bytes: (fs.blocks - fs.bfree) * fs.bsize,
    file_count: 0,
    ...(image === undefined ? {} : { storage_bytes: image.bytes }),
  };
}

async function folderFacts(layout: WorkspaceLayout) {
  if (!(await exists(layout.dataRoot))) return { disk_used_bytes: 0, file_count: 0 };
  const tree = await measureTree(layout.dataRoot);
  return { disk_used_bytes: tree.bytes, file_count: tree.files };
}
