// Files a daemon writes when what the agent reports of it has changed (a VPN client came or went:
// DaemonDefinition.wakeOn). The agent watches each with inotify (fs.watch on its folder) and asks
// for a pass at once, so the dashboard sees a new session within a second instead of at the next
// poll. The set follows the workspaces as applied: `sync` after every pass adds and drops watches.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from './logger.ts';

export interface WakeFiles {
  /** Watches exactly these files from now on. */
  sync(files: ReadonlySet<string>): void;
  close(): void;
}

export function createWakeFiles(onChange: () => void, logger: Logger): WakeFiles {
  const watching = new Map<string, FSWatcher>();
  return {
    sync(files) {
      for (const [file, watcher] of watching) {
        if (files.has(file)) continue;
        watcher.close();
        watching.delete(file);
      }
      for (const file of files) {
        if (watching.has(file)) continue;
        const name = basename(file);
        try {
          // The folder, not the file: the file may not exist yet, and a daemon may replace it.
          const watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
            if (changed === name) onChange();
          });
          watcher.on('error', () => {
            watcher.close();
            watching.delete(file);
          });
          watching.set(file, watcher);
        } catch (error) {
          // The folder is not there yet (the feature is being set up): tried again after the next pass.
          logger.debug({ err: error, file }, 'cannot watch a wake file yet');
        }
      }
    },
    close() {
      for (const watcher of watching.values()) watcher.close();
      watching.clear();
    },
  };
}
