import { describe, expect, it } from 'vitest';
import { AgentConfigError, loadAgentConfig, nodeNameFromHostname } from './config.ts';

const base = {
  AGENT_API_URL: 'http://127.0.0.1:3000',
  AGENT_REGISTRATION_TOKEN: 'reg-token',
  AGENT_DATA_DIR: 'data/nodes/local',
};

describe('loadAgentConfig', () => {
  it('applies the defaults', () => {
    const config = loadAgentConfig(base);
    expect(config).toMatchObject({
      apiUrl: 'http://127.0.0.1:3000',
      registrationToken: 'reg-token',
      pollIntervalMs: 5000,
      requestTimeoutMs: 10_000,
      maxBackoffMs: 60_000,
      fullCheckEvery: 60,
      workspaceDeadlineMs: 120_000,
      workspaceConcurrency: 1,
      heartbeatMs: 20_000,
      liveWorkspaces: true,
      smbPort: 445,
      backupConcurrency: 1,
      usageFullScanMs: 6 * 3_600_000,
      replicaIntervalMs: 30_000,
      clientMirrorIntervalMs: 30_000,
      fenceAfterMs: 40_000,
    });
    expect(config.instance).toBeUndefined();
    expect(config.dataDir).toMatch(/^\/.*data\/nodes\/local$/);
    expect(config.addresses).toHaveLength(254);
    expect(config.clientRoutes).toEqual([]);
    expect(config.nodeName).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  });

  it('reads every variable', () => {
    const config = loadAgentConfig({
      ...base,
      AGENT_NODE_NAME: 'node-1',
      AGENT_POLL_INTERVAL_MS: '250',
      AGENT_ADDRESS_POOL: '10.0.0.1,10.0.0.2',
      AGENT_REQUEST_TIMEOUT_MS: '2000',
      AGENT_MAX_BACKOFF_MS: '1000',
      AGENT_FULL_CHECK_EVERY: '5',
      AGENT_WORKSPACE_DEADLINE_MS: '30000',
      AGENT_WORKSPACE_CONCURRENCY: '2',
      AGENT_HEARTBEAT_MS: '7000',
      AGENT_LIVE_WORKSPACES: 'off',
      AGENT_SMB_PORT: '10445',
      AGENT_BACKUP_CONCURRENCY: '3',
      AGENT_USAGE_FULL_SCAN_HOURS: '12',
      AGENT_CLIENT_ROUTES: ' 192.0.2.7/24, 0.0.0.0/0 ',
      AGENT_REPLICA_INTERVAL_MS: '500',
      AGENT_FENCE_AFTER_MS: '3000',
      AGENT_INSTANCE: 'node-b',
    });
    expect(config).toMatchObject({
      nodeName: 'node-1',
      pollIntervalMs: 250,
      addresses: ['10.0.0.1', '10.0.0.2'],
      requestTimeoutMs: 2000,
      maxBackoffMs: 1000,
      fullCheckEvery: 5,
      workspaceDeadlineMs: 30_000,
      workspaceConcurrency: 2,
      heartbeatMs: 7000,
      liveWorkspaces: false,
      smbPort: 10_445,
      backupConcurrency: 3,
      usageFullScanMs: 12 * 3_600_000,
      clientRoutes: ['0.0.0.0/0', '192.0.2.0/24'],
      replicaIntervalMs: 500,
      clientMirrorIntervalMs: 30_000,
      fenceAfterMs: 3000,
      instance: 'node-b',
    });
  });

  it('refuses an instance name that is not short lowercase letters, digits and "-"', () => {
    for (const name of ['Node', 'a_b', 'x'.repeat(21)])
      expect(() => loadAgentConfig({ ...base, AGENT_INSTANCE: name })).toThrow(/AGENT_INSTANCE/);
  });

  it('refuses client routes that are no CIDR block or lie inside the pool', () => {
    for (const [routes, problem] of [
      ['10.1.0.0', '"10.1.0.0" is not an IPv4 CIDR block'],
      ['10.1.0.0/33', '"10.1.0.0/33" is not an IPv4 CIDR block'],
      ['198.18.0.8/29', 'client route 198.18.0.8/29 lies inside the address pool'],
    ])
      expect(() => loadAgentConfig({ ...base, AGENT_CLIENT_ROUTES: routes })).toThrow(
        `AGENT_CLIENT_ROUTES: ${problem}`,
      );
  });

  it('names every wrong variable at once', () => {
    let error: unknown;
    try {
      loadAgentConfig({
        AGENT_API_URL: 'ftp://x',
        AGENT_NODE_NAME: 'Bad Name',
        AGENT_POLL_INTERVAL_MS: 'soon',
        AGENT_ADDRESS_POOL: '1.2.3',
        AGENT_REGISTRATION_TOKEN: '   ',
        AGENT_LIVE_WORKSPACES: 'yes',
        AGENT_BACKUP_CONCURRENCY: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentConfigError);
    const problems = (error as AgentConfigError).problems.join('\n');
    expect(problems).toContain('AGENT_API_URL: must be an http:// or https:// URL');
    // Optional: a node with its node token needs no enrollment token.
    expect(problems).not.toContain('AGENT_REGISTRATION_TOKEN');
    expect(problems).toContain('AGENT_DATA_DIR: required');
    expect(problems).toContain('AGENT_NODE_NAME: must be lowercase');
    expect(problems).toContain('AGENT_POLL_INTERVAL_MS: must be a whole number');
    expect(problems).toContain('AGENT_ADDRESS_POOL: "1.2.3" is not an IP address');
    expect(problems).toContain('AGENT_LIVE_WORKSPACES: must be auto or off');
    expect(problems).toContain('AGENT_BACKUP_CONCURRENCY: must be at least 1');
  });
});

describe('nodeNameFromHostname', () => {
  it('makes a valid node name', () => {
    expect(nodeNameFromHostname('Box_1.Example.COM')).toBe('box-1-example-com');
    expect(nodeNameFromHostname('--x--')).toBe('x');
    expect(nodeNameFromHostname('___')).toBe('node');
    expect(nodeNameFromHostname('a'.repeat(80))).toHaveLength(63);
  });
});
