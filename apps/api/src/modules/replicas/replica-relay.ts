// The standby's pull (replicas.ts): GET /nodes/replicas/{serviceId}/stream relays a stream node
// call `replica.send` to the primary and hands its bytes to the standby. Only the service's
// current standby may pull (any other node hears 404, as for a service it does not know); a
// primary that is not online answers node_unreachable at once instead of after the call's deadline.
import { REPLICA_NAME_PATTERN } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { nodeCallError, type NodeCallStream, type NodeCalls } from '../nodes/node-calls.ts';
import { nodeIsOnline } from '../nodes/nodes.constants.ts';
import { nodeSeen } from '../nodes/online-nodes.ts';
import { createReplicaRows } from '../services/replica-rows.ts';

/** How long the primary has to start sending (taking the snapshot comes first). */
export const REPLICA_SEND_TIMEOUT_MS = 30_000;

export interface ReplicaStream extends NodeCallStream {
  /** The replica the bytes make (the snapshot's name). */
  name: string;
}

export function createReplicaRelay(deps: {
  db: Db;
  calls: Pick<NodeCalls, 'stream'>;
  now: () => Date;
  timeoutMs?: number;
}) {
  return {
    async pull(nodeId: string, serviceId: string, parent: string | undefined): Promise<ReplicaStream> {
      const service = await createReplicaRows(deps.db).findById(serviceId);
      if (!service || service.standbyNodeId !== nodeId || !service.nodeId) throw notFound();
      const primary = await nodeSeen(deps.db, service.nodeId);
      if (!primary || !nodeIsOnline(primary.lastSeenAt, deps.now())) throw new AppError('node_unreachable');
      const answer = await deps.calls.stream(serviceId, 'replica.send', parent ? { parent } : {}, {
        timeoutMs: deps.timeoutMs ?? REPLICA_SEND_TIMEOUT_MS,
      });
      if (!answer.ok) throw nodeCallError(answer.code);
      if (!REPLICA_NAME_PATTERN.test(answer.stream.name)) {
        // A primary's bytes without a replica's name cannot be kept apart from the customer's.
        answer.stream.body.destroy();
        throw new AppError('node_call_failed');
      }
      return answer.stream;
    },
  };
}

export type ReplicaRelay = ReturnType<typeof createReplicaRelay>;
