// The hard quota on what a workspace's backup clients push (issue 37 part 5;
// docs/features/backup-clients.md): their repositories' folder, `<data>/backups/<id>/clients`, is
// an ext4 file system in a sparse image of the quota's size (contract backupClientsQuotaBytes),
// loop-mounted there:
//
//   <data>/backups/<id>/clients.img      0600, the image (sparse: only what clients pushed takes disk)
//   <data>/backups/<id>/clients/         its mount point, the REST server's root
//
// So a push past the quota fails with ENOSPC in rclone, which restic on the client reports, and
// nothing else on the node's disk is touched: the workspace's own storage and backups, the other
// workspaces and the node keep their room. Decisions:
// - ext4, not btrfs: the repositories need no snapshots (restic's are theirs, and append-only keeps
//   them), ext4 holds almost all of its size from a few MiB up (btrfs refuses under 109 MiB and
//   keeps more for itself) and grows online the same way. Made with the storage's own mkfs
//   arguments and mount options (system/ext4.ts).
// - Made when the first client may push (the backup clients' definition runs this in its `sync`,
//   live only, before rclone starts), grown online when the quota grows (losetup -c, resize2fs on
//   the mounted device: the REST server keeps running and sees the room at once), offline where
//   the kernel refuses that (the server stopped for the moment it takes). Never shrunk: a
//   smaller plan would need the server stopped and the repositories checked against the new size,
//   for room the sparse image does not take until clients push; the report gives the size it
//   really has, so the owner sees the limit that holds.
// - Repositories pushed before the quota existed (a plain folder) are moved in once: the folder is
//   renamed aside (`clients.plain`), the image mounted in its place, copied in with `cp -a` and
//   the old folder deleted (renamed `clients.moved` first, so a crash in the middle never deletes
//   what was not copied: `clients.plain` is copied again, `clients.moved` only deleted). When they
//   do not fit, everything is put back as it was and the feature fails with the reason; it is not
//   tried again until the quota changes or the agent restarts.
// - The REST server's namespace binds the folder when it starts (system/namespace.ts, its `keep`),
//   so a server that started before the image was mounted serves the folder beneath: it is stopped
//   before the mount and started again after it by the daemon driver.
// - Removed with the workspace (unmounted, its loop device detached, the image deleted) after the
//   server stopped, before the backups' folder is deleted.
import { open, readdir, rename, rm, rmdir, stat, statfs } from 'node:fs/promises';
import { ensureDir } from '../fs/ensure-dir.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { EXT4_BLOCK, EXT4_IMAGE_MOUNT_OPTIONS, ext4Size, mkfsExt4Args } from '../system/ext4.ts';
import { createSparseImage } from '../system/sparse-image.ts';
import { exists } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';

export interface ClientsQuotaPaths {
  /** The mount point: the repositories' folder. */
  root: string;
  /** The sparse image beside it. */
  image: string;
}

/** The image of the repositories' folder `root` (`<data>/backups/<id>/clients`). */
export const clientsQuotaPaths = (root: string): ClientsQuotaPaths => ({ root, image: `${root}.img` });

const plainAside = (paths: ClientsQuotaPaths) => `${paths.root}.plain`;
const movedAside = (paths: ClientsQuotaPaths) => `${paths.root}.moved`;

/** The quota's size in whole file-system blocks (at least 1 MiB, mkfs.ext4's own floor is lower). */
export const quotaImageBytes = (quotaBytes: number) =>
  Math.max(1024 * 1024, Math.floor(quotaBytes / EXT4_BLOCK) * EXT4_BLOCK);

/** A move of plain repositories that did not fit, by root, with the quota it was tried under. */
const refusedMoves = new Map<string, { bytes: number; reason: string }>();

export interface EnsureQuotaOptions {
  quotaBytes: number;
  run: CommandRunner;
  /** Stops the REST server, so it binds the mounted file system when it starts again. */
  stopServer: () => Promise<string[]>;
}

/**
 * Makes, mounts, fills from a plain folder (once) and grows the clients' quota image. Returns
 * what it did; throws with the reason when it cannot (the feature then fails with it).
 */
export async function ensureClientsQuota(
  paths: ClientsQuotaPaths,
  { quotaBytes, run, stopServer }: EnsureQuotaOptions,
): Promise<string[]> {
  const actions: string[] = [];
  const wanted = quotaImageBytes(quotaBytes);
  const check = (command: string, args: string[]) => run(command, args, { check: true, timeoutMs: 300_000 });

  const refused = refusedMoves.get(paths.root);
  if (refused?.bytes === wanted) throw new Error(refused.reason);
  refusedMoves.delete(paths.root);

  if (!(await exists(paths.image))) {
    await createSparseImage(paths.image, wanted, (partial) => check('mkfs.ext4', mkfsExt4Args(partial)));
    actions.push(`created the backup clients' ${wanted}-byte quota image ${paths.image}`);
  }

  let mounted = await mountAt(paths.root);
  if (mounted && !(await loopDevicesOf(paths.image)).includes(mounted.source))
    throw new Error(`${paths.root} holds ${mounted.source}, not the backup clients' quota image`);
  if (!mounted) {
    actions.push(...(await stopServer()));
    await ensureDir(paths.root, { mode: 0o700, uid: 0, gid: 0 });
    // Repositories in the plain folder (pushed before the quota): aside, to be copied in below.
    if ((await readdir(paths.root)).length > 0 && !(await exists(plainAside(paths)))) {
      await rename(paths.root, plainAside(paths));
      await ensureDir(paths.root, { mode: 0o700, uid: 0, gid: 0 });
    }
    await check('mount', ['-t', 'ext4', '-o', `loop,${EXT4_IMAGE_MOUNT_OPTIONS}`, paths.image, paths.root]);
    actions.push(`mounted the backup clients' quota image at ${paths.root}`);
    mounted = await mountAt(paths.root);
    if (!mounted) throw new Error(`${paths.root} is not mounted after mount`);
  }

  if (await exists(plainAside(paths))) {
    actions.push(...(await stopServer()));
    const copied = await run('cp', ['-a', '--', `${plainAside(paths)}/.`, `${paths.root}/`], {
      timeoutMs: 3_600_000,
    });
    if (!copied.ok) {
      // They do not fit (or the copy failed otherwise): as it was, a plain folder without a limit.
      const reason = `the backup clients' repositories do not fit their ${wanted}-byte quota: ${
        copied.stderr.trim().split('\n').at(-1) ?? `cp exited ${copied.exitCode}`
      }`.slice(0, 1000);
      await stopServer();
      await check('umount', [paths.root]);
      await rmdir(paths.root);
      await rename(plainAside(paths), paths.root);
      await rm(paths.image, { force: true });
      refusedMoves.set(paths.root, { bytes: wanted, reason });
      throw new Error(reason);
    }
    await rename(plainAside(paths), movedAside(paths));
    actions.push(`moved the backup clients' repositories into their quota image`);
  }
  if (await exists(movedAside(paths))) await rm(movedAside(paths), { recursive: true, force: true });

  const fsBytes = (await ext4Size(paths.image)) ?? 0;
  if (wanted > fsBytes) {
    // Growing the file keeps it sparse; the mounted file system grows online.
    if ((await stat(paths.image)).size < wanted) {
      const handle = await open(paths.image, 'r+');
      try {
        await handle.truncate(wanted);
      } finally {
        await handle.close();
      }
    }
    // Online when the kernel allows it; it refuses without CAP_SYS_RESOURCE (as in some
    // containers): then offline, with the REST server stopped for the moment it takes (a push
    // under way fails, restic on the client says so and the next one goes on).
    const refreshed = await run('losetup', ['-c', mounted.source]);
    const online = refreshed.ok && (await run('resize2fs', [mounted.source], { timeoutMs: 300_000 })).ok;
    if (!online) await growOffline(paths, { run, stopServer }, actions);
    actions.push(
      `grew the backup clients' quota from ${fsBytes} to ${wanted} bytes${online ? '' : ' (offline)'}`,
    );
  }
  return actions;
}

/** The quota's file system grown unmounted: server stopped, unmounted, checked, resized, mounted again. */
async function growOffline(
  paths: ClientsQuotaPaths,
  { run, stopServer }: Pick<EnsureQuotaOptions, 'run' | 'stopServer'>,
  actions: string[],
): Promise<void> {
  const check = (command: string, args: string[]) => run(command, args, { check: true, timeoutMs: 600_000 });
  actions.push(...(await stopServer()));
  await check('umount', [paths.root]);
  try {
    await waitForRelease(paths);
    const held = await loopDevicesOf(paths.image);
    if (held.length > 0)
      throw new Error(`the backup clients' quota image is still in use (${held.join(', ')})`);
    // e2fsck exits 1 when it fixed something, which is fine; 4 and above are real problems.
    const fsck = await run('e2fsck', ['-f', '-p', paths.image], { timeoutMs: 600_000 });
    if (fsck.exitCode === null || fsck.exitCode >= 4)
      throw new Error(
        `e2fsck of the backup clients' quota image: ${fsck.stderr.trim() || fsck.stdout.trim()}`,
      );
    await check('resize2fs', [paths.image]);
  } finally {
    // Mounted again whatever happened, at the size it has: the clients push on meanwhile.
    await check('mount', ['-t', 'ext4', '-o', `loop,${EXT4_IMAGE_MOUNT_OPTIONS}`, paths.image, paths.root]);
  }
}

/** Waits (up to 5 s) for the kernel's autoclear to detach the image's loop devices after an unmount. */
async function waitForRelease(paths: ClientsQuotaPaths): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await loopDevicesOf(paths.image)).length > 0 && Date.now() <= deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The quota as the report tells it, or null when the folder is no quota image (plain). */
export async function clientsQuotaReport(
  paths: ClientsQuotaPaths,
): Promise<{ bytes: number; used_bytes: number } | null> {
  if (!(await mountAt(paths.root))) return null;
  const bytes = await ext4Size(paths.image).catch(() => undefined);
  if (bytes === undefined) return null;
  const fs = await statfs(paths.root);
  return { bytes, used_bytes: Math.max(0, bytes - fs.bavail * fs.bsize) };
}

/**
 * A removed workspace: unmounts the image, detaches its loop device (waiting up to 5 s for the
 * kernel's autoclear after the REST server's namespace went) and deletes it. The repositories'
 * folder itself goes with the backups' folder.
 */
export async function removeClientsQuota(paths: ClientsQuotaPaths, run: CommandRunner): Promise<string[]> {
  const actions: string[] = [];
  if (await mountAt(paths.root)) {
    await run('umount', [paths.root], { check: true });
    actions.push(`unmounted the backup clients' quota image at ${paths.root}`);
  }
  await waitForRelease(paths);
  for (const device of await loopDevicesOf(paths.image)) {
    await run('losetup', ['-d', device], { check: true });
    actions.push(`detached ${device}`);
  }
  for (const file of [paths.image, `${paths.image}.new`]) {
    if (!(await exists(file))) continue;
    await rm(file, { force: true });
    actions.push(`deleted ${file}`);
  }
  return actions;
}
