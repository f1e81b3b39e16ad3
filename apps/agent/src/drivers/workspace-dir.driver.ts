// The workspace's storage folder, `<dataDir>/workspaces/<service_id>/` (mode 0750): the root that
// every later driver builds under. Present while the workspace is running or stopped (stopping
// keeps the data); deleted with everything in it when the workspace is removed, and with it the
// workspace's runtime folder (its daemons' sockets and lock files, workspace-paths.ts).
import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import type { Driver, DriverContext, DriverResult } from './driver.ts';
import { workspaceDir, workspaceRuntimeDir, workspacesRoot } from '../workspace-paths.ts';
import type { WorkspaceDesiredState } from '@debesis/contract';

export const WORKSPACE_DIR_MODE = 0o750;

export const workspaceDirDriver: Driver = {
  name: 'workspace-dir',
  phase: 'folder',
  // A standby's storage lives in the folder too.
  standby: true,
  async apply(desired: WorkspaceDesiredState, context: DriverContext): Promise<DriverResult> {
    // Checked again here, not only by the caller: this driver is the one that deletes folders.
    const dir = workspaceDir(context.dataDir, desired.service_id);
    if (dir !== context.workspaceDir) throw new Error(`workspace folder mismatch for ${desired.service_id}`);
    const status = { driver: 'workspace-dir', live: true };

    switch (desired.state) {
      case 'running':
      case 'stopped': {
        const actions: string[] = [];
        await mkdir(workspacesRoot(context.dataDir), { recursive: true, mode: WORKSPACE_DIR_MODE });
        let current = await lstatOrUndefined(dir);
        if (!current) {
          await mkdir(dir, { mode: WORKSPACE_DIR_MODE });
          actions.push(`created ${dir}`);
          current = await lstat(dir);
        }
        if (!current.isDirectory()) throw new Error(`${dir} exists and is not a folder`);
        // mkdir's mode passes through the umask; the folder must be exactly 0750.
        if ((current.mode & 0o7777) !== WORKSPACE_DIR_MODE) {
          await chmod(dir, WORKSPACE_DIR_MODE);
          if (actions.length === 0) actions.push(`set mode 0750 on ${dir}`);
        }
        return { changed: actions.length > 0, actions, status };
      }
      case 'removed': {
        const runtime = workspaceRuntimeDir(desired.service_id);
        const hadRuntime = (await lstatOrUndefined(runtime)) !== undefined;
        if (hadRuntime) await rm(runtime, { recursive: true, force: true });
        if (!(await lstatOrUndefined(dir)))
          return hadRuntime
            ? { changed: true, actions: [`removed ${runtime}`], status }
            : { changed: false, actions: [], status };
        // On a symlink, rm removes the link, never what it points to.
        await rm(dir, { recursive: true, force: true });
        return { changed: true, actions: [`removed ${dir}`], status };
      }
    }
  },
};

async function lstatOrUndefined(path: string) {
  return lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}
