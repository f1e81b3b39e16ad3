// A share link's bytes when the storage node is a process of its own (issue 19, acceptance 2):
// the product runs the API and the worker only (ROLES=api,worker), and an agent started apart —
// its own data folder, enrolled with the registration token, as on another host — holds the
// workspace. The owner picks a file through the storage browser, and curl downloads it through
// the link whole, by a range, and the folder as a zip: every byte comes up from the agent's
// process through the API. (Plain-folder storage, AGENT_LIVE_WORKSPACES=off: no root needed; the
// live journey proves the same on a real disk image.)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink, StorageListing } from '@debesis/contract';
import { createVerifiedAccounts, signInTokens } from '../scripts/lib/accounts.ts';
import { ROOT, startProduct, type RunningServer } from '../scripts/lib/processes.ts';
import {
  buyWorkspace,
  cheapestPlan,
  customerApi,
  json,
  terminateWorkspace,
  type BoughtWorkspace,
  type CustomerApi,
} from '../scripts/lib/workspace-api.ts';

const REGISTRATION_TOKEN = 'standalone-share-links-registration-token';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function curl(url: string, out: string, args: string[] = []): number {
  return Number(
    execFileSync('curl', ['-s', '-o', out, '-w', '%{http_code}', ...args, url], {
      encoding: 'utf8',
      timeout: 60_000,
    }).trim(),
  );
}

const unzipMissing = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v curl && command -v unzip'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'curl or unzip is not installed';
  }
})();
if (unzipMissing) console.warn(`[e2e] standalone share links skipped: ${unzipMissing}`);

describe.skipIf(unzipMissing !== undefined)(
  'share links with a standalone agent',
  { shuffle: false, timeout: 120_000 },
  () => {
    let product: RunningServer | undefined;
    let agent: ChildProcess | undefined;
    let api: CustomerApi | undefined;
    let workspace: BoughtWorkspace | undefined;
    const dir = mkdtempSync(join(tmpdir(), 'share-links-standalone-'));
    const agentData = join(dir, 'agent');
    const photo = randomBytes(2 * 1024 * 1024 + 3);

    beforeAll(async () => {
      product = await startProduct({ ROLES: 'api,worker', NODE_REGISTRATION_TOKEN: REGISTRATION_TOKEN });
      agent = spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          AGENT_API_URL: product.url,
          AGENT_REGISTRATION_TOKEN: REGISTRATION_TOKEN,
          AGENT_NODE_NAME: 'standalone-node-1',
          AGENT_DATA_DIR: agentData,
          AGENT_POLL_INTERVAL_MS: '500',
          AGENT_LIVE_WORKSPACES: 'off',
          AGENT_LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const [email = ''] = await createVerifiedAccounts(product.url, product.dataDir, 1);
      api = await customerApi(product.url, (await signInTokens(product.url, email)).access_token);
      workspace = await buyWorkspace(api, (await cheapestPlan(product.url)).order, 'standalone-share', {
        withinMs: 60_000,
      });
      // The customer's files, in the standalone node's own data folder (nothing of them is in the product's).
      const folder = join(agentData, 'workspaces', workspace.id, 'data', 'home', 'photos');
      mkdirSync(join(folder, 'summer'), { recursive: true });
      writeFileSync(join(folder, 'summer', 'beach.jpg'), photo);
      writeFileSync(join(folder, 'list.txt'), 'beach.jpg\n');
    }, 150_000);

    afterAll(async () => {
      if (api && workspace) await terminateWorkspace(api, workspace.id).catch(() => undefined);
      if (agent && agent.exitCode === null) {
        const exited = new Promise((resolve) => agent?.once('exit', resolve));
        agent.kill('SIGTERM');
        await exited;
      }
      await product?.stop();
      rmSync(dir, { recursive: true, force: true });
    }, 90_000);

    it('downloads through the link what the standalone node holds: whole, a range, and a zip', async () => {
      if (!api || !workspace || !product) throw new Error('not set up');
      expect(existsSync(join(product.dataDir, 'nodes'))).toBe(false);
      const browse = await json<StorageListing>(
        await api.get(`/shares/${workspace.id}/storage?path=home%2Fphotos`),
        'storage browse',
      );
      expect(browse.entries.map((entry) => [entry.name, entry.type])).toEqual([
        ['summer', 'folder'],
        ['list.txt', 'file'],
      ]);
      const link = await json<ShareLink>(
        await api.send('POST', `/shares/${workspace.id}/shares`, {
          type: 'path',
          target: 'home/photos',
          expiry: '1h',
        }),
        'create link',
      );
      const token = (link.url ?? '').split('/s/')[1] ?? '';
      const download = (path: string) =>
        `${product?.url}/api/v1/public/shares/${token}/download?path=${encodeURIComponent(path)}`;

      const whole = join(dir, 'beach.jpg');
      expect(curl(download('summer/beach.jpg'), whole)).toBe(200);
      expect(sha256(readFileSync(whole))).toBe(sha256(photo));
      const part = join(dir, 'part');
      expect(curl(download('summer/beach.jpg'), part, ['-r', '-1000'])).toBe(206);
      expect(readFileSync(part).equals(photo.subarray(photo.length - 1000))).toBe(true);

      const zip = join(dir, 'photos.zip');
      expect(curl(download(''), zip)).toBe(200);
      execFileSync('unzip', ['-q', zip, '-d', join(dir, 'unzipped')]);
      expect(sha256(readFileSync(join(dir, 'unzipped', 'photos', 'summer', 'beach.jpg')))).toBe(
        sha256(photo),
      );
      expect(readFileSync(join(dir, 'unzipped', 'photos', 'list.txt'), 'utf8')).toBe('beach.jpg\n');
    });
  },
);
