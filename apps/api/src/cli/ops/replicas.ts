// `ops nodes fail|evacuate` and `ops services move`: the operator's side of standbys, failover and
// moves (modules/replicas). The replica loop of the workers drives a move's phases; here a move
// only starts, after the same checks a standby's placement makes (standby-choice.ts).
import { isUuid } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { drainNode, failNode, findNode, type NodeRow } from '../../modules/nodes/node-admin.ts';
import { NODE_OFFLINE_AFTER_MS } from '../../modules/nodes/nodes.constants.ts';
import { placeableNodesSince } from '../../modules/nodes/online-nodes.ts';
import type { ActivityService } from '../../modules/activity/activity.service.ts';
import { createReplicas } from '../../modules/replicas/replicas.service.ts';
import { chooseStandby } from '../../modules/replicas/standby-choice.ts';
import { createServicesQueries, type ServiceRow } from '../../modules/services/services.queries.ts';

export interface ReplicaOps {
  db: Db;
  activity: Pick<ActivityService, 'record'>;
  wakeNode: (nodeId: string) => void;
  now: Date;
}

function replicasOf(ops: ReplicaOps) {
  return createReplicas({ db: ops.db, activity: ops.activity, wakeNode: ops.wakeNode, now: () => ops.now });
}

async function nodeNamed(db: Db, name: string): Promise<NodeRow> {
  const node = await findNode(db, name);
  if (!node) throw new Error(`no node named ${name}`);
  return node;
}

/** Marks the node failed and fails its workspaces over now; how many moved to their standby. */
export async function failNodeNow(
  ops: ReplicaOps,
  name: string,
): Promise<{ node: NodeRow; failedOver: number }> {
  const node = await failNode(ops.db, name, ops.now);
  if (!node) throw new Error(`no node named ${name}`);
  return { node, failedOver: await replicasOf(ops).failOver(ops.now) };
}

/**
 * Why `target` cannot take the service as a standby now (null: it can): the rules of a standby's
 * placement, with the service's current standby left out of the count.
 */
async function refusalFor(db: Db, service: ServiceRow, target: NodeRow, now: Date): Promise<string | null> {
  if (!service.nodeId || service.address === null || service.idBase === null) return 'it is on no node';
  if (service.status === 'terminated') return 'it is terminated';
  if (service.nodeId === target.id) return `it is on ${target.name} already`;
  if (service.movePhase) return `a move is under way (${service.movePhase})`;
  const nodes = await placeableNodesSince(db, new Date(now.getTime() - NODE_OFFLINE_AFTER_MS));
  const candidate = nodes.find((node) => node.id === target.id);
  if (!candidate) return `${target.name} is not online, or drained, or failed`;
  const placed = (await createServicesQueries(db).placedOn([target.id])).filter(
    (row) => row.id !== service.id,
  );
  const need = {
    id: service.id,
    nodeId: service.nodeId,
    address: service.address,
    idBase: service.idBase,
    diskSpace: service.diskSpace,
  };
  return chooseStandby(need, [candidate], placed)
    ? null
    : `${target.name} cannot take it (its pool lacks ${service.address}, its id block or address is taken there, or it has no room)`;
}

/** Starts a move of one workspace to a node; the workers' replica loop does the rest. */
export async function moveService(ops: ReplicaOps, serviceId: string, nodeName: string): Promise<ServiceRow> {
  const service = isUuid(serviceId) ? await createServicesQueries(ops.db).findById(serviceId) : undefined;
  if (!service) throw new Error(`no service ${serviceId}`);
  const target = await nodeNamed(ops.db, nodeName);
  const refusal = await refusalFor(ops.db, service, target, ops.now);
  if (refusal) throw new Error(`${service.id}: not moved, ${refusal}`);
  const started = await replicasOf(ops).move(service.id, target.id);
  if (!started) throw new Error(`${service.id}: not moved, it changed meanwhile; try again`);
  return started;
}

export interface Evacuation {
  node: NodeRow;
  started: { serviceId: string; target: string }[];
  /** Workspaces no other node can take now (they stay; run evacuate again later). */
  stuck: { serviceId: string; reason: string }[];
}

/**
 * Drains the node and starts a move of each workspace it serves to the node a standby's placement
 * would choose (its current standby when it has one). The loop runs two moves off one node at a
 * time; the others wait in `syncing` for their turn.
 */
export async function evacuate(ops: ReplicaOps, name: string): Promise<Evacuation> {
  const node = await drainNode(ops.db, name, ops.now);
  if (!node) throw new Error(`no node named ${name}`);
  const services = createServicesQueries(ops.db);
  const nodes = (
    await placeableNodesSince(ops.db, new Date(ops.now.getTime() - NODE_OFFLINE_AFTER_MS))
  ).filter((candidate) => candidate.id !== node.id);
  const result: Evacuation = { node, started: [], stuck: [] };
  // The moves started here count where they go, so two do not take the same room.
  const everywhere = await services.placedOn(nodes.map((candidate) => candidate.id));
  for (const service of await services.listForNode(node.id)) {
    if (service.status === 'terminated' || service.movePhase) continue;
    if (service.address === null || service.idBase === null) continue;
    const placed = everywhere.filter((row) => row.id !== service.id);
    const need = {
      id: service.id,
      nodeId: node.id,
      address: service.address,
      idBase: service.idBase,
      diskSpace: service.diskSpace,
    };
    const standby = nodes.find((candidate) => candidate.id === service.standbyNodeId);
    const target = (standby && chooseStandby(need, [standby], placed)) ?? chooseStandby(need, nodes, placed);
    if (!target) {
      result.stuck.push({ serviceId: service.id, reason: 'no online, undrained node can take it' });
      continue;
    }
    const started = await replicasOf(ops).move(service.id, target.id);
    if (!started) continue;
    everywhere.push({
      ...need,
      nodeId: target.id,
      diskUsedBytes: service.diskUsedBytes,
      pendingDiskSpace: null,
    });
    result.started.push({ serviceId: service.id, target: target.name });
  }
  return result;
}
