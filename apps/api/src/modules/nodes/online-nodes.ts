// What other modules may read of the nodes: the online ones with their capacity. Placement (the
// services module) reads them on the handle it gives, so inside its transaction the read sees
// the same picture its placement lock guards.
import type { Executor } from '../../db/transaction.ts';
import { createNodesQueries } from './nodes.queries.ts';

export function onlineNodesSince(db: Executor, since: Date) {
  return createNodesQueries(db).onlineSince(since);
}

/**
 * The online nodes placement may give a new workspace: those an operator has not drained. Kept
 * apart from onlineNodesSince, which must still see a drained node (it serves what it holds).
 */
export function placeableNodesSince(db: Executor, since: Date) {
  return createNodesQueries(db).placeableSince(since);
}

/** One node by id: its name and when it last reported (monitoring's status and sweep). */
export async function nodeSeen(
  db: Executor,
  id: string,
): Promise<{ name: string; lastSeenAt: Date | null } | undefined> {
  const row = await createNodesQueries(db).findById(id);
  return row && { name: row.name, lastSeenAt: row.lastSeenAt };
}

/** The free disk one node last reported (a workspace growing on its own node needs it). */
export async function nodeDiskFree(db: Executor, id: string): Promise<number | undefined> {
  return (await createNodesQueries(db).findById(id))?.diskFreeBytes;
}

/** Every node with when it was last heard from and whether it was declared failed (failover). */
export function allNodes(db: Executor) {
  return createNodesQueries(db).listNodes();
}
