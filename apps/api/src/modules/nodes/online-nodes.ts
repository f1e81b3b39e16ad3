// What other modules may read of the nodes: the online ones with their capacity. Placement (the
// services module) reads them on the handle it gives, so inside its transaction the read sees
// the same picture its placement lock guards.
import type { Executor } from '../../db/transaction.ts';
import { createNodesQueries } from './nodes.queries.ts';

export function onlineNodesSince(db: Executor, since: Date) {
  return createNodesQueries(db).onlineSince(since);
}
