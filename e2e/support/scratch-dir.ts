// A journey's own folder for the files its clients write and read, removed when its describe
// block ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A new folder named from `prefix` under the system's temporary folder, gone after the block. */
export function useScratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
