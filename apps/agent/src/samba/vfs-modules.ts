// Whether this host's smbd has the full_audit VFS module (Debian ships it in samba-vfs-modules,
// not in samba): asked once per agent, since a share naming a module smbd cannot load does not
// open at all. Where it is missing, shares run without recording their file operations.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandRunner } from '../exec/run-command.ts';

let available: Promise<boolean> | undefined;

async function probe(run: CommandRunner): Promise<boolean> {
  try {
    const { stdout } = await run('smbd', ['-b'], { check: true });
    const dir = /^\s*MODULESDIR:\s*(\S+)\s*$/m.exec(stdout)?.[1];
    if (!dir) return false;
    await access(join(dir, 'vfs', 'full_audit.so'));
    return true;
  } catch {
    return false;
  }
}

export function fullAuditAvailable(run: CommandRunner): Promise<boolean> {
  available ??= probe(run);
  return available;
}
