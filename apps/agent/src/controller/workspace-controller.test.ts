// The agent's loop as a controller, end to end against the fake API: a broken workspace (its
// driver throws every time, or hangs) next to a healthy one.
import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../config.ts';
import type { Driver } from '../drivers/driver.ts';
import { workspaceDirDriver } from '../drivers/workspace-dir.driver.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { waitFor } from '../testing/fake-api.ts';
import { useAgentHarness } from '../testing/agent-harness.ts';

const BROKEN = '0b6f0e0e-1111-4c55-9d5b-0f4f3c1d2e10';
const HEALTHY = '0b6f0e0e-2222-4c55-9d5b-0f4f3c1d2e10';

const harness = useAgentHarness({
  tmpPrefix: 'agent-controller-',
  config: { pollIntervalMs: 20, maxBackoffMs: 400 },
  // The broken one first: in array order it would hold the healthy one behind it.
  workspaces: () => [
    desiredWorkspace({ service_id: BROKEN, generation: 1, state: 'running' }),
    desiredWorkspace({ service_id: HEALTHY, generation: 1, state: 'running' }),
  ],
  options: { calls: false },
});

/** A driver's apply that hangs until the test is over. */
const hang = () =>
  new Promise<never>((_resolve, reject) => harness.beforeStop(() => reject(new Error('released'))));

function start(config: Partial<AgentConfig>, broken: Driver['apply']) {
  const attempts: number[] = [];
  const driver: Driver = {
    name: 'feature-base',
    apply: (desired, context) => {
      if (desired.service_id !== BROKEN)
        return Promise.resolve({
          changed: false,
          actions: [],
          status: { driver: 'feature-base', live: true },
        });
      attempts.push(Date.now());
      return broken(desired, context);
    },
  };
  const agent = harness.start(config, { drivers: [workspaceDirDriver, driver] });
  return { agent, attempts };
}

const reported = (id: string) =>
  harness.api.reports.flatMap((report) => report.workspaces.filter((w) => w.service_id === id));

describe('the agent as a controller', () => {
  it('applies and reports the healthy workspace while the broken one throws, and backs the broken one off', async () => {
    const started = Date.now();
    const { attempts } = start({}, () => Promise.reject(new Error('boom')));
    await waitFor(() => harness.api.reports.length >= 1, 5000, 'the first report');
    expect(reported(HEALTHY)[0]).toMatchObject({ ok: true, observed_generation: 1 });
    expect(reported(BROKEN)[0]).toMatchObject({ ok: false, error: 'feature-base: boom' });

    // Passes go on every 20 ms; the broken workspace is retried after 20, 40, 80, 160 ms… (≤ 400).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const passes = harness.api.reports.length;
    const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] ?? started));
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    expect(attempts.length).toBeLessThan(passes / 2);
    // Each retry waits at least its backoff (timers fire late under load, never early).
    for (const [i, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(Math.min(20 * 2 ** i, 400) - 2);
    // Every report still says how the broken one stands, and the healthy one stays applied.
    expect(harness.api.reports.at(-1)?.workspaces.map((w) => [w.service_id, w.ok])).toEqual([
      [BROKEN, false],
      [HEALTHY, true],
    ]);
    expect(harness.api.invalid).toEqual([]);
  });

  it('applies and reports the healthy workspace within one poll interval while the broken one hangs', async () => {
    const { attempts } = start({ pollIntervalMs: 500, workspaceDeadlineMs: 50 }, hang);
    const started = Date.now();
    await waitFor(() => reported(HEALTHY).length >= 1, 5000, 'the healthy workspace reported');
    // Registration and the pull come first; the hung workspace holds the rest for its deadline only.
    expect(Date.now() - started).toBeLessThan(500);
    expect(reported(HEALTHY)[0]).toMatchObject({ ok: true, observed_generation: 1 });
    // Never applied, so nothing to say of it yet; and never run beside itself while it hangs.
    expect(reported(BROKEN)).toEqual([]);
    await waitFor(() => harness.api.reports.length >= 3, 5000, 'more passes');
    expect(attempts).toHaveLength(1);
  });

  it('sends the heartbeat on its own while a pass is held by a slow workspace', async () => {
    const { agent } = start(
      { pollIntervalMs: 3_600_000, workspaceDeadlineMs: 3_600_000, heartbeatMs: 100 },
      hang,
    );
    // The first pass hangs in the broken workspace: only heartbeats reach the API, without workspaces.
    await waitFor(() => harness.api.reports.length >= 2, 5000, 'two heartbeats');
    expect(harness.api.reports.every((report) => report.workspaces.length === 0)).toBe(true);
    expect(harness.api.reports[0]?.capacity.disk_total_bytes).toBeGreaterThan(0);
    expect(agent.nodeId).toBeDefined();
  });
});
