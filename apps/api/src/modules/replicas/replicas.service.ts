// Standby copies, failover and moves (replicas.ts, docs/features/replicas.md): what the worker's
// replica loop does every few seconds. Each step is a conditional update
// (services/replica-rows.ts), so two workers may run it at once and each change still happens once;
// the one that made it logs it, tells the owner and wakes the nodes concerned after its
// transaction.
import { randomUUID } from 'node:crypto';
import { NODE_FAILOVER_AFTER_MS, REPLICA_SYNC_INTERVAL_SECONDS } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Executor } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { allNodes, placeableNodesSince } from '../nodes/online-nodes.ts';
import { NODE_OFFLINE_AFTER_MS } from '../services/lifecycle.constants.ts';
import { nodeIsOnline } from '../nodes/nodes.constants.ts';
import { createReplicaRows } from '../services/replica-rows.ts';
import type { ServiceRow } from '../services/services.queries.ts';
import { createDepartures, departureKey } from './replicas.queries.ts';
import { chooseStandby } from './standby-choice.ts';

/** A replica taken within this long counts as fresh for a move's switch. */
export const MOVE_FRESH_REPLICA_MS = 2 * REPLICA_SYNC_INTERVAL_SECONDS * 1000;
/** Moves off one node that copy at once (an evacuation): the rest wait for their turn. */
export const MOVES_PER_NODE = 2;

export interface ReplicaTickResult {
  standbysPlaced: number;
  standbysDropped: number;
  failedOver: number;
  moveSteps: number;
}

interface NodeView {
  id: string;
  name: string;
  lastSeenAt: Date | null;
  failedAt: Date | null;
}

export function createReplicas(deps: {
  db: Db;
  activity: Pick<ActivityService, 'record'>;
  wakeNode: (nodeId: string) => void;
  now: () => Date;
  /** NODE_FAILOVER_AFTER_MS unless the configuration says otherwise (replicas.config.ts). */
  failoverAfterMs?: number;
}) {
  const failoverAfterMs = deps.failoverAfterMs ?? NODE_FAILOVER_AFTER_MS;
  const online = (node: NodeView | undefined, at: Date) =>
    !!node && node.failedAt === null && nodeIsOnline(node.lastSeenAt, at);

  async function nodesById(db: Executor): Promise<Map<string, NodeView>> {
    return new Map((await allNodes(db)).map((node) => [node.id, node]));
  }

  /** The old copy must go: its node deletes it once it has applied `row`'s generation. */
  async function depart(db: Executor, row: ServiceRow, nodeId: string, at: Date) {
    if (row.address === null || row.idBase === null) return;
    await createDepartures(db).add(
      {
        serviceId: row.id,
        nodeId,
        generation: row.generation,
        address: row.address,
        idBase: row.idBase,
        diskSpace: row.diskSpace,
      },
      at,
    );
  }

  /**
   * Every service with data and no standby gets one where a node qualifies (standby-choice.ts),
   * under placement's lock so that a new workspace and a standby never take the same room or id
   * block; a terminated service's standby is let go.
   */
  async function placeStandbys(at: Date): Promise<{ placed: number; dropped: number }> {
    const woken = new Set<string>();
    const result = await inTransaction(deps.db, async (tx) => {
      const services = createReplicaRows(tx);
      const rows = createReplicaRows(tx);
      let dropped = 0;
      for (const row of await rows.terminatedWithStandby()) {
        const standby = row.standbyNodeId;
        if (!standby) continue;
        const changed = await rows.setStandby(row.id, standby, null, at);
        if (!changed) continue;
        await depart(tx, changed, standby, at);
        woken.add(standby);
        dropped += 1;
      }
      await services.lockPlacement();
      const nodes = await placeableNodesSince(tx, new Date(at.getTime() - NODE_OFFLINE_AFTER_MS));
      const ids = nodes.map((node) => node.id);
      // A standby on a node drained, failed or silent is placed anew where one qualifies (its old
      // copy departs); one that finds no other node stays where it is.
      const waiting = [...(await rows.withoutStandby()), ...(await rows.standbyOffNodes(ids))];
      if (waiting.length === 0 || nodes.length < 2) return { placed: 0, dropped };
      const placed = await services.placedOn(ids);
      // A node still to delete its old copy of the service (its primary before a move or a
      // failover) is no standby for it until it reported the copy gone: a standby role given
      // over that copy would keep the stale data, and a failover to it would serve that.
      const departing = await createDepartures(tx).pendingKeys();
      let count = 0;
      for (const row of waiting) {
        if (!row.nodeId || row.address === null || row.idBase === null) continue;
        const need = {
          id: row.id,
          nodeId: row.nodeId,
          address: row.address,
          idBase: row.idBase,
          diskSpace: row.diskSpace,
        };
        const candidates = nodes.filter((node) => !departing.has(departureKey(row.id, node.id)));
        const node = chooseStandby(need, candidates, placed);
        if (!node) continue;
        const old = row.standbyNodeId;
        const changed = await rows.setStandby(row.id, old, node.id, at);
        if (!changed) continue;
        if (old) await depart(tx, changed, old, at);
        placed.push({ ...need, nodeId: node.id, diskUsedBytes: row.diskUsedBytes, pendingDiskSpace: null });
        await services.insertEvent({
          serviceId: row.id,
          accountId: row.accountId,
          level: 'info',
          code: 'standby_placed',
          message: `standby placed on ${node.name}`,
          details: { node: node.name },
          createdAt: at,
        });
        woken.add(row.nodeId).add(node.id);
        if (old) woken.add(old);
        count += 1;
      }
      return { placed: count, dropped };
    });
    for (const nodeId of woken) deps.wakeNode(nodeId);
    return result;
  }

  /**
   * The standby becomes the primary (a failover, or a move's switch): exactly once, the old
   * node's copy departs, the owner's log and activity say so, both nodes are woken.
   */
  async function switchOver(
    row: ServiceRow,
    kind: 'failed_over' | 'moved',
    at: Date,
    nodes: Map<string, NodeView>,
  ) {
    const from = row.nodeId;
    if (!from) return false;
    const promoted = await inTransaction(deps.db, async (tx) => {
      const changed = await createReplicaRows(tx).promote(row.id, from, at);
      if (!changed?.nodeId) return undefined;
      await depart(tx, changed, from, at);
      await createDepartures(tx).cancel(changed.id, changed.nodeId);
      const details = {
        from: nodes.get(from)?.name ?? from,
        to: nodes.get(changed.nodeId)?.name ?? changed.nodeId,
        ...(row.replicaTakenAt ? { replica_taken_at: row.replicaTakenAt.toISOString() } : {}),
      };
      await createReplicaRows(tx).insertEvent({
        serviceId: row.id,
        accountId: row.accountId,
        level: kind === 'failed_over' ? 'warning' : 'info',
        code: kind,
        message: `${kind === 'failed_over' ? 'failed over' : 'moved'} from ${details.from} to ${details.to}`,
        details,
        createdAt: at,
      });
      await deps.activity.record(
        {
          accountId: row.accountId,
          action: kind === 'failed_over' ? 'service failed over' : 'service moved',
          tone: kind === 'failed_over' ? 'warning' : 'info',
          serviceId: row.id,
          details,
        },
        tx,
      );
      return changed;
    });
    if (!promoted?.nodeId) return false;
    deps.wakeNode(from);
    deps.wakeNode(promoted.nodeId);
    return true;
  }

  /**
   * Each workspace of a node silent for failoverAfterMs or declared failed, whose standby
   * is online and holds a replica, is promoted there. The others stay where they are.
   */
  async function failOver(at: Date): Promise<number> {
    const nodes = await nodesById(deps.db);
    const lost = [...nodes.values()].filter(
      (node) =>
        node.failedAt !== null ||
        (node.lastSeenAt !== null && at.getTime() - node.lastSeenAt.getTime() >= failoverAfterMs),
    );
    if (lost.length === 0) return 0;
    let count = 0;
    for (const row of await createReplicaRows(deps.db).primariesOn(lost.map((node) => node.id))) {
      if (!row.standbyNodeId || !row.replicaTakenAt || !online(nodes.get(row.standbyNodeId), at)) continue;
      if (await switchOver(row, 'failed_over', at, nodes)) count += 1;
    }
    return count;
  }

  /** One step of each move under way (moves: syncing → stopping → final_sync → switch). */
  async function stepMoves(at: Date): Promise<number> {
    const rows = createReplicaRows(deps.db);
    const nodes = await nodesById(deps.db);
    let steps = 0;
    const moving = await rows.moving();
    // A move copies once its target is the standby; until then it waits its turn on its node.
    const copying = new Map<string, number>();
    for (const row of moving) {
      if (!row.nodeId || (row.movePhase === 'syncing' && row.standbyNodeId !== row.moveTargetNodeId))
        continue;
      copying.set(row.nodeId, (copying.get(row.nodeId) ?? 0) + 1);
    }
    for (const row of moving) {
      const target = row.moveTargetNodeId;
      if (!target || !row.nodeId || !row.movePhase) continue;
      if (row.movePhase === 'syncing') {
        if (row.standbyNodeId !== target) {
          if ((copying.get(row.nodeId) ?? 0) >= MOVES_PER_NODE) continue;
          // A target still deleting an old copy of it (placeStandbys says why) is waited for.
          if ((await createDepartures(deps.db).pendingKeys()).has(departureKey(row.id, target))) continue;
          // The target becomes the standby; one already there departs.
          const old = row.standbyNodeId;
          const changed = await inTransaction(deps.db, async (tx) => {
            const updated = await createReplicaRows(tx).setStandby(row.id, old, target, at);
            if (!updated) return undefined;
            if (old) await depart(tx, updated, old, at);
            return updated;
          });
          if (changed) {
            steps += 1;
            copying.set(row.nodeId, (copying.get(row.nodeId) ?? 0) + 1);
            deps.wakeNode(target);
            deps.wakeNode(row.nodeId);
            if (old) deps.wakeNode(old);
          }
          continue;
        }
        const fresh =
          row.replicaTakenAt && at.getTime() - row.replicaTakenAt.getTime() <= MOVE_FRESH_REPLICA_MS;
        if (!fresh) continue;
        if (await rows.setMovePhase(row.id, 'syncing', 'stopping', { bump: true }, at)) {
          steps += 1;
          deps.wakeNode(row.nodeId);
          deps.wakeNode(target);
        }
      } else if (row.movePhase === 'stopping') {
        // Stopped once the primary has applied the generation that said so, without error.
        if (row.observedGeneration < row.generation || row.lastError !== null) continue;
        const next = await rows.setMovePhase(
          row.id,
          'stopping',
          'final_sync',
          { stoppedAt: row.reportedAt ?? at, syncToken: randomUUID(), bump: true },
          at,
        );
        if (next) {
          steps += 1;
          deps.wakeNode(target);
        }
      } else {
        const stoppedAt = row.moveStoppedAt;
        if (!stoppedAt || !row.replicaTakenAt || row.replicaTakenAt.getTime() <= stoppedAt.getTime())
          continue;
        if (!online(nodes.get(target), at)) continue;
        if (await switchOver(row, 'moved', at, nodes)) steps += 1;
      }
    }
    return steps;
  }

  return {
    placeStandbys,
    failOver,
    stepMoves,

    /** The replica loop's pass: failovers first (they are the RTO), then moves, then new standbys. */
    async tick(): Promise<ReplicaTickResult> {
      const at = deps.now();
      const failedOver = await failOver(at);
      const moveSteps = await stepMoves(at);
      const standbys = await placeStandbys(at);
      return { failedOver, moveSteps, standbysPlaced: standbys.placed, standbysDropped: standbys.dropped };
    },

    /**
     * An operator's move of a workspace to a node (by id); refused with a reason when it cannot
     * start (no such service, a move under way, already there).
     */
    async move(serviceId: string, targetNodeId: string): Promise<ServiceRow | undefined> {
      return createReplicaRows(deps.db).startMove(serviceId, targetNodeId, deps.now());
    },
  };
}

export type Replicas = ReturnType<typeof createReplicas>;
