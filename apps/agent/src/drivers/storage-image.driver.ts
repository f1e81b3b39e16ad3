// A workspace's storage with a hard size limit: a sparse ext4 image, loop-mounted at the
// workspace's data root (workspace-layout.ts). Writing past the size gives ENOSPC, which Samba
// turns into NT_STATUS_DISK_FULL. The image grows with storage_bytes (resize2fs, online when the
// kernel allows it, else offline with the workspace's daemons stopped for the moment it takes);
// it is never shrunk: the API refuses a size below usage, and shrinking ext4 needs the file
// system offline, so a smaller size is reported and left for an operator.
//
// Stopped keeps the image mounted (data kept, usage still measured; nothing serves it). Removed
// unmounts, detaches and deletes. Without root or loop devices the data root is a plain folder
// with no limit, and the status says so. Another backend (LVM, ZFS) is another driver with the
// same name and the same data root.
import { open, rename, rm, stat, statfs } from 'node:fs/promises';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { ensureDir } from '../fs/ensure-dir.ts';
import { measureTree } from '../fs/measure-tree.ts';
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
const MOUNT_OPTIONS = 'loop,nosuid,nodev,noexec,noinit_itable';

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
  let status: DriverResult['status'] = { driver: STORAGE_DRIVER, live: true };
  if (wanted > fsBytes) {
    if ((await stat(layout.image)).size < wanted) {
      // Growing the file keeps it sparse: only written blocks take disk space.
      const handle = await open(layout.image, 'r+');
      try {
        await handle.truncate(wanted);
      } finally {
        await handle.close();
      }
    }
    let grown = false;
    if (mounted) {
      // Online: tell the loop device its file grew, then grow the mounted file system. The kernel
      // refuses this without CAP_SYS_RESOURCE (as in some containers): then offline below.
      const refreshed = await context.run('losetup', ['-c', mounted.source]);
      grown = refreshed.ok && (await context.run('resize2fs', [mounted.source], { timeoutMs: 300_000 })).ok;
      if (!grown) {
        await context.quiesce?.();
        await unmount(layout, context);
        mounted = undefined;
      }
    }
    if (!grown) {
      await releaseImage(layout, context);
      // e2fsck exits 1 when it fixed something, which is fine; 4 and above are real problems.
      const check = await context.run('e2fsck', ['-f', '-p', layout.image], { timeoutMs: 600_000 });
      if (check.exitCode === null || check.exitCode >= 4)
        throw new Error(`e2fsck: ${check.stderr.trim() || check.stdout.trim()}`);
      await run('resize2fs', [layout.image]);
    }
    actions.push(`grew storage from ${fsBytes} to ${wanted} bytes${grown ? '' : ' (offline)'}`);
  } else if (wanted < fsBytes) {
    status = {
      driver: STORAGE_DRIVER,
      live: true,
      reason: `storage stays ${fsBytes} bytes: shrinking to ${wanted} is not done automatically`,
    };
  }

  if (!mounted) {
    await releaseImage(layout, context);
    await run('mount', ['-t', 'ext4', '-o', MOUNT_OPTIONS, layout.image, layout.dataRoot]);
    actions.push(`mounted storage at ${layout.dataRoot}`);
  }
  return { changed: actions.length > 0, actions, status, facts: await imageFacts(layout) };
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
 * Makes sure no loop device holds the image any more before it is checked, resized or mounted
 * afresh. A device still attached after our unmount belongs to a mount elsewhere (a daemon's
 * namespace): stop the daemons, wait for the kernel's auto-detach, and refuse rather than touch
 * a file system in use.
 */
async function releaseImage(layout: WorkspaceLayout, context: DriverContext): Promise<void> {
  if ((await loopDevicesOf(layout.image)).length === 0) return;
  await context.quiesce?.();
  const deadline = Date.now() + 5000;
  while ((await loopDevicesOf(layout.image)).length > 0) {
    if (Date.now() > deadline) {
      // Attached but mounted nowhere (a crash between attach and mount): detach it.
      for (const device of await loopDevicesOf(layout.image)) await context.run('losetup', ['-d', device]);
      if ((await loopDevicesOf(layout.image)).length > 0)
        throw new Error(
          `the storage image is still in use (${(await loopDevicesOf(layout.image)).join(', ')})`,
        );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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

async function imageFacts(layout: WorkspaceLayout) {
  const fs = await statfs(layout.dataRoot);
  return {
    disk_used_bytes: (fs.blocks - fs.bfree) * fs.bsize,
    file_count: Math.max(0, fs.files - fs.ffree - EXT4_BASE_INODES),
  };
}

async function folderFacts(layout: WorkspaceLayout) {
  if (!(await exists(layout.dataRoot))) return { disk_used_bytes: 0, file_count: 0 };
  const tree = await measureTree(layout.dataRoot);
  return { disk_used_bytes: tree.bytes, file_count: tree.files };
}
