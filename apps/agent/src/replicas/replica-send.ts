// The primary's side of a standby's pull: the stream node call `replica.send` (contract:
// replicas.ts). It takes a replica of `data` now and streams `btrfs send` of it, from the parent
// the standby named when this storage still holds it, whole otherwise. Its size is not known up
// front: the upload goes chunked (size null), with the replica's name as the stream's name and the
// parent used in REPLICA_PARENT_HEADER. Once the send ended whole, the replicas the standby can no
// longer name are deleted (replica-store.ts primaryKeeps); a send that fails deletes the replica
// it took (the standby never got it whole). A stopped workspace answers too: its storage stays
// mounted, and a move's final sync is taken after the stop.
import { PassThrough } from 'node:stream';
import { REPLICA_PARENT_HEADER, type NodeStreamCallPayload } from '@debesis/contract';
import { NodeCallError, type NodeCallContext, type NodeCallStream } from '../calls/node-call.ts';
import { errorMessage } from '../logger.ts';
import { sendSnapshot } from '../snapshots/replication.ts';
import { DATA_SUBVOLUME, REPLICAS_SUBVOLUME } from '../snapshots/snapshots.ts';
import { storageFileSystem } from '../system/btrfs.ts';
import { exists } from '../system/host.ts';
import { mountAt } from '../system/mounts.ts';
import { join } from 'node:path';
import { listReplicas, primaryKeeps, pruneReplicas, takeReplica } from './replica-store.ts';

export async function sendReplica(
  payload: NodeStreamCallPayload<'replica.send'>,
  { layout, run, logger, desired }: NodeCallContext,
  now = new Date(),
): Promise<NodeCallStream> {
  const fs = (await exists(layout.image)) ? await storageFileSystem(layout.image) : undefined;
  if (fs?.type !== 'btrfs')
    throw new NodeCallError(
      'unsupported',
      `the workspace's storage is ${fs?.type ?? 'a plain folder'}: no replicas`,
    );
  if (!(await mountAt(layout.pool))) throw new NodeCallError('failed', 'the storage is not mounted');
  if (!(await exists(join(layout.pool, DATA_SUBVOLUME))))
    throw new NodeCallError('failed', 'the storage holds no data here (a standby sends nothing)');

  const name = await takeReplica(layout, run, now);
  const parent =
    payload.parent !== undefined && (await listReplicas(layout)).includes(payload.parent)
      ? payload.parent
      : undefined;
  // The upload cut early (the standby went away) ends btrfs send.
  const stop = new AbortController();
  const sent = sendSnapshot(layout, name, parent, { folder: REPLICAS_SUBVOLUME, signal: stop.signal });
  const body = new PassThrough();
  sent.stream.pipe(body, { end: false });
  const serviceId = desired.service_id;
  sent.done.then(
    async () => {
      body.end();
      const deleted = await pruneReplicas(layout, run, (held) => primaryKeeps(held, name, parent)).catch(
        (error: unknown) => {
          logger.warn({ service_id: serviceId }, `replicas: pruning failed: ${errorMessage(error)}`);
          return [];
        },
      );
      logger.info(
        { service_id: serviceId, replica: name, parent: parent ?? null, deleted },
        `replicas: sent ${name} ${parent ? `from ${parent}` : 'whole'}`,
      );
    },
    async (error: unknown) => {
      if (!body.destroyed) body.destroy(error instanceof Error ? error : new Error(String(error)));
      logger.warn({ service_id: serviceId, replica: name }, `replicas: send failed: ${errorMessage(error)}`);
      await pruneReplicas(layout, run, (held) => new Set(held.filter((each) => each !== name))).catch(
        () => undefined,
      );
    },
  );
  body.once('close', () => {
    if (!body.writableFinished) stop.abort();
  });
  return {
    name,
    size: null,
    body,
    ...(parent ? { headers: { [REPLICA_PARENT_HEADER]: parent } } : {}),
  };
}
