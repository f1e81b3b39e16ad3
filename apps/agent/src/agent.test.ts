import { lstat, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentStoppedError, RegistrationRefusedError, type AgentOptions } from './agent.ts';
import type { AgentConfig } from './config.ts';
import type { Driver } from './drivers/driver.ts';
import { workspaceDirDriver } from './drivers/workspace-dir.driver.ts';
import type { LogFn, Logger } from './logger.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { waitFor } from './testing/fake-api.ts';
import { useAgentHarness } from './testing/agent-harness.ts';

const A = '0b6f0e0e-1111-4c55-9d5b-0f4f3c1d2e10';
const B = '0b6f0e0e-2222-4c55-9d5b-0f4f3c1d2e10';

const harness = useAgentHarness({
  tmpPrefix: 'agent-loop-',
  workspaces: () => [
    desiredWorkspace({ service_id: A, generation: 3, state: 'running' }),
    desiredWorkspace({ service_id: B, generation: 1, state: 'stopped' }),
  ],
  // The loop's behaviour is under test here, not the host: only the folder driver unless told.
  options: { drivers: [workspaceDirDriver] },
});
const start = harness.start;
const manual = (overrides: Partial<AgentConfig> = {}, options: AgentOptions = {}) =>
  start(overrides, { loop: false, ...options });

const lastReport = () => {
  const report = harness.api.reports.at(-1);
  if (!report) throw new Error('no report yet');
  return report;
};
const generations = () =>
  Object.fromEntries(lastReport().workspaces.map((w) => [w.service_id, w.observed_generation]));
const wsDir = (id: string) => join(harness.dataDir, 'workspaces', id);

function recordingLogger() {
  const entries: { level: string; obj: Record<string, unknown>; msg: string | undefined }[] = [];
  const make =
    (level: string): LogFn =>
    (first: string | object, msg?: string) => {
      entries.push(
        typeof first === 'string'
          ? { level, obj: {}, msg: first }
          : { level, obj: first as Record<string, unknown>, msg },
      );
    };
  const logger: Logger = {
    debug: make('debug'),
    info: make('info'),
    warn: make('warn'),
    error: make('error'),
  };
  return { logger, entries };
}

describe('agent loop', () => {
  it('registers, keeps the token in node.json (0600), applies the desired state and reports it', async () => {
    const agent = start();
    await waitFor(() => harness.api.reports.length >= 2, 5000, 'two reports');

    expect(harness.api.registrations).toHaveLength(1);
    expect(harness.api.registrations[0]).toMatchObject({
      name: 'test-node',
      capacity: { addresses: ['127.0.10.1', '127.0.10.2'] },
    });
    const file = join(harness.dataDir, 'node.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { node_token: string; node_id: string };
    expect(stored.node_token).toBe(harness.api.currentToken('test-node'));
    expect(agent.nodeId).toBe(stored.node_id);

    expect((await stat(wsDir(A))).mode & 0o7777).toBe(0o750);
    expect((await stat(wsDir(B))).isDirectory()).toBe(true);
    const report = lastReport();
    expect(report.workspaces).toEqual([
      {
        service_id: A,
        observed_generation: 3,
        ok: true,
        drivers: [{ driver: 'workspace-dir', live: true }],
        failures: [],
      },
      {
        service_id: B,
        observed_generation: 1,
        ok: true,
        drivers: [{ driver: 'workspace-dir', live: true }],
        failures: [],
      },
    ]);
    expect(report.capacity.disk_total_bytes).toBeGreaterThan(0);
    expect(harness.api.invalid).toEqual([]);
  });

  it('a second pass changes nothing, even when it re-checks every workspace', async () => {
    const agent = manual({ fullCheckEvery: 2 });
    const first = await agent.runOnce();
    expect(first).toMatchObject({ fullCheck: true, changed: true, applied: [A, B] });

    const second = await agent.runOnce();
    expect(second).toMatchObject({
      fullCheck: false,
      changed: false,
      applied: [],
      skipped: [A, B],
      actions: [],
    });

    const third = await agent.runOnce();
    expect(third).toMatchObject({ fullCheck: true, changed: false, applied: [A, B], actions: [] });
    expect(harness.api.reports.map((r) => r.workspaces.map((w) => w.observed_generation))).toEqual([
      [3, 1],
      [3, 1],
      [3, 1],
    ]);
  });

  it('applies only what changed, and a full check repairs drift', async () => {
    const agent = manual({ fullCheckEvery: 3 });
    await agent.runOnce();
    await rm(wsDir(A), { recursive: true });
    harness.api.workspaces = [
      desiredWorkspace({ service_id: A, generation: 3, state: 'running' }),
      { ...harness.api.workspaces[1]!, generation: 2 },
    ];

    const second = await agent.runOnce();
    expect(second).toMatchObject({ applied: [B], skipped: [A] });
    expect(generations()).toEqual({ [A]: 3, [B]: 2 });
    await expect(lstat(wsDir(A))).rejects.toThrow(/ENOENT/);

    await agent.runOnce();
    const fourth = await agent.runOnce();
    expect(fourth).toMatchObject({ fullCheck: true, changed: true, actions: [`${A}: created ${wsDir(A)}`] });
    expect((await stat(wsDir(A))).isDirectory()).toBe(true);
  });

  it('uses the stored node token after a restart instead of registering again', async () => {
    const first = manual();
    await first.runOnce();
    await first.stop();

    const second = manual();
    await second.runOnce();
    expect(harness.api.registrations).toHaveLength(1);
    expect(harness.api.reports).toHaveLength(2);
  });

  it('registers again when the API answers 401, and stores the new token', async () => {
    const agent = manual();
    await agent.runOnce();
    const oldToken = harness.api.currentToken('test-node');
    harness.api.revokeTokens();

    await agent.runOnce();

    expect(harness.api.registrations).toHaveLength(2);
    const newToken = harness.api.currentToken('test-node');
    expect(newToken).not.toBe(oldToken);
    const stored = JSON.parse(await readFile(join(harness.dataDir, 'node.json'), 'utf8')) as {
      node_token: string;
    };
    expect(stored.node_token).toBe(newToken);
    expect(harness.api.reports).toHaveLength(2);
  });

  it('says so when the registration token itself is refused', async () => {
    const agent = manual({ registrationToken: 'wrong' });
    await expect(agent.runOnce()).rejects.toBeInstanceOf(RegistrationRefusedError);
    expect(harness.api.reports).toHaveLength(0);
  });

  it('backs off exponentially (capped) while the API fails, then returns to the poll interval', async () => {
    const { logger, entries } = recordingLogger();
    harness.api.failNext(4, 500);
    start({ pollIntervalMs: 10, maxBackoffMs: 40 }, {}, logger);
    await waitFor(() => harness.api.reports.length >= 2, 5000, 'reports after the failures');

    const waits = entries.filter((e) => e.level === 'warn').map((e) => e.obj.retry_in_ms);
    expect(waits).toEqual([20, 40, 40, 40]);
    expect(entries.find((e) => e.level === 'warn')?.msg).toContain('/desired-state: 500 server_error');
    expect(harness.api.desiredStateCalls).toBeGreaterThanOrEqual(6);
  });

  it('keeps the previous observed generation when a driver fails, and catches up once it works', async () => {
    let broken = false;
    const flaky: Driver = {
      name: 'flaky',
      apply: () => {
        if (broken) return Promise.reject(new Error('boom: smb.conf did not validate'));
        return Promise.resolve({
          changed: false,
          actions: [],
          status: { driver: 'flaky', live: false, reason: 'smbd is not installed' },
        });
      },
    };
    const agent = manual({}, { drivers: [workspaceDirDriver, flaky] });
    await agent.runOnce();
    expect(lastReport().workspaces[0]).toEqual({
      service_id: A,
      observed_generation: 3,
      ok: true,
      drivers: [
        { driver: 'workspace-dir', live: true },
        { driver: 'flaky', live: false, reason: 'smbd is not installed' },
      ],
      failures: [],
    });

    broken = true;
    harness.api.workspaces = [desiredWorkspace({ service_id: A, generation: 4, state: 'running' })];
    await agent.runOnce();
    expect(lastReport().workspaces).toEqual([
      {
        service_id: A,
        observed_generation: 3,
        ok: false,
        // The owner's log shows the code in their language; the node's words stay in `error`.
        error: 'flaky: boom: smb.conf did not validate',
        error_code: 'driver_failed',
        error_params: { driver: 'flaky' },
        drivers: [
          { driver: 'workspace-dir', live: true },
          { driver: 'flaky', live: false, reason: 'boom: smb.conf did not validate' },
        ],
        failures: [],
      },
    ]);

    // A failed workspace is retried on the next pass even though its generation did not change.
    broken = false;
    const retried = await agent.runOnce();
    expect(retried.applied).toEqual([A]);
    expect(generations()).toEqual({ [A]: 4 });
    expect(lastReport().workspaces[0]?.ok).toBe(true);
  });

  it('reports a driver that applied only part of the workspace with a code: a refused shrink with its size', async () => {
    const partial = (name: string, refusedBytes?: number): Driver => ({
      name,
      apply: () =>
        Promise.resolve({
          changed: false,
          actions: [],
          status: {
            driver: name,
            live: true,
            reason: 'the data does not fit',
            ...(refusedBytes ? { refused_bytes: refusedBytes } : {}),
          },
          error: 'the data does not fit',
        }),
    });
    await manual({}, { drivers: [workspaceDirDriver, partial('storage', 1024)] }).runOnce();
    expect(lastReport().workspaces[0]).toMatchObject({
      ok: false,
      error: 'storage: the data does not fit',
      error_code: 'resize_refused',
      error_params: { driver: 'storage', bytes: 1024 },
    });
    await manual({}, { drivers: [workspaceDirDriver, partial('storage')] }).runOnce();
    expect(lastReport().workspaces[0]).toMatchObject({
      error_code: 'driver_incomplete',
      error_params: { driver: 'storage' },
    });
  });

  it('deletes a removed workspace, running the drivers last to first', async () => {
    const order: string[] = [];
    const tracer = (name: string): Driver => ({
      name,
      apply: (desired) => {
        order.push(`${name}:${desired.state}`);
        return Promise.resolve({ changed: false, actions: [], status: { driver: name, live: true } });
      },
    });
    const agent = manual({}, { drivers: [tracer('first'), workspaceDirDriver, tracer('last')] });
    await agent.runOnce();
    harness.api.workspaces = [desiredWorkspace({ service_id: A, generation: 4, state: 'removed' })];
    order.length = 0;

    await agent.runOnce();

    expect(order).toEqual(['last:removed', 'first:removed']);
    await expect(lstat(wsDir(A))).rejects.toThrow(/ENOENT/);
    expect(generations()).toEqual({ [A]: 4 });
    // The folder of B is no longer listed: forgotten, but never deleted without an explicit `removed`.
    expect((await stat(wsDir(B))).isDirectory()).toBe(true);
  });

  it('reports a service id that would escape the data folder as an error and touches nothing', async () => {
    harness.api.workspaces = [
      desiredWorkspace({ service_id: '../../escape', generation: 2, state: 'removed' }),
      desiredWorkspace({ service_id: A, generation: 1, state: 'running' }),
    ];
    const agent = manual();
    await agent.runOnce();
    const [bad, good] = lastReport().workspaces;
    expect(bad).toMatchObject({
      service_id: '../../escape',
      observed_generation: 0,
      ok: false,
      error_code: 'workspace_invalid',
    });
    expect(bad?.error).toContain('invalid service id');
    expect(good).toMatchObject({ service_id: A, ok: true, observed_generation: 1 });
  });

  it('never runs two passes at once', async () => {
    let active = 0;
    let most = 0;
    const slow: Driver = {
      name: 'slow',
      apply: async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active -= 1;
        return { changed: false, actions: [], status: { driver: 'slow', live: true } };
      },
    };
    const agent = start({ pollIntervalMs: 10, fullCheckEvery: 1 }, { drivers: [slow] });
    await Promise.all([agent.runOnce(), agent.runOnce(), agent.runOnce()]);
    await waitFor(() => harness.api.reports.length >= 6, 5000, 'loop passes');
    expect(most).toBe(1);
  });

  it('wake() runs a pass at once instead of waiting for the poll interval', async () => {
    const agent = start({ pollIntervalMs: 3_600_000 });
    await waitFor(() => harness.api.reports.length === 1, 5000, 'the first report');
    harness.api.workspaces = [desiredWorkspace({ service_id: A, generation: 9, state: 'running' })];
    agent.wake();
    await waitFor(() => harness.api.reports.length === 2, 5000, 'the report after wake');
    expect(generations()).toEqual({ [A]: 9 });
  });

  it('a daemon’s wake file written (a VPN client came) runs a pass at once', async () => {
    // A feature whose daemon writes <ws>/events/changed when what it reports changes.
    const watched: Driver = {
      name: 'watched',
      apply: async (_desired, context) => {
        await mkdir(join(context.workspaceDir, 'events'), { recursive: true });
        return { changed: false, actions: [], status: { driver: 'watched', live: true } };
      },
      wakeOn: (desired, workspaceDir) =>
        desired.state === 'running' ? join(workspaceDir, 'events', 'changed') : undefined,
    };
    start({ pollIntervalMs: 3_600_000 }, { drivers: [workspaceDirDriver, watched] });
    await waitFor(() => harness.api.reports.length === 1, 5000, 'the first report');
    // The stopped workspace's file is not watched; a file beside the running one's neither.
    await writeFile(join(wsDir(B), 'events', 'changed'), '1\n');
    await writeFile(join(wsDir(A), 'events', 'other'), '1\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.api.reports.length).toBe(1);
    // The watch is set up just after the pass that sent the first report: on a loaded machine it may
    // come after the write above, so the daemon's write is repeated until the pass it asks for comes.
    // One write may be seen as two changes (truncate, then write) and run two passes back to back,
    // so the count can step from 1 to 3 between two looks: at least one more report is the point.
    const writes = setInterval(() => void writeFile(join(wsDir(A), 'events', 'changed'), '1\n'), 200);
    try {
      await waitFor(() => harness.api.reports.length >= 2, 15_000, 'the report after the wake file');
    } finally {
      clearInterval(writes);
    }
  }, 20_000);

  it('stops cleanly: stop() waits for the pass, is idempotent, and later runs are refused', async () => {
    const agent = start({ pollIntervalMs: 10 });
    await waitFor(() => harness.api.reports.length >= 1, 5000, 'a report');
    await Promise.all([agent.stop(), agent.stop()]);
    const calls = harness.api.desiredStateCalls;
    await expect(agent.runOnce()).rejects.toBeInstanceOf(AgentStoppedError);
    expect(harness.api.desiredStateCalls).toBe(calls);
  });
});

/** A driver that notes the state each workspace (A or B) was applied in, for the fencing tests. */
function stateRecorder() {
  const applied: string[] = [];
  const recorder: Driver = {
    name: 'recorder',
    async apply(desired) {
      applied.push(`${desired.service_id === A ? 'A' : 'B'} ${desired.state}`);
      return { changed: false, actions: [], status: { driver: 'recorder', live: true } };
    },
  };
  return { applied, recorder };
}

describe('the fencing lease (replicas/fence.ts) in the agent', () => {
  it('stops a workspace with failover once the API is away past the lease, and runs it again when the API is back', async () => {
    harness.api.workspaces = [
      desiredWorkspace({ service_id: A, generation: 3, state: 'running', failover: true }),
      desiredWorkspace({ service_id: B, generation: 1, state: 'running' }),
    ];
    const { applied, recorder } = stateRecorder();
    const { logger, entries } = recordingLogger();
    start({ fenceAfterMs: 1000 }, { drivers: [workspaceDirDriver, recorder] }, logger);
    // Two reports: the first pass has ended, its fence record written.
    await waitFor(() => harness.api.reports.length >= 2, 5000, 'two reports');
    expect(applied).toEqual(expect.arrayContaining(['A running', 'B running']));
    // Kept for a restart: only what a run-out lease stops.
    const record = JSON.parse(await readFile(join(harness.dataDir, 'fence.json'), 'utf8')) as {
      workspaces: { service_id: string }[];
    };
    expect(record.workspaces.map((w) => w.service_id)).toEqual([A]);

    harness.api.failNext(1_000_000, 503);
    await waitFor(() => applied.includes('A stopped'), 8000, 'A fenced');
    expect(applied).not.toContain('B stopped');
    expect(entries.filter((e) => e.level === 'warn' && e.msg?.startsWith('fenced:'))).toHaveLength(1);

    applied.length = 0;
    harness.api.failNext(0);
    await waitFor(() => applied.includes('A running'), 8000, 'A running again');
    expect(applied).not.toContain('B running');
  }, 20_000);
});

describe('the fencing lease across a restart', () => {
  it('fences what the last run would have, from fence.json, while the API is away from the start', async () => {
    await writeFile(
      join(harness.dataDir, 'fence.json'),
      JSON.stringify({
        workspaces: [desiredWorkspace({ service_id: A, generation: 3, state: 'running', failover: true })],
      }),
    );
    harness.api.failNext(1_000_000, 503);
    const { applied, recorder } = stateRecorder();
    start({ fenceAfterMs: 1000 }, { drivers: [workspaceDirDriver, recorder] });
    await waitFor(() => applied.includes('A stopped'), 8000, 'A fenced after a restart');
    expect(applied).toEqual(['A stopped']);
  }, 20_000);
});
