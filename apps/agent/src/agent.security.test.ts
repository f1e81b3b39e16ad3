// Issue 12, point 5, on the node's side: whoever controls the desired state (a control plane
// taken over, a node identity stolen) must not make the agent configure an address that is not
// the node's own, and the agent's log never holds a tenant's NT hash or its node token.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistrationRefusedError, startAgent, type Agent } from './agent.ts';
import type { AgentConfig } from './config.ts';
import { createNetworkDriver } from './drivers/network.driver.ts';
import { createJsonLogger } from './logger.ts';
import { desiredUser, desiredWorkspace } from './testing/desired.ts';
import { startFakeApi, type FakeApi } from './testing/fake-api.ts';
import { testAgentConfig } from './testing/agent-config.ts';
import { ntHash } from './testing/nt-hash.ts';
import { silentLogger } from './logger.ts';
import { runCommand } from './exec/run-command.ts';

const INSIDE = '0b6f0e0e-1111-4c55-9d5b-0f4f3c1d2e10';
const OUTSIDE = '0b6f0e0e-2222-4c55-9d5b-0f4f3c1d2e10';
const POOL = ['198.18.0.1', '198.18.0.2'];

let api: FakeApi;
let dataDir: string;
const agents: Agent[] = [];

beforeEach(async () => {
  api = await startFakeApi();
  dataDir = await mkdtemp(join(tmpdir(), 'agent-security-'));
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  await api.close();
  await rm(dataDir, { recursive: true, force: true });
});

function config(overrides: Partial<AgentConfig> = {}): AgentConfig {
  return testAgentConfig(api, dataDir, {
    nodeName: 'pool-node',
    addresses: POOL,
    ...overrides,
  });
}

describe('the agent and its address pool', () => {
  it('attack 12.5: refuses a workspace address outside AGENT_ADDRESS_POOL and reports why', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line), { level: 'debug' });
    api.workspaces = [
      desiredWorkspace({
        service_id: OUTSIDE,
        address: '192.0.2.50',
        users: [desiredUser('ona', 1_000_000, { password: 'Stolen-Hash-1' })],
      }),
      desiredWorkspace({
        service_id: INSIDE,
        address: '198.18.0.2',
        users: [desiredUser('jonas', 1_000_001, { password: 'Stolen-Hash-2' })],
      }),
    ];
    // The default drivers, with nothing live: the refusal must not depend on being root.
    const agent = startAgent(config(), logger, { loop: false });
    agents.push(agent);
    await agent.runOnce();

    const reports = new Map(api.reports.at(-1)?.workspaces.map((w) => [w.service_id, w]));
    expect(reports.get(OUTSIDE)).toMatchObject({ ok: false, observed_generation: 0 });
    expect(reports.get(OUTSIDE)?.error).toMatch(
      /^network: "192.0.2.50" is not in this node's address pool \(AGENT_ADDRESS_POOL\)/,
    );
    expect(reports.get(INSIDE)).toMatchObject({ ok: true, observed_generation: 1 });

    // What the agent logged over a pass with a refusal: no NT hash, no node token.
    const log = lines.join('');
    expect(log).toContain('not in this node');
    for (const password of ['Stolen-Hash-1', 'Stolen-Hash-2']) {
      expect(log).not.toContain(ntHash(password));
      expect(log.toUpperCase()).not.toContain(ntHash(password));
    }
    expect(log).not.toContain(api.currentToken('pool-node'));
  });

  it('refuses the host’s own and foreign addresses in the driver itself, whoever calls it', async () => {
    const driver = createNetworkDriver({ live: false, addressPool: ['198.18.0.1', 'FE80::1'] });
    const context = { dataDir, workspaceDir: join(dataDir, 'ws'), logger: silentLogger, run: runCommand };
    await expect(
      driver.apply(desiredWorkspace({ service_id: INSIDE, address: '10.0.0.1' }), context),
    ).rejects.toThrow(/not in this node's address pool/);
    await expect(
      driver.apply(desiredWorkspace({ service_id: INSIDE, address: '198.18.0.1' }), context),
    ).resolves.toMatchObject({ status: { live: false } });
    await expect(
      driver.apply(desiredWorkspace({ service_id: INSIDE, address: 'fe80:0::1' }), context),
    ).resolves.toMatchObject({ status: { live: false } });
  });
});

describe('enrollment', () => {
  it('says how to enroll when the node has neither a node token nor an enrollment token', async () => {
    const agent = startAgent(config({ registrationToken: undefined }), silentLogger, { loop: false });
    agents.push(agent);
    const failure = await agent.runOnce().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistrationRefusedError);
    expect((failure as Error).message).toContain('npm run nodes -- enroll <name>');
    expect(api.registrations).toHaveLength(0);
  });

  it('asks for a fresh enrollment token each time it must register (the embedded node)', async () => {
    let issued = 0;
    const agent = startAgent(config({ registrationToken: undefined }), silentLogger, {
      loop: false,
      enrollmentToken: async () => {
        issued += 1;
        return api.registrationToken;
      },
    });
    agents.push(agent);
    await agent.runOnce();
    api.revokeTokens();
    await agent.runOnce();
    expect(issued).toBe(2);
    expect(api.registrations).toHaveLength(2);
  });
});
