import { lstat, mkdir, readdir, stat, symlink, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { desiredWorkspace } from '../testing/desired.ts';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import { workspaceDir } from '../workspace-paths.ts';
import type { DriverContext } from './driver.ts';
import { workspaceDirDriver } from './workspace-dir.driver.ts';
import { useTempDir } from '../testing/temp-dir.ts';

const dataDir = useTempDir('agent-wsdir-');

const ID = '6f1c3a52-2a7e-4c55-9d5b-0f4f3c1d2e10';
const desired = (state: WorkspaceDesiredState['state'], service_id = ID): WorkspaceDesiredState =>
  desiredWorkspace({ service_id, state });
const context = (serviceId = ID): DriverContext => ({
  dataDir: dataDir(),
  workspaceDir: join(dataDir(), 'workspaces', serviceId),
  logger: silentLogger,
  run: runCommand,
});

describe('workspace-dir driver', () => {
  it('creates <data>/workspaces/<id>/ with mode 0750, and a second run changes nothing', async () => {
    const first = await workspaceDirDriver.apply(desired('running'), context());
    expect(first.changed).toBe(true);
    expect(first.status).toEqual({ driver: 'workspace-dir', live: true });
    const info = await stat(join(dataDir(), 'workspaces', ID));
    expect(info.isDirectory()).toBe(true);
    expect(info.mode & 0o7777).toBe(0o750);

    const second = await workspaceDirDriver.apply(desired('running'), context());
    expect(second).toEqual({ changed: false, actions: [], status: first.status });
  });

  it('keeps the folder and its data when stopped', async () => {
    await workspaceDirDriver.apply(desired('running'), context());
    await writeFile(join(dataDir(), 'workspaces', ID, 'file'), 'data');
    const result = await workspaceDirDriver.apply(desired('stopped'), context());
    expect(result.changed).toBe(false);
    expect(await readdir(join(dataDir(), 'workspaces', ID))).toEqual(['file']);
  });

  it('repairs a wrong mode', async () => {
    await workspaceDirDriver.apply(desired('running'), context());
    await chmod(join(dataDir(), 'workspaces', ID), 0o777);
    const result = await workspaceDirDriver.apply(desired('running'), context());
    expect(result.changed).toBe(true);
    expect((await stat(join(dataDir(), 'workspaces', ID))).mode & 0o7777).toBe(0o750);
  });

  it('removes the folder with everything in it, and removing again is a no-op', async () => {
    await workspaceDirDriver.apply(desired('running'), context());
    await mkdir(join(dataDir(), 'workspaces', ID, 'deep', 'er'), { recursive: true });
    const removed = await workspaceDirDriver.apply(desired('removed'), context());
    expect(removed.changed).toBe(true);
    await expect(lstat(join(dataDir(), 'workspaces', ID))).rejects.toThrow(/ENOENT/);
    expect((await workspaceDirDriver.apply(desired('removed'), context())).changed).toBe(false);
  });

  it('removes a symlink in its place without touching what it points to', async () => {
    const outside = join(dataDir(), 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'keep'), 'x');
    await mkdir(join(dataDir(), 'workspaces'));
    await symlink(outside, join(dataDir(), 'workspaces', ID));
    await expect(workspaceDirDriver.apply(desired('running'), context())).rejects.toThrow(/not a folder/);
    await workspaceDirDriver.apply(desired('removed'), context());
    expect(await readdir(outside)).toEqual(['keep']);
  });

  it.each(['..', '.', '../escape', 'a/b', '/etc', 'a\0b', '', '.hidden', 'x'.repeat(129)])(
    'refuses the service id %j',
    async (serviceId) => {
      await mkdir(join(dataDir(), 'workspaces'));
      await writeFile(join(dataDir(), 'keep'), 'x');
      for (const state of ['running', 'removed'] as const) {
        await expect(workspaceDirDriver.apply(desired(state, serviceId), context(serviceId))).rejects.toThrow(
          /invalid service id/,
        );
      }
      expect((await readdir(dataDir())).sort()).toEqual(['keep', 'workspaces']);
      expect(() => workspaceDir(dataDir(), serviceId)).toThrow(/invalid service id/);
    },
  );

  it('refuses a context whose folder does not belong to the service id', async () => {
    await expect(
      workspaceDirDriver.apply(desired('removed'), { ...context(), workspaceDir: dataDir() }),
    ).rejects.toThrow(/mismatch/);
  });
});
