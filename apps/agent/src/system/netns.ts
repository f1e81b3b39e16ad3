// A workspace's own network: a network namespace made by the agent, joined to the node by a veth
// pair. The workspace's address lives inside, on `ws0`; the node reaches it through a /32 route
// via its end of the pair, from the link-local address NODE_LINK_ADDRESS that every node end
// carries. Inside there is a route back to that one address and nothing else (no default route),
// and the node end does not forward (net.ipv4.conf.<end>.forwarding=0, set per interface), so a
// workspace's daemons answer the node and reach neither another workspace nor the outside, even
// when a root daemon adds routes of its own. An `unreachable` route over the whole pool (a high
// metric, so a workspace's /32 wins) keeps traffic for a pool address no workspace holds on the
// machine instead of sending it to the default gateway.
//
// Clients beyond the node (AGENT_CLIENT_ROUTES, CIDR blocks; empty by default): the namespace gets a
// route to each via NODE_LINK_ADDRESS and the node end forwards (per interface; the global
// ip_forward switch stays as it is). What arrives from a workspace's veth is then checked by a
// policy rule before the main table: `iif dbs-<hash> lookup <guard table> priority
// GUARD_RULE_PRIORITY`, the table holding `unreachable` for the whole pool, `throw` for each client
// block (the lookup goes on to the main table) and `unreachable default` (unless a client block is
// the default), so a workspace's packets are forwarded to client blocks only and never to another
// workspace. Local delivery (NODE_LINK_ADDRESS, the node's own addresses) is decided by the local
// table at priority 0, before the rule.
//
// Names are derived from the service id (a short hash: a veth name has at most 15 characters), so
// they are the same after an agent restart and the agent finds what it made before.
//
// Everything here that only looks (names, /proc/net/route, /run/netns, /sys/class/net) runs no
// program, so a pass that finds everything in place costs a few file reads.
import { readFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import { workspaceShortId } from '../workspace-paths.ts';
import { exists } from './host.ts';

/** The node end's address on every workspace's veth; the namespace's only way back. */
export const NODE_LINK_ADDRESS = '169.254.0.1';
/** The workspace's end of the pair, inside its namespace. */
export const WORKSPACE_INTERFACE = 'ws0';
/** Metric of the pool's `unreachable` routes: above any /32 the agent adds (metric 0). */
export const POOL_GUARD_METRIC = 4242;
/** Priority of each workspace's guard rule: after `local` (0), before `main` (32766). */
export const GUARD_RULE_PRIORITY = 4242;
/** Guard tables are 2^28 + 28 bits of the workspace's hash: clear of main, local and small ids. */
const GUARD_TABLE_BASE = 0x10000000;
/** Where `ip netns add` keeps a namespace's handle. */
export const NETNS_DIR = '/run/netns';

export interface NetworkNames {
  /** `debesis-<hash>`: the network namespace (ip netns name). */
  netns: string;
  /** `dbs-<hash>`: the node's end of the veth pair (≤ 15 characters, IFNAMSIZ). */
  nodeInterface: string;
  /** The routing table of the guard rule for what arrives from `nodeInterface`. */
  guardTable: number;
}

/** The namespace and interface names of a workspace, the same for the same service id. */
export function networkNames(serviceId: string): NetworkNames {
  const hash = workspaceShortId(serviceId);
  return {
    netns: `debesis-${hash}`,
    nodeInterface: `dbs-${hash}`,
    guardTable: GUARD_TABLE_BASE + parseInt(hash.slice(0, 7), 16),
  };
}

export function netnsPath(netns: string): string {
  return `${NETNS_DIR}/${netns}`;
}

/** Whether the namespace and the node's end of the pair are there (no program runs). */
export async function networkPresent(names: NetworkNames): Promise<{ netns: boolean; link: boolean }> {
  const [netns, link] = await Promise.all([
    exists(netnsPath(names.netns)),
    exists(`/sys/class/net/${names.nodeInterface}`),
  ]);
  return { netns, link };
}

export interface RouteEntry {
  /** The interface, `*` for a reject (unreachable) route. */
  device: string;
  destination: string;
  prefix: number;
  metric: number;
  reject: boolean;
}

const RTF_REJECT = 0x0200;

function fromHexLe(hex: string): string {
  const n = parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24].join('.');
}

function prefixOf(maskHex: string): number {
  let mask = parseInt(maskHex, 16) >>> 0;
  let bits = 0;
  while (mask) {
    bits += mask & 1;
    mask >>>= 1;
  }
  return bits;
}

/** The main table's IPv4 routes as /proc/net/route lists them (addresses in little-endian hex). */
export function parseProcRoutes(text: string): RouteEntry[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 8)
    .map(([device, destination, , flags, , , metric, mask]) => ({
      device: device!,
      destination: fromHexLe(destination!),
      prefix: prefixOf(mask!),
      metric: Number(metric),
      reject: (parseInt(flags!, 16) & RTF_REJECT) !== 0,
    }));
}

export async function readRoutes(): Promise<RouteEntry[]> {
  return parseProcRoutes(await readFile('/proc/net/route', 'utf8').catch(() => ''));
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function numberToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/**
 * The fewest CIDR blocks that hold exactly the IPv4 addresses of `pool` (198.18.0.1-198.18.0.254
 * → 198.18.0.1/32, 198.18.0.2/31, … 198.18.0.254/32). IPv6 entries are left out.
 */
export function poolBlocks(pool: readonly string[]): string[] {
  const numbers = [...new Set(pool.filter((a) => isIPv4(a)).map(ipv4ToNumber))].sort((a, b) => a - b);
  const blocks: string[] = [];
  let i = 0;
  while (i < numbers.length) {
    // The run of consecutive addresses starting here.
    let end = i;
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++;
    let start = numbers[i]!;
    const last = numbers[end]!;
    while (start <= last) {
      let size = 1;
      // The largest aligned block that starts at `start` and ends within the run.
      while (start % (size * 2) === 0 && start + size * 2 - 1 <= last) size *= 2;
      blocks.push(`${numberToIpv4(start)}/${32 - Math.log2(size)}`);
      start += size;
    }
    i = end + 1;
  }
  return blocks;
}

/** The pool's guard blocks not yet present as `unreachable … metric POOL_GUARD_METRIC`. */
export function missingGuards(pool: readonly string[], routes: readonly RouteEntry[]): string[] {
  const present = new Set(
    routes
      .filter((r) => r.reject && r.metric === POOL_GUARD_METRIC)
      .map((r) => `${r.destination}/${r.prefix}`),
  );
  return poolBlocks(pool).filter((block) => !present.has(block));
}

/** Whether the node routes `address` to the workspace through `nodeInterface`. */
export function routedThrough(
  routes: readonly RouteEntry[],
  address: string,
  nodeInterface: string,
): boolean {
  return routes.some(
    (r) => r.device === nodeInterface && r.destination === address && r.prefix === 32 && !r.reject,
  );
}

/** Whether `address` lies inside the CIDR `block`. */
function inBlock(address: string, block: string): boolean {
  const [start, end] = blockRange(block);
  const n = ipv4ToNumber(address);
  return n >= start && n <= end;
}

/**
 * The pool's guard blocks present now that no workspace of the host holds an address in (no /32
 * route through a workspace veth, `dbs-…`, in the block): what the node can delete once it runs
 * no workspace. A block another agent's workspace still sits in (a pool shared by two agents of
 * one host) stays.
 */
export function releasableGuards(pool: readonly string[], routes: readonly RouteEntry[]): string[] {
  const present = new Set(
    routes
      .filter((r) => r.reject && r.metric === POOL_GUARD_METRIC)
      .map((r) => `${r.destination}/${r.prefix}`),
  );
  const held = routes.filter((r) => !r.reject && r.prefix === 32 && r.device.startsWith('dbs-'));
  return poolBlocks(pool).filter(
    (block) => present.has(block) && !held.some((route) => inBlock(route.destination, block)),
  );
}

/**
 * Deletes the pool's `unreachable` guard routes that no workspace of the host needs (see
 * releasableGuards); returns those deleted. The network driver calls it once the node holds no
 * workspace (the last one removed, or the agent stopping with none); tests and benchmarks that
 * gave the agent a pool of their own call it when they clean up.
 */
export async function removePoolGuards(
  pool: readonly string[],
  run: (command: string, args: readonly string[]) => Promise<unknown>,
): Promise<string[]> {
  const blocks = releasableGuards(pool, await readRoutes());
  for (const block of blocks)
    await run('ip', ['route', 'del', 'unreachable', block, 'metric', String(POOL_GUARD_METRIC)]);
  return blocks;
}

/** `a.b.c.d/n` with the host bits cleared, or undefined when it is no IPv4 CIDR block. */
export function canonicalBlock(text: string): string | undefined {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(text.trim());
  if (!match || !isIPv4(match[1]!)) return undefined;
  const prefix = Number(match[2]);
  if (prefix > 32) return undefined;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return `${numberToIpv4((ipv4ToNumber(match[1]!) & mask) >>> 0)}/${prefix}`;
}

function blockRange(block: string): [number, number] {
  const [address, prefix] = block.split('/');
  const start = ipv4ToNumber(address!);
  return [start, start + 2 ** (32 - Number(prefix)) - 1];
}

/**
 * The client blocks (AGENT_CLIENT_ROUTES) canonical, sorted and without repeats. Throws on one
 * that is no IPv4 CIDR block or that lies inside the pool: a pool address is a workspace's, never
 * a client's (and a `throw` more specific than the pool's `unreachable` would let one through).
 */
export function clientBlocks(routes: readonly string[], pool: readonly string[]): string[] {
  const blocks = new Set<string>();
  const poolRanges = poolBlocks(pool).map(blockRange);
  for (const route of routes) {
    const block = canonicalBlock(route);
    if (!block)
      throw new Error(`${JSON.stringify(route.slice(0, 64))} is not an IPv4 CIDR block (a.b.c.d/n)`);
    const [start, end] = blockRange(block);
    if (poolRanges.some(([poolStart, poolEnd]) => start >= poolStart && end <= poolEnd))
      throw new Error(`client route ${block} lies inside the address pool`);
    blocks.add(block);
  }
  return [...blocks].sort();
}

/**
 * The guard table of a workspace whose node end forwards (`ip -batch` lines, flush first): the pool
 * unreachable, each client block thrown back to the main table, anything else unreachable.
 */
export function guardTableLines(
  table: number,
  pool: readonly string[],
  clients: readonly string[],
): string[] {
  const lines = [`route flush table ${table}`];
  if (!clients.includes('0.0.0.0/0')) lines.push(`route replace unreachable default table ${table}`);
  for (const block of clients) lines.push(`route replace throw ${block} table ${table}`);
  for (const block of poolBlocks(pool)) lines.push(`route replace unreachable ${block} table ${table}`);
  return lines;
}

/** The guard rule's selector and action (for `ip rule add` and `ip rule del`). */
export function guardRule(names: NetworkNames): string[] {
  return [
    'iif',
    names.nodeInterface,
    'lookup',
    String(names.guardTable),
    'priority',
    String(GUARD_RULE_PRIORITY),
  ];
}

type Run = (
  command: string,
  args: readonly string[],
) => Promise<{ ok: boolean; stdout?: string; stderr?: string }>;

/** Adds the guard rule; one already there (a rule outlives its interface) is fine. */
export async function addGuardRule(names: NetworkNames, run: Run): Promise<void> {
  const result = await run('ip', ['rule', 'add', ...guardRule(names)]);
  if (!result.ok && !/File exists/.test(result.stderr ?? ''))
    throw new Error(`ip rule add ${guardRule(names).join(' ')} failed: ${(result.stderr ?? '').trim()}`);
}

/** Deletes the guard rule (every copy) and empties its table; nothing there is fine. */
export async function removeGuard(names: NetworkNames, run: Run): Promise<boolean> {
  let removed = false;
  for (let i = 0; i < 8 && (await run('ip', ['rule', 'del', ...guardRule(names)])).ok; i++) removed = true;
  await run('ip', ['route', 'flush', 'table', String(names.guardTable)]);
  return removed;
}
