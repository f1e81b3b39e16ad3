// Placement: a paid service gets a node with room, an address on it and a block of Unix ids.
// Only online nodes an operator has not drained are offered (nodes/online-nodes.ts).
// One placement runs at a time (an advisory lock in its transaction), so two workers never see
// the same free address; the unique indexes on (node, address) and (node, id_base) would refuse
// a double grant anyway, and the assignment only happens while the service has no node.
//
// An address and an id block are handed out once across all nodes (a room's nodes share one pool,
// and a standby takes its primary's address and Unix ids over: its files are owned by them), and
// a standby copy counts on its node like a workspace.
//
// Room is counted without overcommitting: a node must have, free on its disk, the full size of
// every workspace it holds minus what those already store, plus the new one. Storage images are
// sparse, so a node's free space alone would let it promise more than it has. A larger disk a
// paid plan change waits for (pendingDiskSpace, see node-room.ts) counts as promised here: the
// room its node frees goes to that change before any new workspace.
import { WORKSPACE_ID_BLOCK, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { placeableNodesSince } from '../nodes/online-nodes.ts';
import { NODE_OFFLINE_AFTER_MS, STORAGE_BYTES_PER_GB, UNPLACED_GRACE_MS } from './lifecycle.constants.ts';
import type { ServiceNotifier } from './services.notifier.ts';
import {
  createServicesQueries,
  type InUseEverywhere,
  type Placement,
  type ServiceRow,
} from './services.queries.ts';

const NOTHING_IN_USE: InUseEverywhere = { addresses: new Set(), idBases: new Set() };

export interface CandidateNode {
  id: string;
  name: string;
  diskFreeBytes: number;
  addresses: string[];
}

export interface PlacedWorkspace {
  /** The service's id; left out for a workspace only planned (the operator's move plan). */
  id?: string;
  nodeId: string | null;
  address: string | null;
  idBase: number | null;
  diskSpace: number;
  /** A larger disk a paid plan change waits for room for; null or absent when none waits. */
  pendingDiskSpace?: number | null;
  diskUsedBytes: number | null;
}

export const storageBytes = (diskSpaceGb: number) => diskSpaceGb * STORAGE_BYTES_PER_GB;

/** What a workspace of `diskSpaceGb` that stores `usedBytes` may still take of its node's disk. */
export const promisedBytes = (diskSpaceGb: number, usedBytes: number | null) =>
  Math.max(0, storageBytes(diskSpaceGb) - (usedBytes ?? 0));

/**
 * The node's free disk less everything promised on it: each workspace's unwritten part, of the
 * larger disk it waits for unless `waitIgnored` says that wait is not to be counted (the
 * waiting change asking for the room itself, and those behind it in the queue).
 */
export function unpromisedBytes(
  diskFreeBytes: number,
  here: readonly PlacedWorkspace[],
  waitIgnored: (workspace: PlacedWorkspace) => boolean = () => false,
): number {
  let promised = 0;
  for (const workspace of here) {
    const waiting = waitIgnored(workspace) ? 0 : (workspace.pendingDiskSpace ?? 0);
    promised += promisedBytes(Math.max(workspace.diskSpace, waiting), workspace.diskUsedBytes);
  }
  return diskFreeBytes - promised;
}

/**
 * The node with the most room left after taking the workspace (spreads the load), its first free
 * address and lowest free id block; null when no node has both room and an address.
 */
export function choosePlacement(
  needBytes: number,
  nodes: readonly CandidateNode[],
  placed: readonly PlacedWorkspace[],
  /** Addresses and id blocks held on any node: none is handed out again. */
  inUse: InUseEverywhere = NOTHING_IN_USE,
): Placement | null {
  let best: { placement: Placement; roomLeft: number } | null = null;
  for (const node of nodes) {
    const here = placed.filter((workspace) => workspace.nodeId === node.id);
    const roomLeft = unpromisedBytes(node.diskFreeBytes, here) - needBytes;
    if (roomLeft < 0) continue;
    const takenAddresses = new Set<string | null>([
      ...inUse.addresses,
      ...here.map((workspace) => workspace.address),
    ]);
    const address = node.addresses.find((candidate) => !takenAddresses.has(candidate));
    if (!address) continue;
    const takenBases = new Set<number | null>([
      ...inUse.idBases,
      ...here.map((workspace) => workspace.idBase),
    ]);
    let idBase = WORKSPACE_ID_FIRST_BASE;
    while (takenBases.has(idBase)) idBase += WORKSPACE_ID_BLOCK;
    if (!best || roomLeft > best.roomLeft)
      best = { placement: { nodeId: node.id, address, idBase }, roomLeft };
  }
  return best?.placement ?? null;
}

/**
 * The largest workspace (whole GB) one of `nodes` could take now: room without overcommitting,
 * as choosePlacement counts it, and a free address; 0 when none can take any.
 */
export function largestPlaceableGb(
  nodes: readonly CandidateNode[],
  placed: readonly PlacedWorkspace[],
  inUse: InUseEverywhere = NOTHING_IN_USE,
): number {
  let largest = 0;
  for (const node of nodes) {
    const here = placed.filter((workspace) => workspace.nodeId === node.id);
    const taken = new Set<string | null>([...inUse.addresses, ...here.map((workspace) => workspace.address)]);
    if (!node.addresses.some((address) => !taken.has(address))) continue;
    largest = Math.max(largest, Math.floor(unpromisedBytes(node.diskFreeBytes, here) / STORAGE_BYTES_PER_GB));
  }
  return largest;
}

/**
 * What the online nodes could place now (drained ones left out, as placement leaves them), read
 * without the placement lock: an answer for a customer before paying (a placement a moment later
 * may take the room), never a promise.
 */
export async function placeableNowGb(db: Db, at: Date): Promise<number> {
  const nodes = await placeableNodesSince(db, new Date(at.getTime() - NODE_OFFLINE_AFTER_MS));
  const queries = createServicesQueries(db);
  const placed = await queries.placedOn(nodes.map((node) => node.id));
  return largestPlaceableGb(nodes, placed, await queries.inUseEverywhere());
}

export type PlacementOutcome =
  | { kind: 'placed'; service: ServiceRow }
  | { kind: 'pending'; service: ServiceRow; first: boolean }
  | { kind: 'skipped' };

export function createPlacement(deps: {
  db: Db;
  notifier: Pick<ServiceNotifier, 'placed' | 'resourcePending'>;
  /** Asks the node's agent to pull now (it polls anyway). */
  wakeNode: (nodeId: string) => void;
  now: () => Date;
}) {
  async function placeInTransaction(serviceId: string, at: Date): Promise<PlacementOutcome> {
    return inTransaction(deps.db, async (tx) => {
      const queries = createServicesQueries(tx);
      await queries.lockPlacement();
      const service = await queries.findUnplaced(serviceId);
      if (!service) return { kind: 'skipped' };
      const nodes = await placeableNodesSince(tx, new Date(at.getTime() - NODE_OFFLINE_AFTER_MS));
      const placed = await queries.placedOn(nodes.map((node) => node.id));
      const choice = choosePlacement(
        storageBytes(service.diskSpace),
        nodes,
        placed,
        await queries.inUseEverywhere(),
      );
      if (choice) {
        const row = await queries.assignPlacement(service.id, choice, at);
        return row ? { kind: 'placed', service: row } : { kind: 'skipped' };
      }
      const moved = await queries.awaitResources(service.id, at);
      return { kind: 'pending', service: moved ?? service, first: moved !== undefined };
    });
  }

  /** Places one service if it still needs a node; tells the owner after the commit. Idempotent. */
  async function place(serviceId: string): Promise<PlacementOutcome> {
    const outcome = await placeInTransaction(serviceId, deps.now());
    if (outcome.kind === 'placed') {
      await deps.notifier.placed(outcome.service);
      if (outcome.service.nodeId) deps.wakeNode(outcome.service.nodeId);
    } else if (outcome.kind === 'pending' && outcome.first) {
      await deps.notifier.resourcePending(outcome.service);
    }
    return outcome;
  }

  return {
    place,

    /**
     * The 2-minute retry: every resourcePending service, and processing ones whose placement
     * job has had its chance, offered to the nodes again, oldest first.
     */
    async retryUnplaced(): Promise<{ placed: number; pending: number }> {
      const ids = await createServicesQueries(deps.db).unplaced(
        new Date(deps.now().getTime() - UNPLACED_GRACE_MS),
      );
      let placed = 0;
      let pending = 0;
      for (const id of ids) {
        const outcome = await place(id);
        if (outcome.kind === 'placed') placed += 1;
        if (outcome.kind === 'pending') pending += 1;
      }
      return { placed, pending };
    },
  };
}

export type ServicePlacement = ReturnType<typeof createPlacement>;
