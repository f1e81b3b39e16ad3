// The finding "daemons see the node's whole root file system", replayed as root against the real
// smbd: in the embedded layout the agent's data folder is `<DATA_DIR>/nodes/local`, beside the
// API's PGlite files, its mail (`.eml` files holding live password-reset links) and secrets.json.
// From inside the workspace's smbd's mount namespace (nsenter) none of them is there any more:
// the data folder's parents are covered (system/namespace.ts hiddenAncestor), only the path down
// to the workspace's own small tree is left. Elsewhere it is skipped with the reason printed.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMBA_SERVER_DEFAULTS, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { runCommand } from './exec/run-command.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import {
  forceCleanWorkspace,
  LIVE_WORKSPACE_PROGRAMS,
  liveSkipReason,
  randomTestAddresses,
  recordedPid,
} from './testing/live.ts';
import { createLivePass } from './testing/live-pass.ts';
import { removeTestNetworks } from './testing/network.ts';
import { workspaceLayout } from './workspace-layout.ts';

const reason = await liveSkipReason('namespace security test', LIVE_WORKSPACE_PROGRAMS);

const B = WORKSPACE_ID_FIRST_BASE;
const SERVICE = `hide-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];

let base: string;
let apiData: string;
let dataDir: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));
const state = () =>
  desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 16 * 1024 * 1024,
    id_base: B,
    users: [desiredUser('alice', B + 1)],
    samba: {
      shares: [desiredShare('projects', { users: [{ name: 'alice', ...perms(true, true) }] })],
      settings: SAMBA_SERVER_DEFAULTS,
    },
  });
const pass = createLivePass({ dataDir: () => dataDir, address: ADDRESS, clientRoutes: [] });

/** A shell command run in smbd's mount namespace. */
const inSmbd = async (script: string) => {
  const pid = await recordedPid(layout().samba.processFile);
  expect(pid).toBeDefined();
  return runCommand('nsenter', [`--target=${pid}`, '--mount', '--', '/bin/sh', '-c', script]);
};

describe.skipIf(reason !== undefined)(
  'live security: a workspace daemon does not see the API’s data beside the agent’s',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      base = await mkdtemp(join(tmpdir(), 'agent-hide-'));
      // The embedded layout: DATA_DIR with the API's files, the agent's data folder inside it.
      apiData = join(base, 'data');
      dataDir = join(apiData, 'nodes', 'local');
      await mkdir(join(apiData, 'mail'), { recursive: true });
      await mkdir(join(apiData, 'db'), { recursive: true });
      await mkdir(dataDir, { recursive: true });
      await writeFile(join(apiData, 'mail', 'ann@example.com--reset.eml'), 'https://x/reset?token=live\n');
      await writeFile(join(apiData, 'db', 'PG_VERSION'), '16\n');
      await writeFile(join(apiData, 'secrets.json'), '{"jwtSecret":"x"}\n');
    });

    afterAll(async () => {
      if (!base || process.env.KEEP_LIVE) return;
      await pass({ ...state(), state: 'removed' }).catch(() => undefined);
      await forceCleanWorkspace(layout());
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(base, { recursive: true, force: true });
    });

    it('smbd’s view holds the path down to its own tree, and no mail, database or secrets', async () => {
      const { report } = await pass(state());
      expect(report.error).toBeUndefined();
      expect(report.drivers.find((driver) => driver.driver === 'samba')).toMatchObject({ serving: true });

      for (const path of [
        join(apiData, 'mail', 'ann@example.com--reset.eml'),
        join(apiData, 'db', 'PG_VERSION'),
        join(apiData, 'secrets.json'),
      ]) {
        const seen = await inSmbd(`test -e '${path}'`);
        expect(seen.exitCode, path).not.toBe(0);
      }
      // Beside the path down to the agent's data folder, nothing of DATA_DIR or its parent.
      expect((await inSmbd(`ls -A '${apiData}'`)).stdout.trim()).toBe('nodes');
      expect((await inSmbd(`ls -A '${base}'`)).stdout.trim()).toBe('data');
      // Its own folders are there; the workspace's storage is at /srv.
      expect(
        (await inSmbd(`test -f '${layout().samba.conf}' && test -d /srv/shares/projects`)).exitCode,
      ).toBe(0);
    });
  },
);
