// Bandwidth used up (issue point 12), against the real `ip` and `tc` as root: the network driver
// puts a token bucket on both ends of the workspace's veth when its desired state says
// `bandwidth_throttled`, takes it off when that goes (a new month of the billing period), counts
// the link's traffic into the workspace's traffic record, and leaves nothing behind on removal.
// Skipped with its reason where it cannot run.
import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANDWIDTH_THROTTLE_KBIT } from '@debesis/contract';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import { networkNames, networkPresent } from '../system/netns.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { liveSkipReason, randomTestAddresses } from '../testing/live.ts';
import { removeTestNetworks } from '../testing/network.ts';
import { createNetworkDriver } from './network.driver.ts';

const reason = await liveSkipReason('bandwidth throttle test', ['ip', 'tc']);
const [ADDRESS] = randomTestAddresses(1) as [string];
const SERVICE = `bw-${randomUUID()}`;
const names = networkNames(SERVICE);

async function qdiscs(): Promise<{ node: string; inside: string }> {
  const node = await runCommand('tc', ['qdisc', 'show', 'dev', names.nodeInterface], { check: true });
  const inside = await runCommand('tc', ['-n', names.netns, 'qdisc', 'show', 'dev', 'ws0'], { check: true });
  return { node: node.stdout, inside: inside.stdout };
}

/** Datagrams from the node to a port nothing listens on in the workspace (it answers ICMP). */
async function sendDatagrams(count: number, size: number): Promise<void> {
  const socket = createSocket('udp4');
  for (let i = 0; i < count; i++)
    await new Promise<void>((resolve, reject) =>
      socket.send(Buffer.alloc(size), 9, ADDRESS, (error) => (error ? reject(error) : resolve())),
    );
  await new Promise((resolve) => setTimeout(resolve, 300));
  socket.close();
}

describe.skipIf(reason !== undefined)('network driver: the bandwidth throttle (live)', () => {
  let dataDir: string;
  let context: Parameters<ReturnType<typeof createNetworkDriver>['apply']>[1];
  const driver = createNetworkDriver({ live: true, addressPool: [ADDRESS] });
  const desired = (throttled: boolean, state: 'running' | 'removed' = 'running') =>
    desiredWorkspace({ service_id: SERVICE, address: ADDRESS, state, bandwidth_throttled: throttled });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'debesis-bw-'));
    const workspaceDir = join(dataDir, 'workspaces', SERVICE);
    await mkdir(workspaceDir, { recursive: true });
    context = { dataDir, workspaceDir, logger: silentLogger, run: runCommand };
  });
  afterAll(async () => {
    await driver.apply(desired(false, 'removed'), context).catch(() => undefined);
    await removeTestNetworks([SERVICE], [ADDRESS]).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('throttles both ends of the veth with tbf, counts traffic, and lifts the throttle again', async () => {
    const made = await driver.apply(desired(false), context);
    expect(made.status.live).toBe(true);
    expect((await qdiscs()).node).not.toContain('tbf');

    const throttled = await driver.apply(desired(true), context);
    expect(throttled.actions.join('\n')).toContain('throttled');
    const on = await qdiscs();
    const rate = `rate ${BANDWIDTH_THROTTLE_KBIT / 1000}Mbit`;
    expect(on.node).toMatch(/qdisc tbf/);
    expect(on.node).toContain(rate);
    expect(on.inside).toMatch(/qdisc tbf/);
    expect(on.inside).toContain(rate);
    // In place: a second pass runs nothing.
    expect(await driver.apply(desired(true), context)).toMatchObject({ changed: false });

    // The link still carries traffic (slower), and the driver counts it.
    const before = await driver.report!(desired(true), context);
    await sendDatagrams(5, 1000);
    const after = await driver.report!(desired(true), context);
    expect(after.network).toMatchObject({ reachable_from: 'node_only', client_routes: [], throttled: true });
    const sent = (after.network?.traffic?.sent_bytes ?? 0) - (before.network?.traffic?.sent_bytes ?? 0);
    const received =
      (after.network?.traffic?.received_bytes ?? 0) - (before.network?.traffic?.received_bytes ?? 0);
    // Five datagrams in; out, the workspace's "port unreachable" answers (each quotes the datagram).
    expect(received).toBeGreaterThanOrEqual(5 * 1000);
    expect(sent).toBeGreaterThan(0);
    expect(after.network?.traffic?.counter_id).toBe(before.network?.traffic?.counter_id);

    // A new month of the period: the throttle comes off both ends.
    const lifted = await driver.apply(desired(false), context);
    expect(lifted.actions.join('\n')).toContain('lifted the throttle');
    const off = await qdiscs();
    expect(off.node).not.toContain('tbf');
    expect(off.inside).not.toContain('tbf');

    await driver.apply(desired(false, 'removed'), context);
    expect(await networkPresent(names)).toEqual({ netns: false, link: false });
  });
});
