// Issue 12, point 5, on the node's side: whoever controls the desired state (a control plane
// taken over, a node identity stolen) must not make the agent configure an address that is not
// the node's own, and the agent's log never holds a tenant's NT hash or its node token.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RegistrationRefusedError } from './agent.ts';
import { createNetworkDriver } from './drivers/network.driver.ts';
import { createJsonLogger } from './logger.ts';
import { desiredUser, desiredWorkspace } from './testing/desired.ts';
import { useAgentHarness } from './testing/agent-harness.ts';
import { ntHash } from './testing/nt-hash.ts';
import { silentLogger } from './logger.ts';
import { runCommand } from './exec/run-command.ts';

const INSIDE = '0b6f0e0e-1111-4c55-9d5b-0f4f3c1d2e10';
const OUTSIDE = '0b6f0e0e-2222-4c55-9d5b-0f4f3c1d2e10';
const POOL = ['198.18.0.1', '198.18.0.2'];

const harness = useAgentHarness({
  tmpPrefix: 'agent-security-',
  config: { nodeName: 'pool-node', addresses: POOL },
});

describe('the agent and its address pool', () => {
  it('attack 12.5: refuses a workspace address outside AGENT_ADDRESS_POOL and reports why', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line), { level: 'debug' });
    harness.api.workspaces = [
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
    const agent = harness.start({}, { loop: false }, logger);
    await agent.runOnce();

    const reports = new Map(harness.api.reports.at(-1)?.workspaces.map((w) => [w.service_id, w]));
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
    expect(log).not.toContain(harness.api.currentToken('pool-node'));
  });

  it('refuses the host’s own and foreign addresses in the driver itself, whoever calls it', async () => {
    const driver = createNetworkDriver({ live: false, addressPool: ['198.18.0.1', 'FE80::1'] });
    const context = {
      dataDir: harness.dataDir,
      workspaceDir: join(harness.dataDir, 'ws'),
      logger: silentLogger,
      run: runCommand,
    };
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
    const agent = harness.start({ registrationToken: undefined }, { loop: false });
    const failure = await agent.runOnce().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistrationRefusedError);
    expect((failure as Error).message).toContain('npm run nodes -- enroll <name>');
    expect(harness.api.registrations).toHaveLength(0);
  });

  it('asks for a fresh enrollment token each time it must register (the embedded node)', async () => {
    let issued = 0;
    const agent = harness.start(
      { registrationToken: undefined },
      {
        loop: false,
        enrollmentToken: async () => {
          issued += 1;
          return harness.api.registrationToken;
        },
      },
    );
    await agent.runOnce();
    harness.api.revokeTokens();
    await agent.runOnce();
    expect(issued).toBe(2);
    expect(harness.api.registrations).toHaveLength(2);
  });
});
