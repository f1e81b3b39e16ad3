// The agent's node-call loop against the fake API: a call reaches the handler of the driver that
// answers its kind, on the workspace as last applied, and its answer (or refusal) goes back; calls
// run a few at once; a stream call's upload frees its place and uploads have their own bound; the
// loop backs off on errors, waits for the node's identity rather than registering itself, and
// stops at once with the agent.
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeCall, NodeCallKind } from '@debesis/contract';
import type { Agent } from '../agent.ts';
import type { Driver } from '../drivers/driver.ts';
import { workspaceDirDriver } from '../drivers/workspace-dir.driver.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { waitFor } from '../testing/fake-api.ts';
import { useAgentHarness } from '../testing/agent-harness.ts';
import { daemonDriver } from '../daemons/daemon-driver.ts';
import { CALLS_AT_ONCE, STREAM_UPLOADS_AT_ONCE } from './call-loop.ts';
import { NodeCallError, type NodeCallContext } from './node-call.ts';

const A = '0b6f0e0e-3333-4c55-9d5b-0f4f3c1d2e10';
const NOT_HERE = '0b6f0e0e-4444-4c55-9d5b-0f4f3c1d2e10';

const harness = useAgentHarness({
  tmpPrefix: 'agent-calls-',
  config: { nodeName: 'calls-node', addresses: ['127.0.10.1'], maxBackoffMs: 200 },
  workspaces: () => [desiredWorkspace({ service_id: A, generation: 4, state: 'running' })],
  options: { loop: false },
});

/** A VPN-like feature that answers kill_all and disconnect, recording what it was given. */
function fakeVpn(options: { gate?: Promise<void> } = {}) {
  const seen: Array<{ kind: NodeCallKind; context: NodeCallContext }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const driver: Driver = {
    name: 'fake-vpn',
    kind: 'feature',
    apply: async () => ({ changed: false, actions: [], status: { driver: 'fake-vpn', live: true } }),
    calls: {
      'vpn.kill_all': async (_payload, context) => {
        seen.push({ kind: 'vpn.kill_all', context });
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await options.gate;
        running -= 1;
        return { disconnected: 3 };
      },
      'vpn.disconnect': async ({ user }, context) => {
        seen.push({ kind: 'vpn.disconnect', context });
        if (user === 'nobody') throw new NodeCallError('not_found', 'no VPN user nobody here');
        if (user === 'broken') throw new Error('the management socket is gone');
        return { disconnected: 1 };
      },
    },
  };
  return { driver, seen, running: () => running, mostAtOnce: () => mostAtOnce };
}

/** A feature whose `share.download` answers with a body the test writes and ends. */
function fakeDownloads() {
  const bodies: PassThrough[] = [];
  const driver: Driver = {
    name: 'fake-downloads',
    kind: 'feature',
    apply: async () => ({ changed: false, actions: [], status: { driver: 'fake-downloads', live: true } }),
    calls: {
      'share.download': async (payload) => {
        const body = new PassThrough();
        bodies.push(body);
        return {
          name: payload.path,
          size: null,
          meta: { type: 'file', etag: '"v1"', range: { start: 0, end: 2, total: 10 } },
          body,
        };
      },
    },
  };
  return { driver, bodies };
}

const download = (path: string) => callOf('share.download', { root: 'shares', path }, A, 60_000);

const start = (drivers: Driver[]) => harness.start({}, { drivers: [workspaceDirDriver, ...drivers] });

function callOf(kind: string, payload: Record<string, unknown> = {}, serviceId = A, inMs = 5000): NodeCall {
  return {
    call_id: randomUUID(),
    service_id: serviceId,
    kind,
    payload,
    deadline: new Date(Date.now() + inMs).toISOString(),
  };
}

/** The agent has applied its workspace once (so it holds it) and is polling for calls. */
async function ready(agent: Agent) {
  await agent.runOnce();
  await waitFor(() => harness.api.callPolls > 0, 5000, 'a call poll');
}

describe('node calls on the agent', () => {
  it("answers with the handler's result, given the workspace as last applied", async () => {
    const vpn = fakeVpn();
    const agent = start([vpn.driver]);
    await ready(agent);
    const call = callOf('vpn.kill_all');
    const sent = Date.now();
    harness.api.enqueueCall(call);
    expect(await harness.api.answerTo(call.call_id)).toEqual({ ok: true, result: { disconnected: 3 } });
    expect(Date.now() - sent).toBeLessThan(1000);
    const context = vpn.seen[0]?.context;
    expect(context?.desired).toMatchObject({ service_id: A, generation: 4 });
    expect(context?.dataDir).toBe(harness.dataDir);
    expect(context?.layout.root).toBe(join(harness.dataDir, 'workspaces', A));
  });

  it('refuses what it cannot answer: a kind no driver handles, a workspace it does not hold, the handler’s refusal, a throw', async () => {
    const vpn = fakeVpn();
    const agent = start([vpn.driver]);
    await ready(agent);
    const cases: Array<[NodeCall, object]> = [
      [callOf('vpn.config', { user: 'ona', cert_generation: 1 }), { ok: false, code: 'unsupported' }],
      [callOf('vpn.teleport'), { ok: false, code: 'unsupported' }],
      [callOf('vpn.kill_all', {}, NOT_HERE), { ok: false, code: 'not_found' }],
      [
        callOf('vpn.disconnect', { user: 'nobody' }),
        { ok: false, code: 'not_found', error: 'no VPN user nobody here' },
      ],
      [
        callOf('vpn.disconnect', { user: 'broken' }),
        { ok: false, code: 'failed', error: 'the management socket is gone' },
      ],
      [callOf('vpn.disconnect', { user: 'Not A Name' }), { ok: false, code: 'failed' }],
    ];
    for (const [call] of cases) harness.api.enqueueCall(call);
    for (const [call, expected] of cases)
      expect(await harness.api.answerTo(call.call_id)).toMatchObject(expected);
    expect(harness.api.invalid).toEqual([]);
  });

  it('does not run or answer a call past its deadline', async () => {
    const vpn = fakeVpn();
    const agent = start([vpn.driver]);
    await ready(agent);
    const late = callOf('vpn.kill_all', {}, A, -1);
    const timely = callOf('vpn.disconnect', { user: 'ona' });
    harness.api.enqueueCall(late);
    harness.api.enqueueCall(timely);
    await harness.api.answerTo(timely.call_id);
    expect(harness.api.answers.has(late.call_id)).toBe(false);
    expect(vpn.seen.map((s) => s.kind)).toEqual(['vpn.disconnect']);
  });

  it(`runs calls side by side, at most ${CALLS_AT_ONCE} at once`, async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const vpn = fakeVpn({ gate });
    const agent = start([vpn.driver]);
    await ready(agent);
    const calls = Array.from({ length: CALLS_AT_ONCE + 3 }, () => callOf('vpn.kill_all'));
    for (const call of calls) harness.api.enqueueCall(call);
    await waitFor(() => vpn.running() === CALLS_AT_ONCE, 5000, 'calls running side by side');
    // Give a would-be fifth the time to start.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(vpn.running()).toBe(CALLS_AT_ONCE);
    open();
    for (const call of calls) expect(await harness.api.answerTo(call.call_id)).toMatchObject({ ok: true });
    expect(vpn.mostAtOnce()).toBe(CALLS_AT_ONCE);
  });

  it('backs off when polling fails and answers once the API is back', async () => {
    const vpn = fakeVpn();
    harness.api.failNextPolls(3, 503);
    const agent = start([vpn.driver]);
    await agent.runOnce();
    const call = callOf('vpn.kill_all');
    harness.api.enqueueCall(call);
    expect(await harness.api.answerTo(call.call_id)).toMatchObject({ ok: true });
    // 3 failures (waits of 20, 40, 80 ms) then the poll that took the call: no tight loop.
    expect(harness.api.callPolls).toBeLessThanOrEqual(6);
  });

  it('waits for the node to be registered by the reconcile loop instead of registering itself', async () => {
    const agent = start([fakeVpn().driver]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.api.registrations).toHaveLength(0);
    expect(harness.api.callPolls).toBe(0);
    await ready(agent);
    expect(harness.api.registrations).toHaveLength(1);
  });

  it('stops at once with the agent, even while its poll is held', async () => {
    const agent = start([fakeVpn().driver]);
    await ready(agent);
    const stopping = Date.now();
    await agent.stop();
    expect(Date.now() - stopping).toBeLessThan(1000);
  });

  it("answers through a daemon definition's calls, passed on by its driver", async () => {
    const driver = daemonDriver(
      {
        name: 'fake-daemon',
        daemon: 'fake-daemond',
        programs: [],
        notNeeded: () => 'nothing to serve in this test',
        resources: () => [],
        render: async () => ({ files: [], failures: [], actions: [] }),
        argv: () => ['fake-daemond'],
        listens: () => ({ host: '127.0.0.1', port: 1 }),
        reload: () => ({ kind: 'restart' }),
        calls: {
          'vpn.kill_all': async (_payload, context) => ({ disconnected: context.desired.generation }),
        },
      },
      { whyNotLive: async () => 'not live in this test' },
    );
    const agent = start([driver]);
    await ready(agent);
    const call = callOf('vpn.kill_all');
    harness.api.enqueueCall(call);
    expect(await harness.api.answerTo(call.call_id)).toEqual({ ok: true, result: { disconnected: 4 } });
  });

  it('a stream call frees its place once its upload starts, so long downloads never hold up other calls', async () => {
    const downloads = fakeDownloads();
    const vpn = fakeVpn();
    const agent = start([downloads.driver, vpn.driver]);
    await ready(agent);
    const held = Array.from({ length: CALLS_AT_ONCE + 2 }, (_, index) => download(`file-${index}.bin`));
    for (const call of held) harness.api.enqueueCall(call);
    await waitFor(() => harness.api.uploading === held.length, 5000, 'every upload under way');
    const config = callOf('vpn.kill_all');
    harness.api.enqueueCall(config);
    expect(await harness.api.answerTo(config.call_id)).toEqual({ ok: true, result: { disconnected: 3 } });

    for (const [index, body] of downloads.bodies.entries()) body.end(`bytes of ${index}`);
    for (const [index, call] of held.entries()) {
      const { headers, body } = await harness.api.streamOf(call.call_id);
      expect(body.toString()).toBe(`bytes of ${index}`);
      expect(headers).toMatchObject({
        'x-debesis-file-name': `file-${index}.bin`,
        'x-debesis-file-etag': '"v1"',
        'x-debesis-file-range': 'bytes 0-2/10',
        'x-debesis-file-type': 'file',
      });
    }
  });

  it(`refuses a stream call as busy beyond ${STREAM_UPLOADS_AT_ONCE} uploads, and takes them again once one ends`, async () => {
    const downloads = fakeDownloads();
    const agent = start([downloads.driver]);
    await ready(agent);
    const held = Array.from({ length: STREAM_UPLOADS_AT_ONCE }, (_, index) => download(`file-${index}.bin`));
    for (const call of held) harness.api.enqueueCall(call);
    await waitFor(() => harness.api.uploading === STREAM_UPLOADS_AT_ONCE, 5000, 'every upload under way');

    const over = download('one-too-many.bin');
    harness.api.enqueueCall(over);
    const refused = await harness.api.answerTo(over.call_id);
    expect(refused).toMatchObject({ ok: false, code: 'busy' });
    expect(downloads.bodies).toHaveLength(STREAM_UPLOADS_AT_ONCE);

    downloads.bodies[0]?.end('done');
    await harness.api.streamOf(held[0]!.call_id);
    const again = download('now-there-is-room.bin');
    harness.api.enqueueCall(again);
    await waitFor(() => downloads.bodies.length === STREAM_UPLOADS_AT_ONCE + 1, 5000, 'the next download');
    downloads.bodies.at(-1)?.end('room');
    expect((await harness.api.streamOf(again.call_id)).body.toString()).toBe('room');
    for (const body of downloads.bodies) body.end();
  });

  it('stops with the agent while an upload is under way: the upload is cut and its source closed', async () => {
    const downloads = fakeDownloads();
    const agent = start([downloads.driver]);
    await ready(agent);
    const call = download('endless.bin');
    harness.api.enqueueCall(call);
    await waitFor(() => harness.api.uploading === 1, 5000, 'the upload under way');
    downloads.bodies[0]?.write('some bytes');
    await agent.stop();
    expect(downloads.bodies[0]?.destroyed).toBe(true);
    expect(harness.api.streams.has(call.call_id)).toBe(false);
  });
});
