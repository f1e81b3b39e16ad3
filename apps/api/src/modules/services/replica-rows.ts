// What the replicas module (standby placement, failover, moves) may do with service rows: the
// services module keeps its SQL. Every change of a service's nodes is a conditional update on the
// nodes it expects, so two workers racing cannot both make it; the one that gets the row back
// acts on it (logs it, wakes the nodes).
import { and, asc, eq, inArray, isNotNull, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { ReplicaReport } from '@debesis/contract';
import type { Executor } from '../../db/transaction.ts';
import { createServicesQueries, type ServiceRow } from './services.queries.ts';
import { services } from './services.table.ts';

export type MovePhase = NonNullable<ServiceRow['movePhase']>;

const nextGeneration = sql`${services.generation} + 1`;
/** A service whose node holds data to keep a second copy of (a terminated one is being deleted). */
const KEEPS_DATA = and(
  isNotNull(services.nodeId),
  isNotNull(services.address),
  ne(services.status, 'terminated'),
);

export function createReplicaRows(db: Executor) {
  const queries = createServicesQueries(db);
  return {
    // Placement's own: its lock, what the nodes hold, the service's log.
    lockPlacement: () => queries.lockPlacement(),
    placedOn: (nodeIds: string[]) => queries.placedOn(nodeIds),
    insertEvent: (event: Parameters<typeof queries.insertEvent>[0]) => queries.insertEvent(event),
    findById: (id: string) => queries.findById(id),

    /** The services this node keeps the standby copy of. */
    async standbysOn(nodeId: string): Promise<ServiceRow[]> {
      return db
        .select()
        .from(services)
        .where(eq(services.standbyNodeId, nodeId))
        .orderBy(asc(services.createdAt));
    },

    /** Every placed service (primaries and standbys): addresses, id blocks and room in use. */
    async placedEverywhere(): Promise<ServiceRow[]> {
      return db.select().from(services).where(isNotNull(services.nodeId));
    },

    /** Services with data and no standby (no move under way), oldest first. */
    async withoutStandby(): Promise<ServiceRow[]> {
      return db
        .select()
        .from(services)
        .where(and(KEEPS_DATA, isNull(services.standbyNodeId), isNull(services.movePhase)))
        .orderBy(asc(services.createdAt));
    },

    /** Services whose standby is on none of these nodes (drained, failed or silent): to be replaced. */
    async standbyOffNodes(nodeIds: string[]): Promise<ServiceRow[]> {
      return db
        .select()
        .from(services)
        .where(
          and(
            KEEPS_DATA,
            isNotNull(services.standbyNodeId),
            isNull(services.movePhase),
            nodeIds.length > 0 ? notInArray(services.standbyNodeId, nodeIds) : sql`true`,
          ),
        )
        .orderBy(asc(services.createdAt));
    },

    /** Terminated services whose standby must go (the primary deletes its copy itself). */
    async terminatedWithStandby(): Promise<ServiceRow[]> {
      return db
        .select()
        .from(services)
        .where(and(eq(services.status, 'terminated'), isNotNull(services.standbyNodeId)));
    },

    /** The services whose primary is on one of these nodes. */
    async primariesOn(nodeIds: string[]): Promise<ServiceRow[]> {
      if (nodeIds.length === 0) return [];
      return db.select().from(services).where(inArray(services.nodeId, nodeIds));
    },

    /** The services under a move. */
    async moving(): Promise<ServiceRow[]> {
      return db.select().from(services).where(isNotNull(services.movePhase)).orderBy(asc(services.updatedAt));
    },

    /** The standby's report of its newest replica; only from the service's standby. */
    async storeReplica(id: string, nodeId: string, replica: ReplicaReport): Promise<void> {
      const takenAt = new Date(replica.taken_at);
      const receivedAt = new Date(replica.received_at);
      if (Number.isNaN(takenAt.getTime()) || Number.isNaN(receivedAt.getTime())) return;
      await db
        .update(services)
        .set({
          replicaName: replica.name,
          replicaTakenAt: takenAt,
          replicaReceivedAt: receivedAt,
          replicaBytes: replica.bytes,
          // The first replica makes the primary one that may be failed over (`failover: true`):
          // its desired state changes, so the generation does.
          generation: sql`case when ${services.replicaTakenAt} is null then ${services.generation} + 1 else ${services.generation} end`,
        })
        .where(and(eq(services.id, id), eq(services.standbyNodeId, nodeId)));
    },

    /**
     * The standby goes from `from` (null: none) to `to` (null: none): a new generation, and no
     * replica known on the new one yet. Undefined when the standby is no longer `from`.
     */
    async setStandby(id: string, from: string | null, to: string | null, at: Date) {
      const [row] = await db
        .update(services)
        .set({
          standbyNodeId: to,
          replicaName: null,
          replicaTakenAt: null,
          replicaReceivedAt: null,
          replicaBytes: null,
          generation: nextGeneration,
          updatedAt: at,
        })
        .where(
          and(
            eq(services.id, id),
            from === null ? isNull(services.standbyNodeId) : eq(services.standbyNodeId, from),
            to === null ? sql`true` : or(isNull(services.nodeId), ne(services.nodeId, to)),
          ),
        )
        .returning();
      return row;
    },

    /**
     * The standby becomes the primary (a failover or a move's switch): exactly once, while the
     * primary is still `fromNode` and the standby holds a replica. The move, if any, ends.
     */
    async promote(id: string, fromNode: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({
          nodeId: sql`${services.standbyNodeId}`,
          standbyNodeId: null,
          replicaName: null,
          replicaTakenAt: null,
          replicaReceivedAt: null,
          replicaBytes: null,
          moveTargetNodeId: null,
          movePhase: null,
          moveStoppedAt: null,
          moveSyncToken: null,
          generation: nextGeneration,
          updatedAt: at,
        })
        .where(
          and(
            eq(services.id, id),
            eq(services.nodeId, fromNode),
            isNotNull(services.standbyNodeId),
            isNotNull(services.replicaTakenAt),
          ),
        )
        .returning();
      return row;
    },

    /** An operator's move starts (syncing); undefined when another runs or it is already there. */
    async startMove(id: string, target: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({ moveTargetNodeId: target, movePhase: 'syncing', moveStoppedAt: null, updatedAt: at })
        .where(and(eq(services.id, id), KEEPS_DATA, isNull(services.movePhase), ne(services.nodeId, target)))
        .returning();
      return row;
    },

    /**
     * A move's next phase, from `from` only (two workers cannot both take a step); `bump` when
     * the nodes' desired state changes with it.
     */
    async setMovePhase(
      id: string,
      from: MovePhase,
      to: MovePhase,
      values: { stoppedAt?: Date; syncToken?: string; bump: boolean },
      at: Date,
    ): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({
          movePhase: to,
          ...(values.stoppedAt ? { moveStoppedAt: values.stoppedAt } : {}),
          ...(values.syncToken ? { moveSyncToken: values.syncToken } : {}),
          ...(values.bump ? { generation: nextGeneration } : {}),
          updatedAt: at,
        })
        .where(and(eq(services.id, id), eq(services.movePhase, from)))
        .returning();
      return row;
    },

    /** How many services hold a copy on the node (a node is removed only when it holds none). */
    async countOn(nodeId: string): Promise<{ primaries: number; standbys: number }> {
      const rows = await db
        .select({ nodeId: services.nodeId, standbyNodeId: services.standbyNodeId })
        .from(services)
        .where(or(eq(services.nodeId, nodeId), eq(services.standbyNodeId, nodeId)));
      return {
        primaries: rows.filter((row) => row.nodeId === nodeId).length,
        standbys: rows.filter((row) => row.standbyNodeId === nodeId).length,
      };
    },
  };
}

export type ReplicaRows = ReturnType<typeof createReplicaRows>;
