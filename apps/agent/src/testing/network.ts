// Networks for live tests: client namespaces beyond the node, and clean-up, so whatever a test got
// to, its workspaces' network namespaces, veths and the guard routes of the pool it gave the
// agent, and their guard rules and tables (a rule outlives its veth) are gone afterwards.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { runCommand } from '../exec/run-command.ts';
import { exists } from '../system/host.ts';
import { netnsPath, networkNames, networkPresent, removeGuard, removePoolGuards } from '../system/netns.ts';

export async function removeTestNetworks(
  serviceIds: readonly string[],
  pool: readonly string[],
): Promise<void> {
  for (const id of serviceIds) {
    const names = networkNames(id);
    const present = await networkPresent(names);
    if (present.link) await runCommand('ip', ['link', 'del', names.nodeInterface]);
    if (present.netns) await runCommand('ip', ['netns', 'del', names.netns]);
    await removeGuard(names, runCommand);
  }
  await removePoolGuards(pool, runCommand);
}

/**
 * A client beyond the node for live tests: a network namespace of its own joined to the node by a
 * veth pair in a /30 of 198.19.0.0/16 (`eth0` inside), with routes to the pool's addresses only
 * and no default route; the node's end forwards (per interface, the global switch untouched).
 * Give the agent `block` as a client route so the workspaces answer it.
 */
export interface TestClient {
  netns: string;
  /** The node's end of the client's pair. */
  nodeInterface: string;
  block: string;
  nodeAddress: string;
  address: string;
}

/** A client whose /30 lies in another third octet of 198.19.0.0/16 than `avoidThird`'s. */
export function testClient(avoidThird: number): TestClient {
  const third = (avoidThird + 1 + Math.floor(Math.random() * 255)) % 256;
  const base = 4 * Math.floor(Math.random() * 63);
  const suffix = randomUUID().slice(0, 8);
  return {
    netns: `debesis-client-${suffix}`,
    nodeInterface: `dbc-${suffix}`,
    block: `198.19.${third}.${base}/30`,
    nodeAddress: `198.19.${third}.${base + 1}`,
    address: `198.19.${third}.${base + 2}`,
  };
}

export async function makeTestClient(client: TestClient, pool: readonly string[]): Promise<void> {
  const ip = (...args: string[]) => runCommand('ip', args, { check: true });
  await ip('netns', 'add', client.netns);
  await ip(
    'link',
    'add',
    client.nodeInterface,
    'type',
    'veth',
    'peer',
    'name',
    'eth0',
    'netns',
    client.netns,
  );
  await ip('-n', client.netns, 'link', 'set', 'lo', 'up');
  await ip('-n', client.netns, 'addr', 'add', `${client.address}/30`, 'dev', 'eth0');
  await ip('-n', client.netns, 'link', 'set', 'eth0', 'up');
  for (const address of pool)
    await ip('-n', client.netns, 'route', 'add', `${address}/32`, 'via', client.nodeAddress, 'dev', 'eth0');
  await ip('addr', 'add', `${client.nodeAddress}/30`, 'dev', client.nodeInterface);
  await ip('link', 'set', client.nodeInterface, 'up');
  // What comes from the client may be forwarded (per interface; the global switch stays off).
  await writeFile(`/proc/sys/net/ipv4/conf/${client.nodeInterface}/forwarding`, '1');
}

export async function removeTestClient(client: TestClient): Promise<void> {
  if (await exists(`/sys/class/net/${client.nodeInterface}`))
    await runCommand('ip', ['link', 'del', client.nodeInterface]);
  if (await exists(netnsPath(client.netns))) await runCommand('ip', ['netns', 'del', client.netns]);
}
