// A workspace's storage with a hard size limit: a sparse ext4 image, loop-mounted at the
// workspace's data root (workspace-layout.ts). Writing past the size gives ENOSPC, which Samba
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
// Stopped keeps the image mounted (data kept, usage still measured; nothing serves it). Removed
// unmounts, detaches and deletes. Without root or loop devices the data root is a plain folder
// with no limit, and the status says so. Another backend (LVM, ZFS) is another driver with the
// same name and the same data root.
import { open, readFile, rename, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { z } from 'zod';
import { ensureDir } from '../fs/ensure-dir.ts';
import { countFiles, measureTree } from '../fs/measure-tree.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { ext4Size } from '../system/ext4.ts';
import { exists } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import type { Driver, DriverContext, DriverResult } from './driver.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';

export const STORAGE_DRIVER = 'storage';
const BLOCK = 4096;
// A fresh ext4 uses inodes 1–11 (reserved ones and lost+found): they are not the customer's files.
const EXT4_BASE_INODES = 11;
const PROGRAMS = ['losetup', 'mkfs.ext4', 'resize2fs', 'e2fsck', 'mount', 'umount'];
// nosuid/nodev/noexec: the customer's files are data to the host, never programs or devices.
// noinit_itable: do not zero inode tables in the background, which would fill the sparse image.
const DEVICE_MOUNT_OPTIONS = 'nosuid,nodev,noexec,noinit_itable';
const MOUNT_OPTIONS = `loop,${DEVICE_MOUNT_OPTIONS}`;

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
      const mounted = await mountAt(layout.dataRoot);
      if (mounted) return { facts: await imageFacts(layout) };
      // Not mounted: drift only if it ran as an image before (live mode, image present).
      if ((await whyNotLive()) === undefined && (await exists(layout.image)))
        return { drift: 'storage is not mounted' };
      return { facts: await folderFacts(layout) };
    },
  };
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

  if (!(await exists(layout.image))) {
    // Made under another name and renamed when complete, so a crash never leaves a half-made
    // image that a later pass would mount (or format again over data).
    const partial = `${layout.image}.new`;
    await rm(partial, { force: true });
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.truncate(wanted);
    } finally {
      await handle.close();
    }
    await run('mkfs.ext4', [
      '-q',
      '-F',
      '-b',
      String(BLOCK),
      '-m',
      '0',
      '-L',
      'debesis',
      '-E',
      'nodiscard,lazy_itable_init=1,lazy_journal_init=1',
      partial,
    ]);
    await rename(partial, layout.image);
    actions.push(`created a ${wanted}-byte storage image`);
  }

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

interface ResizeProblem {
  reason: string;
  /** The data does not fit the smaller size: not tried again until the wanted size changes. */
  refused: boolean;
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
  const verb = wanted > fsBytes ? 'growing' : 'shrinking';
  const failed = (why: string, refused = false): ResizeProblem => ({
    reason:
      `storage stays ${fsBytes} bytes: ${verb} to ${wanted} bytes ${refused ? 'was refused' : 'failed'}: ${why}`.slice(
        0,
        1000,
      ),
    refused,
  });
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
  if (live) {
    for (const device of await loopDevicesOf(layout.image)) {
      await context.run('losetup', ['-d', device], { check: true });
      actions.push(`detached ${device}`);
    }
  }
  for (const file of [layout.image, `${layout.image}.new`]) {
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

async function fileCount(dataRoot: string, inodes: number): Promise<number> {
  if (inodes > WALK_FILES_UP_TO) return inodes;
  const known = walkedFiles.get(dataRoot);
  if (known?.inodes === inodes) return known.files;
  const tree = await countFiles(dataRoot, WALK_FILES_UP_TO);
  if (!tree.complete) return inodes;
  walkedFiles.set(dataRoot, { inodes, files: tree.files });
  return tree.files;
}

async function imageFacts(layout: WorkspaceLayout) {
  const fs = await statfs(layout.dataRoot);
  const inodes = Math.max(0, fs.files - fs.ffree - EXT4_BASE_INODES);
  return {
    disk_used_bytes: (fs.blocks - fs.bfree) * fs.bsize,
    file_count: await fileCount(layout.dataRoot, inodes),
    // From the superblock of the image, not statfs (which leaves out the file system's overhead).
    ...(await ext4Size(layout.image).then(
      (bytes) => (bytes === undefined ? {} : { storage_bytes: bytes }),
      () => ({}),
    )),
  };
}

async function folderFacts(layout: WorkspaceLayout) {
  if (!(await exists(layout.dataRoot))) return { disk_used_bytes: 0, file_count: 0 };
  const tree = await measureTree(layout.dataRoot);
  return { disk_used_bytes: tree.bytes, file_count: tree.files };
}
