// The API's own files on disk (the embedded PGlite database, the mail folder, secrets.json) are
// the node operator's alone: the data folder and those below it 0700, files 0600. The node's
// daemons run in namespaces that do not show them (agent system/namespace.ts); these modes keep
// them from any other local user too. An existing folder is tightened, not only a new one.
import { chmodSync, mkdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Makes `path` (and missing parents) a folder of mode 0700. */
export function ensurePrivateDirSync(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(path, PRIVATE_DIR_MODE);
}

/** Makes `path` (and missing parents) a folder of mode 0700. */
export async function ensurePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(path, PRIVATE_DIR_MODE);
}
