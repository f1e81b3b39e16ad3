// A backup.browse node call handed straight to a node's drivers, as the call loop hands the API's
// call over, for the live backup tests that browse what a backup holds.
import { randomUUID } from 'node:crypto';
import type { NodeCallResultRequest } from '@debesis/contract';
import { runNodeCall, type NodeCallDeps } from '../calls/node-call.ts';

/** Lists `path` of `snapshot` in `serviceId`'s backups; throws when the answer is a byte stream. */
export async function browseSnapshot(
  node: NodeCallDeps,
  serviceId: string,
  snapshot: string,
  path: string,
): Promise<NodeCallResultRequest> {
  const answer = await runNodeCall(
    {
      call_id: randomUUID(),
      service_id: serviceId,
      kind: 'backup.browse',
      payload: { snapshot_id: snapshot, path },
      deadline: new Date(Date.now() + 60_000).toISOString(),
    },
    node,
  );
  if ('stream' in answer) throw new Error('browse answered with bytes');
  return answer;
}
