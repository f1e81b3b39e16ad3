// The network driver runs live only on a host with both its programs: ip, and tc for the
// bandwidth throttle. The host is stood in for: root, with every program but tc.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { createNetworkDriver } from './network.driver.ts';
import type * as host from '../system/host.ts';

vi.mock('../system/host.ts', async (original) => ({
  ...(await original<typeof host>()),
  isRoot: () => true,
  firstMissingProgram: (names: readonly string[]) => Promise.resolve(names.find((name) => name === 'tc')),
}));

describe('network driver on a host without tc', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'debesis-net-live-mode-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is not live and says tc is missing, running nothing', async () => {
    const run = vi.fn(() => Promise.reject(new Error('no program runs here')));
    const driver = createNetworkDriver({ addressPool: ['198.18.0.1'] });
    const desired = desiredWorkspace({
      service_id: 'svc-no-tc',
      address: '198.18.0.1',
      bandwidth_throttled: true,
    });
    const result = await driver.apply(desired, {
      dataDir,
      workspaceDir: join(dataDir, 'ws'),
      logger: silentLogger,
      run,
    });
    expect(result.status).toEqual({
      driver: 'network',
      live: false,
      reason: 'tc is not installed: 198.18.0.1 gets no network namespace',
    });
    expect(run).not.toHaveBeenCalled();
  });
});
