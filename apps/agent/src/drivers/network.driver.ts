// The workspace's own network (system/netns.ts): a network namespace joined to the node by a veth
// pair, the workspace's address inside it, a /32 route to it on the node, and the pool's
// `unreachable` guard. Its daemons start inside (system/namespace.ts) and bind only to the
// address. What was made is recorded in the workspace folder (network.json), so a pass that finds
// the record, the namespace, the node's end of the pair and the route in place runs no program at
// all; an agent restart adopts what is there the same way. A changed address moves (the old route
// and address go); a stopped workspace keeps its network (cheap, and the address stays its own);
// removal deletes the pair (and with it its routes) and the namespace, and the pool's guard goes
// with the node's last workspace (on its removal, or when the agent stops holding none: nothing
// the agent added is left on the host; see system/netns.ts releasableGuards for a pool shared by
// two agents). A namespace found missing
// although it was made before (deleted by hand) is made again; then, and when the address moves,
// the daemons of the drivers after this one are stopped first (they are bound to the old address
// or live in the old namespace), so they start again later in the same pass.
//
// With client routes (AGENT_CLIENT_ROUTES) the workspace answers clients beyond the node too: routes
// to them inside, forwarding on the node end, and the guard rule and table of system/netns.ts
// (made before forwarding is switched on, and forwarding off before they change or go), so what
// comes from a workspace is forwarded to client blocks only, never to another workspace. The
// record keeps the client blocks and a digest of the guard table; a rule cannot be read without a
// program, so the record stands for it (one deleted by hand comes back when the veth is made again).
//
// The driver also reports the link (report()): who can reach the workspace (the node only, or the
// client routes too: the dashboard says which), and its traffic, counted from the node end's
// counters (net/traffic-counter.ts). A workspace whose desired state says `bandwidth_throttled`
// has its link throttled by tc (system/throttle.ts), recorded in the record like the rest.
//
// A NAT plan's workspace (net/serving-address.ts) also has the VPN-side address on its namespace's
// lo, where its daemons other than OpenVPN bind: the plan's address changing kind stops them
// first, like a move, since each binds elsewhere now.
//
// Only addresses of this node's own pool (AGENT_ADDRESS_POOL) are ever configured: a desired state
// naming any other (the host's own, another node's) is refused, whoever sent it.
//
// Before this driver an address was an alias on `lo` recorded in `<ws>/address`; such an alias is
// dropped (when it is a pool address) the first time the workspace is applied.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { workspacesRoot } from '../workspace-paths.ts';
import type { Driver, DriverContext, DriverObservation, DriverResult } from './driver.ts';
import { DEFAULT_ADDRESS_POOL } from '../config.ts';
import { expandAddressPool } from '../capacity.ts';
import { exists } from '../system/host.ts';
import {
  NODE_LINK_ADDRESS,
  addGuardRule,
  clientBlocks,
  guardTableLines,
  removeGuard,
  POOL_GUARD_METRIC,
  WORKSPACE_INTERFACE,
  missingGuards,
  networkNames,
  networkPresent,
  readRoutes,
  removePoolGuards,
  routedThrough,
  type NetworkNames,
} from '../system/netns.ts';
import { throttleLink, unthrottleLink } from '../system/throttle.ts';
import { sampleTraffic } from '../net/traffic-counter.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';
import { readJsonFile } from '../fs/read-json-file.ts';
import { vpnOnly } from '../net/serving-address.ts';
import { VPN_TUNNEL_SERVER_ADDRESS, NODE_DRIVERS } from '@debesis/contract';

export const NETWORK_DRIVER = NODE_DRIVERS.network;

// Addresses the host itself needs: never made a workspace's, never deleted.
const HOST_ADDRESSES = new Set(['127.0.0.1', '::1', '0.0.0.0', '::']);

const recordSchema = z.object({
  netns: z.string(),
  node_interface: z.string(),
  address: z.string(),
  /** Client blocks routed inside (absent: none, as before client routes). */
  client_routes: z.array(z.string()).optional(),
  /** Digest of the guard table behind the guard rule; absent: no rule (the node end does not forward). */
  guard: z.string().optional(),
  /** Its link is throttled (tc, system/throttle.ts); absent: not. */
  throttled: z.boolean().optional(),
  /** A NAT plan's: the VPN-side address is kept on the namespace's lo (net/serving-address.ts). */
  vpn_only: z.boolean().optional(),
});
type NetworkRecord = z.infer<typeof recordSchema>;

/** `<address>/32` (or /128): the exact address entry the agent adds and deletes. */
export function aliasFor(address: string): string {
  if (HOST_ADDRESSES.has(address)) throw new Error(`${address} is the host's own address, not a workspace's`);
  if (isIPv4(address)) return `${address}/32`;
  if (isIPv6(address)) return `${address.toLowerCase()}/128`;
  throw new Error(`workspace address ${JSON.stringify(address.slice(0, 64))} is not an IP address`);
}

/** One spelling per address, so `FE80::1` and `fe80:0::1` are the same pool entry. */
function canonical(address: string): string {
  return isIPv6(address) ? new URL(`http://[${address}]`).hostname.slice(1, -1) : address;
}

export interface NetworkDriverOptions extends LiveDriverOptions {
  /** The addresses this node may give to workspaces (AGENT_ADDRESS_POOL); default its default. */
  addressPool?: readonly string[];
  /**
   * AGENT_CLIENT_ROUTES: CIDR blocks a workspace may answer beyond the node (its node end then
   * forwards, guarded). Default none: the node only.
   */
  clientRoutes?: readonly string[];
}

async function readRecord(path: string): Promise<NetworkRecord | undefined> {
  return readJsonFile(path, recordSchema);
}

/** `ip -batch -`: several changes for one program start; the first failure stops it (and throws). */
async function ipBatch(run: CommandRunner, lines: string[], netns?: string): Promise<void> {
  if (lines.length === 0) return;
  const args = [...(netns ? ['-n', netns] : []), '-batch', '-'];
  await run('ip', args, { check: true, input: lines.join('\n') + '\n' });
}

const procConf = (family: 'ipv4' | 'ipv6', device: string, key: string) =>
  `/proc/sys/net/${family}/conf/${device}/${key}`;

async function readProc(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
}

/**
 * The node's end of the pair forwards only with client routes (`forward`), and never filters
 * loosely: set per interface, never globally. IPv6 is off on it (workspace addresses are IPv4).
 * Returns whether anything changed.
 */
async function lockDownNodeEnd(device: string, forward: boolean): Promise<boolean> {
  let changed = false;
  const set = async (path: string, value: string) => {
    const now = await readProc(path);
    if (now === undefined || now === value) return;
    await writeFile(path, value);
    changed = true;
  };
  await set(procConf('ipv4', device, 'forwarding'), forward ? '1' : '0');
  await set(procConf('ipv4', device, 'rp_filter'), '1');
  await set(procConf('ipv6', device, 'disable_ipv6'), '1');
  return changed;
}

/** Drops an alias on `lo` from before network namespaces, when it is one of the pool's. */
async function dropLegacyAlias(
  addressFile: string,
  inPool: (address: string) => boolean,
  run: CommandRunner,
  actions: string[],
): Promise<void> {
  const recorded = await readProc(addressFile);
  if (recorded === undefined) return;
  const address = recorded.replace(/\/\d+$/, '');
  if (recorded && inPool(address) && !HOST_ADDRESSES.has(address)) {
    const result = await run('ip', ['addr', 'del', recorded, 'dev', 'lo']);
    if (result.ok) actions.push(`removed address ${recorded} from lo`);
  }
  await rm(addressFile, { force: true });
}

/** Whether a workspace of this node (other than `except`) has a network recorded. */
async function networksLeft(dataDir: string, except?: string): Promise<boolean> {
  const root = workspacesRoot(dataDir);
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names)
    if (name !== except && (await exists(workspaceLayout(join(root, name)).networkFile))) return true;
  return false;
}

/** Once the node holds no workspace network, the pool's guard routes go (they guard nothing). */
async function releaseGuardsIfLast(
  dataDir: string,
  pool: readonly string[],
  run: CommandRunner,
  actions: string[],
  except?: string,
): Promise<void> {
  if (await networksLeft(dataDir, except)) return;
  const removed = await removePoolGuards(pool, (command, args) => run(command, args, { check: true }));
  if (removed.length > 0) actions.push(`removed the pool's guard (${removed.length} unreachable routes)`);
}

async function removeNetwork(
  names: NetworkNames,
  guarded: boolean,
  run: CommandRunner,
  actions: string[],
): Promise<void> {
  const present = await networkPresent(names);
  if (present.link) await lockDownNodeEnd(names.nodeInterface, false);
  // The rule outlives the interface: it goes on its own.
  if (guarded && (await removeGuard(names, run)))
    actions.push(`removed guard rule of ${names.nodeInterface}`);
  // Deleting one end deletes both, and every route through them.
  if (present.link) {
    await run('ip', ['link', 'del', names.nodeInterface], { check: true });
    actions.push(`removed veth ${names.nodeInterface}`);
  }
  if (present.netns) {
    await run('ip', ['netns', 'del', names.netns], { check: true });
    actions.push(`removed network namespace ${names.netns}`);
  }
}

// ip for the namespace, the link and the addresses; tc for the bandwidth throttle
// (system/throttle.ts): without it a throttled workspace's apply would fail half-way.
const NETWORK_PROGRAMS = ['ip', 'tc'] as const;

export function createNetworkDriver(options: NetworkDriverOptions = {}): Driver {
  const poolList = (options.addressPool ?? expandAddressPool(DEFAULT_ADDRESS_POOL)).map(canonical);
  const pool = new Set(poolList);
  const inPool = (address: string) => (isIPv4(address) || isIPv6(address)) && pool.has(canonical(address));
  const clients = clientBlocks(options.clientRoutes ?? [], poolList);
  const forward = clients.length > 0;

  async function apply(
    desired: Parameters<Driver['apply']>[0],
    context: DriverContext,
  ): Promise<DriverResult> {
    const layout = workspaceLayout(context.workspaceDir);
    const names = networkNames(desired.service_id);
    aliasFor(desired.address);
    // Removal still goes on (its data must go), but configures no address outside the pool.
    if (!inPool(desired.address) && desired.state !== 'removed')
      throw new Error(
        `${JSON.stringify(desired.address.slice(0, 64))} is not in this node's address pool (AGENT_ADDRESS_POOL); refusing to configure it`,
      );
    const reason = await notLiveReason(options, NETWORK_PROGRAMS);
    if (reason)
      return {
        changed: false,
        actions: [],
        status: {
          driver: NETWORK_DRIVER,
          live: false,
          reason: `${reason}: ${desired.address} gets no network namespace`,
        },
      };
    const live = { driver: NETWORK_DRIVER, live: true } as const;
    const actions: string[] = [];
    const done = (): DriverResult => ({ changed: actions.length > 0, actions, status: live });

    if (desired.state === 'removed') {
      const guarded = forward || (await readRecord(layout.networkFile))?.guard !== undefined;
      await removeNetwork(names, guarded, context.run, actions);
      await dropLegacyAlias(layout.addressFile, inPool, context.run, actions);
      await rm(layout.networkFile, { force: true });
      await releaseGuardsIfLast(context.dataDir, poolList, context.run, actions, desired.service_id);
      return done();
    }
    if (!isIPv4(desired.address))
      throw new Error(`${desired.address}: a workspace's network namespace takes an IPv4 address only`);
    // The kernel never routes 127.0.0.0/8 over an interface (the pool before namespaces was 127.0.10.x).
    if (desired.address.startsWith('127.'))
      throw new Error(
        `${desired.address} is a loopback address and cannot be routed into the workspace's network namespace; set AGENT_ADDRESS_POOL to addresses routed to this node (default ${DEFAULT_ADDRESS_POOL})`,
      );

    const address = desired.address;
    const throttled = desired.bandwidth_throttled === true;
    const behindVpn = vpnOnly(desired);
    const [record, routes, present, forwarding, legacy] = await Promise.all([
      readRecord(layout.networkFile),
      readRoutes(),
      networkPresent(names),
      readProc(procConf('ipv4', names.nodeInterface, 'forwarding')),
      exists(layout.addressFile),
    ]);
    const guards = missingGuards(poolList, routes);
    const guardLines = forward ? guardTableLines(names.guardTable, poolList, clients) : [];
    const guard = forward
      ? createHash('sha256').update(guardLines.join('\n')).digest('hex').slice(0, 16)
      : undefined;
    const recordedClients = record?.client_routes ?? [];
    const sameClients = recordedClients.join(',') === clients.join(',');
    const inPlace =
      record?.address === address &&
      record.netns === names.netns &&
      record.node_interface === names.nodeInterface &&
      present.netns &&
      present.link &&
      forwarding === (forward ? '1' : '0') &&
      sameClients &&
      record.guard === guard &&
      (record.throttled ?? false) === throttled &&
      (record.vpn_only ?? false) === behindVpn &&
      routedThrough(routes, address, names.nodeInterface);
    if (inPlace && guards.length === 0 && !legacy) return done();

    if (legacy) await dropLegacyAlias(layout.addressFile, inPool, context.run, actions);

    // Daemons bound to an old address, or running in a namespace that is gone (or cut off), would
    // never be reached: stop them, they start again later in this pass, inside, on the address.
    const moved = record !== undefined && record.address !== address;
    const remade = record !== undefined && (!present.netns || !present.link);
    const rebound = record !== undefined && (record.vpn_only ?? false) !== behindVpn;
    if (moved || remade || rebound) await context.quiesce?.();
    let made = false;
    if (!present.netns || !present.link) {
      if (present.link) await context.run('ip', ['link', 'del', names.nodeInterface], { check: true });
      if (!present.netns) {
        await context.run('ip', ['netns', 'add', names.netns], { check: true });
        actions.push(`made network namespace ${names.netns}`);
      }
      await context.run(
        'ip',
        [
          'link',
          'add',
          names.nodeInterface,
          'type',
          'veth',
          'peer',
          'name',
          WORKSPACE_INTERFACE,
          'netns',
          names.netns,
        ],
        { check: true },
      );
      actions.push(`made veth ${names.nodeInterface}`);
      made = true;
    }

    // Inside: the address on ws0, a way back to the node's end, and routes to the client blocks
    // through it; nothing else.
    const inside: string[] = [];
    if (made || record?.address !== address) {
      inside.push(
        'link set lo up',
        `link set ${WORKSPACE_INTERFACE} up`,
        `addr flush dev ${WORKSPACE_INTERFACE} scope global`,
        `addr add ${address}/32 dev ${WORKSPACE_INTERFACE}`,
        `route replace ${NODE_LINK_ADDRESS}/32 dev ${WORKSPACE_INTERFACE} scope link`,
      );
      actions.push(`put address ${address}/32 in ${names.netns}`);
    }
    // A namespace made anew has a bare lo: the alias goes only from one that was there.
    if (behindVpn && (made || rebound)) {
      inside.push(`addr replace ${VPN_TUNNEL_SERVER_ADDRESS}/32 dev lo`);
      actions.push(
        `put ${VPN_TUNNEL_SERVER_ADDRESS} on lo in ${names.netns}: only the VPN answers on ${address}`,
      );
    } else if (!behindVpn && rebound && present.netns) {
      inside.push(`addr del ${VPN_TUNNEL_SERVER_ADDRESS}/32 dev lo`);
      actions.push(`removed ${VPN_TUNNEL_SERVER_ADDRESS} from lo in ${names.netns}`);
    }
    if (made ? forward : !sameClients) {
      if (!made) inside.push(`route flush via ${NODE_LINK_ADDRESS}`);
      for (const block of clients)
        inside.push(`route replace ${block} via ${NODE_LINK_ADDRESS} dev ${WORKSPACE_INTERFACE}`);
      actions.push(`routed clients (${clients.join(', ') || 'none'}) from ${names.netns}`);
    }
    await ipBatch(context.run, inside, names.netns);

    // The guard before forwarding: forwarding off while the guard changes or goes, on after.
    if (made || record?.guard !== guard) {
      await lockDownNodeEnd(names.nodeInterface, false);
      if (forward) {
        await addGuardRule(names, context.run);
        await ipBatch(context.run, guardLines);
        actions.push(`guarded what ${names.nodeInterface} forwards (table ${names.guardTable})`);
      } else if (record?.guard !== undefined && (await removeGuard(names, context.run)))
        actions.push(`removed guard rule of ${names.nodeInterface}`);
    }
    if (await lockDownNodeEnd(names.nodeInterface, forward))
      actions.push(
        forward
          ? `${names.nodeInterface} forwards to client routes only`
          : `${names.nodeInterface} does not forward`,
      );

    // On the node: its end up with the link-local address, the /32 route, the pool's guard.
    const host: string[] = [];
    if (made || !routedThrough(routes, address, names.nodeInterface)) {
      host.push(
        `addr replace ${NODE_LINK_ADDRESS}/32 dev ${names.nodeInterface}`,
        `link set ${names.nodeInterface} up`,
        `route replace ${address}/32 dev ${names.nodeInterface} src ${NODE_LINK_ADDRESS}`,
      );
      actions.push(`routed ${address} to ${names.nodeInterface}`);
    }
    const old = record?.address;
    if (old && old !== address && !made && routedThrough(routes, old, names.nodeInterface)) {
      host.push(`route del ${old}/32 dev ${names.nodeInterface}`);
      actions.push(`removed route to ${old}`);
    }
    for (const block of guards) host.push(`route replace unreachable ${block} metric ${POOL_GUARD_METRIC}`);
    if (guards.length > 0) actions.push(`guarded the pool (${guards.length} unreachable routes)`);
    await ipBatch(context.run, host);

    // A new pair has no qdisc: only a throttle is put on it; one lifted comes off.
    const wasThrottled = !made && record?.throttled === true;
    if (throttled && !wasThrottled) {
      await throttleLink(names, context.run);
      actions.push(`throttled ${names.nodeInterface} to the plan's exhausted-bandwidth rate`);
    } else if (!throttled && wasThrottled) {
      await unthrottleLink(names, context.run);
      actions.push(`lifted the throttle of ${names.nodeInterface}`);
    }

    const written = await writeIfChanged(
      layout.networkFile,
      JSON.stringify({
        netns: names.netns,
        node_interface: names.nodeInterface,
        address,
        ...(forward ? { client_routes: clients, guard } : {}),
        ...(throttled ? { throttled } : {}),
        ...(behindVpn ? { vpn_only: true } : {}),
      }) + '\n',
      { mode: 0o644 },
    );
    if (written.changed && actions.length === 0) actions.push(`recorded network ${names.netns}`);
    return done();
  }

  return {
    name: NETWORK_DRIVER,
    phase: 'network',
    apply,
    // An agent stopping with no workspace left leaves no guard behind (one with workspaces keeps
    // it: their daemons outlive the agent).
    async stop(node) {
      if (await notLiveReason(options, NETWORK_PROGRAMS)) return;
      const actions: string[] = [];
      await releaseGuardsIfLast(node.dataDir, poolList, node.run, actions);
      for (const action of actions) node.logger.info({ driver: NETWORK_DRIVER }, action);
    },
    async report(desired, context) {
      const layout = workspaceLayout(context.workspaceDir);
      const record = await readRecord(layout.networkFile);
      // The counters are read only on a link this driver made (not in a render-only mode).
      const traffic = record ? await sampleTraffic(layout.trafficFile, record.node_interface) : undefined;
      return {
        network: {
          reachable_from: forward ? 'routes' : 'node_only',
          client_routes: [...clients],
          ...(traffic ? { traffic } : {}),
          ...(record ? { throttled: record.throttled === true } : {}),
        },
      };
    },
    async observe(desired, context): Promise<DriverObservation> {
      const record = await readRecord(workspaceLayout(context.workspaceDir).networkFile);
      if (!record) return {};
      const present = await networkPresent(networkNames(desired.service_id));
      if (!present.netns) return { drift: `network namespace ${record.netns} is gone` };
      if (!present.link) return { drift: `veth ${record.node_interface} is gone` };
      return {};
    },
  };
}
