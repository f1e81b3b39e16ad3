// An agent's configuration for tests against the fake API: fast polls, short timeouts and no
// live host changes, so that each test names only the settings it is about.
import type { AgentConfig } from '../config.ts';
import type { FakeApi } from './fake-api.ts';

export function testAgentConfig(
  api: Pick<FakeApi, 'url' | 'registrationToken'>,
  dataDir: string,
  overrides: Partial<AgentConfig> = {},
): AgentConfig {
  return {
    apiUrl: api.url,
    registrationToken: api.registrationToken,
    nodeName: 'test-node',
    dataDir,
    pollIntervalMs: 10,
    addresses: ['127.0.10.1', '127.0.10.2'],
    requestTimeoutMs: 2000,
    maxBackoffMs: 1000,
    fullCheckEvery: 1000,
    liveWorkspaces: false,
    clientRoutes: [],
    smbPort: 445,
    backupConcurrency: 1,
    usageFullScanMs: 6 * 3_600_000,
    replicaIntervalMs: 30_000,
    clientMirrorIntervalMs: 30_000,
    fenceAfterMs: 40_000,
    ...overrides,
  };
}
