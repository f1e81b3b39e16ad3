// Node calls across API processes (node-calls.ts is the meeting point inside one). Behind a load
// balancer, the process a customer's request lands on (the call's owner, which waits for the
// answer), the one holding the node's long poll, and the one the node's answer lands on may be
// three different processes. So, on a PostgreSQL server:
//   - the owner offers the call in `node_calls` and NOTIFYs the node's id;
//   - every process LISTENs; the one holding that node's poll claims the call (one UPDATE … SKIP
//     LOCKED: exactly one poll gets it) and hands it to the agent;
//   - the process the answer lands on, if it is not the owner, forwards it (JSON or the streamed
//     bytes, with the node's own token) to the owner's INTERNAL_URL, read from the call's row.
// Only questions are kept, until they are settled; answers pass through memory and the wire. The
// embedded database is one process: no relay there, the in-memory meeting point is all of it.
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { NodeCall } from '@debesis/contract';
import type { Database, Db } from '../../db/database.ts';
import { nodeCalls } from './nodes.table.ts';

/** The NOTIFY channel: its payload is the id of the node that has calls waiting. */
export const NODE_CALLS_CHANNEL = 'debesis_node_calls';
/** The NOTIFY channel of wake-ups: its payload is the id of a node whose desired state changed. */
export const NODE_WAKE_CHANNEL = 'debesis_node_wake';

export interface NodeCallsRelay {
  /** This process's INTERNAL_URL: where another process forwards an answer to a call made here. */
  readonly selfUrl: string;
  /** Offers a call made in this process to whichever process holds its node's poll. */
  offer(call: NodeCall, nodeId: string): Promise<void>;
  /** Takes up to `limit` offered calls of the node (made in any process), oldest first. */
  claim(nodeId: string, limit: number): Promise<NodeCall[]>;
  /** Offers claimed calls again (the poll that claimed them was gone before it could hand them out). */
  release(callIds: readonly string[], nodeId: string): Promise<void>;
  /** Where the owner of the node's call takes its answer; undefined when the call is unknown. */
  ownerOf(nodeId: string, callId: string): Promise<string | undefined>;
  /** The call is settled: nobody claims it any more. */
  withdraw(callId: string): Promise<void>;
  /** Hears the node ids that calls were offered for, in any process; returns the unsubscribe. */
  onOffer(listener: (nodeId: string) => void): () => void;
  /** Hears the node ids woken by any process (notifyNodeWake); returns the unsubscribe. */
  onWake(listener: (nodeId: string) => void): () => void;
  close(): Promise<void>;
}

/** Rows of calls whose owner died before settling them are dropped this long after their deadline. */
const STALE_AFTER_MS = 60_000;

export async function createNodeCallsRelay(deps: {
  database: Pick<Database, 'db' | 'executeSql' | 'listen'>;
  selfUrl: string;
  now?: () => Date;
}): Promise<NodeCallsRelay> {
  const db: Db = deps.database.db;
  const now = deps.now ?? (() => new Date());
  const listeners = new Set<(nodeId: string) => void>();
  const wakeListeners = new Set<(nodeId: string) => void>();
  const stopListening = await deps.database.listen?.(NODE_CALLS_CHANNEL, (nodeId) => {
    for (const listener of listeners) listener(nodeId);
  });
  const stopWakeListening = await deps.database.listen?.(NODE_WAKE_CHANNEL, (nodeId) => {
    for (const listener of wakeListeners) listener(nodeId);
  });
  const notifyOffer = (nodeId: string) => notify(deps.database, NODE_CALLS_CHANNEL, nodeId);
  let prunedAt = 0;

  return {
    selfUrl: deps.selfUrl,

    async offer(call, nodeId) {
      await db.insert(nodeCalls).values({
        callId: call.call_id,
        nodeId,
        call,
        ownerUrl: deps.selfUrl,
        deadline: new Date(call.deadline),
      });
      await notifyOffer(nodeId);
    },

    async claim(nodeId, limit) {
      const at = now();
      if (at.getTime() - prunedAt > STALE_AFTER_MS) {
        prunedAt = at.getTime();
        await db.delete(nodeCalls).where(lt(nodeCalls.deadline, new Date(at.getTime() - STALE_AFTER_MS)));
      }
      const waiting = db
        .select({ callId: nodeCalls.callId })
        .from(nodeCalls)
        .where(and(eq(nodeCalls.nodeId, nodeId), isNull(nodeCalls.claimedAt), gt(nodeCalls.deadline, at)))
        .orderBy(asc(nodeCalls.createdAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      const rows = await db
        .update(nodeCalls)
        .set({ claimedAt: at })
        .where(inArray(nodeCalls.callId, waiting))
        .returning({ call: nodeCalls.call, createdAt: nodeCalls.createdAt });
      return rows
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((row) => row.call as NodeCall);
    },

    async release(callIds, nodeId) {
      if (callIds.length === 0) return;
      await db
        .update(nodeCalls)
        .set({ claimedAt: sql`null` })
        .where(inArray(nodeCalls.callId, [...callIds]));
      await notifyOffer(nodeId);
    },

    async ownerOf(nodeId, callId) {
      const [row] = await db
        .select({ ownerUrl: nodeCalls.ownerUrl })
        .from(nodeCalls)
        .where(and(eq(nodeCalls.callId, callId), eq(nodeCalls.nodeId, nodeId)))
        .limit(1);
      return row?.ownerUrl;
    },

    async withdraw(callId) {
      await db.delete(nodeCalls).where(eq(nodeCalls.callId, callId));
    },

    onOffer(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    onWake(listener) {
      wakeListeners.add(listener);
      return () => {
        wakeListeners.delete(listener);
      };
    },

    async close() {
      listeners.clear();
      wakeListeners.clear();
      await stopListening?.();
      await stopWakeListening?.();
    },
  };
}

/**
 * Tells every API process that a node's desired state changed, so the one holding its long poll
 * wakes it (a standalone agent has no other way in). A no-op on the embedded database, where the
 * node is in-process and woken directly.
 */
export async function notifyNodeWake(
  database: Pick<Database, 'kind' | 'executeSql'>,
  nodeId: string,
): Promise<void> {
  if (database.kind !== 'postgres') return;
  await notify(database, NODE_WAKE_CHANNEL, nodeId);
}

function notify(database: Pick<Database, 'executeSql'>, channel: string, payload: string) {
  return database.executeSql('select pg_notify($1, $2)', [channel, payload]);
}
