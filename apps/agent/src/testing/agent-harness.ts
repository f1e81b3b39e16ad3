// What the agent's tests against the fake control plane share: for each test a fresh fake API and
// data folder, the agents it started, and the clean-up after it. The agents stop before the API
// closes and the folder goes, so that no pass of theirs calls a closed API or writes into a
// removed folder; what a test holds on purpose (a hung driver) is let go before they stop, since
// stop() waits for the pass.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { startAgent, type Agent, type AgentOptions } from '../agent.ts';
import type { AgentConfig } from '../config.ts';
import { silentLogger, type Logger } from '../logger.ts';
import { testAgentConfig } from './agent-config.ts';
import { startFakeApi, type FakeApi } from './fake-api.ts';

export interface AgentHarnessSetup {
  /** The start of the data folder's name, to tell whose folder a leftover is. */
  tmpPrefix: string;
  /** The file's settings over testAgentConfig's; a test's own go over these. */
  config?: Partial<AgentConfig>;
  /** The desired state the fake API serves as each test starts. */
  workspaces?: () => WorkspaceDesiredState[];
  /** The file's agent options; a test's own go over these. */
  options?: AgentOptions;
}

export interface AgentHarness {
  /** This test's fake API. */
  readonly api: FakeApi;
  /** This test's data folder. */
  readonly dataDir: string;
  config: (overrides?: Partial<AgentConfig>) => AgentConfig;
  /** An agent on config(overrides), stopped after the test. */
  start: (overrides?: Partial<AgentConfig>, options?: AgentOptions, logger?: Logger) => Agent;
  /** Runs `release` after the test, before its agents are stopped. */
  beforeStop: (release: () => void) => void;
}

/** Sets up the hooks of the calling test file (or describe block) and hands out its harness. */
export function useAgentHarness(setup: AgentHarnessSetup): AgentHarness {
  let api: FakeApi | undefined;
  let dataDir: string | undefined;
  const agents: Agent[] = [];
  const releases: Array<() => void> = [];

  beforeEach(async () => {
    api = await startFakeApi();
    dataDir = await mkdtemp(join(tmpdir(), setup.tmpPrefix));
    if (setup.workspaces) api.workspaces = setup.workspaces();
  });
  afterEach(async () => {
    for (const release of releases.splice(0)) release();
    await Promise.all(agents.splice(0).map((agent) => agent.stop()));
    await api?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    api = undefined;
    dataDir = undefined;
  });

  const harness: AgentHarness = {
    get api() {
      if (!api) throw new Error('the fake API exists only while a test runs');
      return api;
    },
    get dataDir() {
      if (!dataDir) throw new Error('the data folder exists only while a test runs');
      return dataDir;
    },
    config: (overrides = {}) =>
      testAgentConfig(harness.api, harness.dataDir, { ...setup.config, ...overrides }),
    start: (overrides = {}, options = {}, logger = silentLogger) => {
      const agent = startAgent(harness.config(overrides), logger, { ...setup.options, ...options });
      agents.push(agent);
      return agent;
    },
    beforeStop: (release) => {
      releases.push(release);
    },
  };
  return harness;
}
