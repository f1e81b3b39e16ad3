// A written wake file asks for a pass; one no longer synced, or in another folder, does not.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './logger.ts';
import { createWakeFiles } from './wake-files.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('wake files', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('calls back when a watched file is written, not for its neighbours or after it is dropped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wake-'));
    dirs.push(dir);
    let wakes = 0;
    const files = createWakeFiles(() => (wakes += 1), silentLogger);
    const file = join(dir, 'sessions-changed');
    // A folder that does not exist yet is skipped without a throw.
    files.sync(new Set([file, join(dir, 'missing', 'sessions-changed')]));
    await writeFile(join(dir, 'users'), 'alice\n');
    await settle();
    expect(wakes).toBe(0);
    await writeFile(file, '1\n');
    await settle();
    expect(wakes).toBeGreaterThan(0);
    files.sync(new Set());
    const before = wakes;
    await writeFile(file, '2\n');
    await settle();
    expect(wakes).toBe(before);
    files.close();
  });
});
