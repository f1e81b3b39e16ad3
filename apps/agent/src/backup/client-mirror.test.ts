// The copy of the backup clients' repositories with a fake restic: a push that ends while the copy
// runs makes the copy worthless (it may hold an index naming a pack it missed), so it is forgotten
// at once and the state is not recorded; the next run copies again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.ts';
import {
  clientMirrorPaths,
  mirrorClients,
  readMirrorState,
  type ClientMirrorPaths,
} from './client-mirror.ts';
import type { Restic, ResticResult } from './restic.ts';

const TARGET = { url: 'rest:http://target:8000/x-clients', password: 'k'.repeat(43) };
const ID = 'a'.repeat(64);

let work: string;
let paths: ClientMirrorPaths;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-client-mirror-unit-'));
  paths = clientMirrorPaths(join(work, 'backups', 'x'), join(work, 'backups', 'x', 'clients'));
  await mkdir(join(paths.root, 'laptop', 'snapshots'), { recursive: true });
  await writeFile(paths.restored, 'done\n');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** restic whose backup runs `during` (a push meanwhile) and which records every call. */
function fakeRestic(during: () => Promise<void>) {
  const calls: string[][] = [];
  const ok = (args: readonly string[]): ResticResult => ({
    args,
    exitCode: 0,
    signal: null,
    stderr: '',
    missing: false,
    stopped: undefined,
    ok: true,
    durationMs: 1,
  });
  const restic: Restic = {
    run: (args) => {
      calls.push([...args]);
      return Promise.resolve(ok(args));
    },
    async output(args) {
      calls.push([...args]);
      if (args[0] !== 'backup') return '';
      await during();
      return `${JSON.stringify({ message_type: 'summary', snapshot_id: ID })}\n`;
    },
  };
  return { restic, calls };
}

describe('copying the backup clients’ repositories off the node', () => {
  it('forgets a copy during which a push ended, and copies again the next run', async () => {
    let pushes = 1;
    const { restic, calls } = fakeRestic(async () => {
      if (pushes-- > 0) {
        // The push's snapshot arrives while restic reads the folder (a moment later in ctime).
        await new Promise((resolve) => setTimeout(resolve, 20));
        await writeFile(join(paths.root, 'laptop', 'snapshots', 'b'.repeat(64)), '{}');
      }
    });
    const deps = { paths, restic, target: TARGET, logger: silentLogger };
    expect(await mirrorClients(deps)).toBe(false);
    expect(calls).toContainEqual(['forget', '--', ID]);
    expect(await readMirrorState(paths)).toBeUndefined();

    expect(await mirrorClients(deps)).toBe(true);
    expect((await readMirrorState(paths))?.repositories).toHaveProperty('laptop');
    expect(calls.filter((args) => args[0] === 'backup')).toHaveLength(2);
  });

  it('copies nothing on a node that has not restored yet', async () => {
    await rm(paths.restored);
    const { restic, calls } = fakeRestic(() => Promise.resolve());
    expect(await mirrorClients({ paths, restic, target: TARGET, logger: silentLogger })).toBe(false);
    expect(calls).toEqual([]);
  });
});
