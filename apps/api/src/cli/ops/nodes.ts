// `ops nodes …`: the storage nodes as an operator runs them. The nodes module knows the hosts;
// the services module knows what each holds and the placement rule; this file puts the two side
// by side and nothing more. Removal runs under placement's lock, so no workspace can be placed on
// the node between the check that it is empty and its deletion.
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  deleteNode,
  drainNode,
  findNode,
  listNodes,
  undrainNode,
  type NodeRow,
} from '../../modules/nodes/node-admin.ts';
import { NODE_OFFLINE_AFTER_MS, nodeIsOnline } from '../../modules/nodes/nodes.constants.ts';
import { placeableNodesSince } from '../../modules/nodes/online-nodes.ts';
import { createNodeCopies } from '../../modules/replicas/node-copies.ts';
import { chooseStandby } from '../../modules/replicas/standby-choice.ts';
import { largestPlaceableGb, type PlacedWorkspace } from '../../modules/services/placement.ts';
import { createServicesQueries, type ServiceRow } from '../../modules/services/services.queries.ts';

export interface NodeSummary {
  name: string;
  hostname: string;
  online: boolean;
  lastSeenAt: Date | null;
  drainedAt: Date | null;
  diskFreeBytes: number;
  diskTotalBytes: number;
  addressesFree: number;
  addressesTotal: number;
  /** Workspaces placed there that are not terminated. */
  workspaces: number;
  /** Terminated ones whose deletion the node has not confirmed yet (they still hold an address). */
  terminatedHeld: number;
  /** Standby copies it keeps of workspaces served elsewhere. */
  standbys: number;
  /** Declared failed by an operator and not heard from since. */
  failedAt: Date | null;
  /** The largest workspace (GB) placement's rule would fit there now, drained or not. */
  roomGb: number;
}

export async function nodeSummaries(db: Db, now: Date): Promise<NodeSummary[]> {
  const nodes = await listNodes(db);
  const services = createServicesQueries(db);
  const placed = await services.placedOn(nodes.map((node) => node.id));
  const summaries: NodeSummary[] = [];
  for (const node of nodes) {
    const held = await services.listForNode(node.id);
    const taken = new Set(held.map((service) => service.address));
    const terminated = held.filter((service) => service.status === 'terminated').length;
    summaries.push({
      name: node.name,
      hostname: node.hostname,
      online: nodeIsOnline(node.lastSeenAt, now),
      lastSeenAt: node.lastSeenAt,
      drainedAt: node.drainedAt,
      diskFreeBytes: node.diskFreeBytes,
      diskTotalBytes: node.diskTotalBytes,
      addressesFree: node.addresses.filter((address) => !taken.has(address)).length,
      addressesTotal: node.addresses.length,
      workspaces: held.length - terminated,
      terminatedHeld: terminated,
      standbys: placed.filter((row) => row.nodeId === node.id).length - held.length,
      failedAt: node.failedAt,
      roomGb: largestPlaceableGb([node], placed),
    });
  }
  return summaries;
}

export async function drain(db: Db, name: string, now: Date): Promise<NodeRow> {
  const row = await drainNode(db, name, now);
  if (!row) throw new Error(`no node named ${name}`);
  return row;
}

export async function undrain(db: Db, name: string): Promise<NodeRow> {
  const row = await undrainNode(db, name);
  if (!row) throw new Error(`no node named ${name}`);
  return row;
}

/** What moving one workspace off a node would take (a plan to read; nothing here moves it). */
export interface MovePlan {
  serviceId: string;
  name: string;
  accountId: string;
  status: ServiceRow['status'];
  diskSpaceGb: number;
  diskUsedBytes: number | null;
  address: string | null;
  /** Where placement's rule would put it now; null when no other node has room and an address. */
  target: { node: string; address: string } | null;
  steps: string[];
}

export type RemoveOutcome =
  | { kind: 'removed'; node: NodeRow; terminatedHeld: number }
  | { kind: 'refused'; node: NodeRow; moves: MovePlan[]; standbys: number };

function moveSteps(source: NodeRow, service: ServiceRow, target: MovePlan['target']): string[] {
  const to = target ? target.node : '<a node with room>';
  return [
    source.drainedAt
      ? `drain ${source.name} (done)`
      : `drain ${source.name}: npm run ops -- nodes drain ${source.name}`,
    `move it (sync, stop, final sync, switch; the address follows): npm run ops -- services move ${service.id} ${to}`,
    `or all at once: npm run ops -- nodes evacuate ${source.name}`,
  ];
}

/**
 * The moves that would empty `source`: each workspace offered, largest first, to the other online
 * undrained nodes by a standby's rule (standby-choice.ts: the address follows it, so the target's
 * pool must hold it), counting the ones planned before it as placed there.
 */
export async function planMoves(
  db: Db,
  source: NodeRow,
  held: readonly ServiceRow[],
  now: Date,
): Promise<MovePlan[]> {
  const candidates = (await placeableNodesSince(db, new Date(now.getTime() - NODE_OFFLINE_AFTER_MS))).filter(
    (node) => node.id !== source.id,
  );
  const placed: PlacedWorkspace[] = await createServicesQueries(db).placedOn(
    candidates.map((node) => node.id),
  );
  const plans = new Map<string, MovePlan>();
  for (const service of [...held].sort((a, b) => b.diskSpace - a.diskSpace)) {
    const need =
      service.address !== null && service.idBase !== null
        ? {
            id: service.id,
            nodeId: source.id,
            address: service.address,
            idBase: service.idBase,
            diskSpace: service.diskSpace,
          }
        : null;
    const others = placed.filter((workspace) => workspace.id !== service.id);
    const choice = need ? chooseStandby(need, candidates, others) : null;
    if (need && choice) placed.push({ ...need, nodeId: choice.id, diskUsedBytes: service.diskUsedBytes });
    const target = need && choice ? { node: choice.name, address: need.address } : null;
    plans.set(service.id, {
      serviceId: service.id,
      name: service.name,
      accountId: service.accountId,
      status: service.status,
      diskSpaceGb: service.diskSpace,
      diskUsedBytes: service.diskUsedBytes,
      address: service.address,
      target,
      steps: moveSteps(source, service, target),
    });
  }
  // Shown in the order the node holds them; planned largest first so big ones find room.
  return held.flatMap((service) => plans.get(service.id) ?? []);
}

/**
 * Deletes a node that holds no workspace but terminated ones and no standby copy; refuses
 * otherwise with what moving them would take. Runs under placement's lock, so nothing is placed
 * there meanwhile (standbys are placed under the same lock).
 */
export async function removeNode(db: Db, name: string, now: Date): Promise<RemoveOutcome> {
  return inTransaction(db, async (tx) => {
    const services = createServicesQueries(tx);
    await services.lockPlacement();
    const node = await findNode(tx, name);
    if (!node) throw new Error(`no node named ${name}`);
    const held = await services.listForNode(node.id);
    const live = held.filter((service) => service.status !== 'terminated');
    const standbys = (await services.placedOn([node.id])).length - held.length;
    if (live.length > 0 || standbys > 0)
      return { kind: 'refused', node, moves: await planMoves(tx, node, live, now), standbys };
    await deleteNode(tx, name);
    // Copies it was told to delete (after a failover or a move) may still be on its disk: counted
    // with the terminated ones it had not confirmed deleted.
    const departed = await createNodeCopies(tx).forgetNode(node.id);
    return { kind: 'removed', node, terminatedHeld: held.length + departed };
  });
}
