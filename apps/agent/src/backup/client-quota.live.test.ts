// The backup clients' quota image on its own, as root (backup/client-quota.ts): repositories of a
// plain folder are moved in once; ones that do not fit are put back as they were and the move is
// not tried again until the quota changes; a move cut short (a crash) is copied again, never
// deleted uncopied; a write past the quota fails with ENOSPC; removal leaves nothing. The end to
// end push through rclone and restic is in backup-clients.live.test.ts. Elsewhere it is skipped.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { exists } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';
import { liveSkipReason } from '../testing/live.ts';
import {
  clientsQuotaPaths,
  clientsQuotaReport,
  ensureClientsQuota,
  removeClientsQuota,
} from './client-quota.ts';

const reason = await liveSkipReason('backup clients quota test', [
  'losetup',
  'mkfs.ext4',
  'resize2fs',
  'e2fsck',
  'mount',
  'umount',
  'cp',
]);

const MIB = 1024 * 1024;

describe.skipIf(reason !== undefined)(
  'backup clients’ quota image (root, loop devices)',
  // One story in order: each step starts from what the one before left.
  { shuffle: false, timeout: 60_000 },
  () => {
    let dir: string;
    let stops = 0;
    const stopServer = () => {
      stops += 1;
      return Promise.resolve([]);
    };
    const paths = () => clientsQuotaPaths(join(dir, 'clients'));
    const ensure = (quotaBytes: number) =>
      ensureClientsQuota(paths(), { quotaBytes, run: runCommand, stopServer });

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'agent-client-quota-'));
    });

    afterAll(async () => {
      if (!dir) return;
      await removeClientsQuota(paths(), runCommand).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });

    it('repositories that do not fit stay as they were; the move is not tried again at the same quota', async () => {
      await mkdir(join(paths().root, 'office', 'data'), { recursive: true });
      await writeFile(join(paths().root, 'office', 'data', 'pack'), randomBytes(12 * MIB));
      await expect(ensure(8 * MIB)).rejects.toThrow(/do not fit their 8388608-byte quota/);
      expect(await mountAt(paths().root)).toBeUndefined();
      expect(await exists(paths().image)).toBe(false);
      expect(await exists(`${paths().root}.plain`)).toBe(false);
      expect((await readFile(join(paths().root, 'office', 'data', 'pack'))).length).toBe(12 * MIB);
      // Refused at once, nothing made again.
      await expect(ensure(8 * MIB)).rejects.toThrow(/do not fit/);
      expect(await exists(paths().image)).toBe(false);
    });

    it('with a quota they fit, they are moved in once and the server is stopped for it', async () => {
      stops = 0;
      const actions = await ensure(32 * MIB);
      expect(actions).toContain("moved the backup clients' repositories into their quota image");
      expect(stops).toBeGreaterThan(0);
      expect(await mountAt(paths().root)).toBeDefined();
      expect((await readFile(join(paths().root, 'office', 'data', 'pack'))).length).toBe(12 * MIB);
      expect(await exists(`${paths().root}.plain`)).toBe(false);
      expect(await exists(`${paths().root}.moved`)).toBe(false);
      // Again: nothing to do.
      stops = 0;
      expect(await ensure(32 * MIB)).toEqual([]);
      expect(stops).toBe(0);
      const quota = await clientsQuotaReport(paths());
      expect(quota?.bytes).toBe(32 * MIB);
      expect(quota!.used_bytes).toBeGreaterThan(12 * MIB);
    });

    it('a write past the quota fails with ENOSPC', async () => {
      await expect(
        writeFile(join(paths().root, 'office', 'data', 'more'), randomBytes(32 * MIB)),
      ).rejects.toThrow(/ENOSPC/);
      await rm(join(paths().root, 'office', 'data', 'more'), { force: true });
    });

    it('a move cut short is copied again, not deleted', async () => {
      // As a crash between the mount and the copy's end leaves it: the old folder still aside.
      await mkdir(join(dir, 'aside', 'laptop'), { recursive: true });
      await writeFile(join(dir, 'aside', 'laptop', 'config'), 'laptop\n');
      await rename(join(dir, 'aside'), `${paths().root}.plain`);
      const actions = await ensure(32 * MIB);
      expect(actions).toContain("moved the backup clients' repositories into their quota image");
      expect(await readFile(join(paths().root, 'laptop', 'config'), 'utf8')).toBe('laptop\n');
      expect(await exists(`${paths().root}.plain`)).toBe(false);
    });

    it('removal unmounts, detaches and deletes the image', async () => {
      const image = paths().image;
      const actions = await removeClientsQuota(paths(), runCommand);
      expect(actions).toContain(`deleted ${image}`);
      expect(await mountAt(paths().root)).toBeUndefined();
      expect(await loopDevicesOf(image)).toEqual([]);
      expect(await exists(image)).toBe(false);
    });
  },
);
