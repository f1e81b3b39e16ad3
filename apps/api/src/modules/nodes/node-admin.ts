// The operator's hold on storage nodes (`npm run ops -- nodes …`): draining one so placement
// leaves it alone, and deleting one that holds nothing. Whether a node still holds workspaces is
// the services module's to say; the caller asks it first, under the placement lock, and passes
// the same transaction here.
import type { Executor } from '../../db/transaction.ts';
import { createNodesQueries, type NodeRow } from './nodes.queries.ts';

export type { NodeRow };

/** Every registered node, by name. */
export function listNodes(db: Executor): Promise<NodeRow[]> {
  return createNodesQueries(db).listNodes();
}

export function findNode(db: Executor, name: string): Promise<NodeRow | undefined> {
  return createNodesQueries(db).findByName(name);
}

/** Nothing new is placed on the node from now on; it keeps serving what it holds. */
export function drainNode(db: Executor, name: string, at: Date): Promise<NodeRow | undefined> {
  return createNodesQueries(db).setDrained(name, at);
}

export function undrainNode(db: Executor, name: string): Promise<NodeRow | undefined> {
  return createNodesQueries(db).setDrained(name, null);
}

/**
 * Deletes the node: its token stops working (no row carries its hash any more) and an unused
 * enrollment token for the name goes too. Its registration audit trail is kept.
 */
export function deleteNode(db: Executor, name: string): Promise<boolean> {
  return createNodesQueries(db).deleteByName(name);
}

/** Declares the node failed (`ops nodes fail`): its workspaces fail over to their standbys now. */
export function failNode(db: Executor, name: string, at: Date): Promise<NodeRow | undefined> {
  return createNodesQueries(db).setFailed(name, at);
}
