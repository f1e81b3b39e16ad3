// Room on a workspace's own node for a larger disk (a plan change, extra disk). The same rule as
// placement (placement.ts): the node's free disk less the unwritten part of every workspace on it
// must cover the larger disk, so a node never promises more disk than it has. A workspace grows
// only on the node it is on: moving it to another node is not automated.
//
// Growth is decided under placement's advisory lock, in the transaction that puts the larger
// disk in place, so two changes (or a change and a new workspace) cannot both take the last
// room. The node's last report counts even when it is drained (a drain stops new workspaces,
// not the growth of those it holds) or offline (the larger disk is applied when it is back).
// A paid change that finds no room waits, its larger disk kept in pendingDiskSpace; the
// waits on a node are served oldest first: a wait counts against the ones behind it, never
// against those before it, and new workspaces count every wait (placement.ts).
import type { Executor, Tx } from '../../db/transaction.ts';
import { nodeDiskFree } from '../nodes/online-nodes.ts';
import { STORAGE_BYTES_PER_GB } from './lifecycle.constants.ts';
import { promisedBytes, unpromisedBytes } from './placement.ts';
import { createServicesQueries } from './services.queries.ts';

export interface GrowthRoom {
  /** The disk (GB) the workspace has now. */
  diskSpace: number;
  /** Whole GB more than diskSpace the node can take now (0 when none). */
  roomGb: number;
  /** Whether the workspace can have `diskSpace` GB on its node now. */
  fits(diskSpace: number): boolean;
}

/**
 * The room the service's node has for it to grow, or null when it is on no node (placement then
 * places it at whatever size it has). `waitsAhead` says which other waits on the node come
 * before this workspace's (counted); every other wait is left out. Read outside the lock it is
 * an answer for a customer, not a promise.
 */
export async function growthRoom(
  db: Executor,
  serviceId: string,
  waitsAhead: (serviceId: string) => boolean = () => true,
): Promise<GrowthRoom | null> {
  const queries = createServicesQueries(db);
  const service = await queries.findById(serviceId);
  if (!service?.nodeId) return null;
  const diskFreeBytes = await nodeDiskFree(db, service.nodeId);
  if (diskFreeBytes === undefined) return null;
  const here = await queries.placedOn([service.nodeId]);
  const room = unpromisedBytes(
    diskFreeBytes,
    here,
    (workspace) => workspace.id === undefined || workspace.id === service.id || !waitsAhead(workspace.id),
  );
  const now = promisedBytes(service.diskSpace, service.diskUsedBytes);
  return {
    diskSpace: service.diskSpace,
    roomGb: Math.max(0, Math.floor(room / STORAGE_BYTES_PER_GB)),
    fits: (diskSpace) => promisedBytes(diskSpace, service.diskUsedBytes) - now <= room,
  };
}

/** The same, under placement's lock: call in the transaction that puts the larger disk in place. */
export async function lockedGrowthRoom(
  tx: Tx,
  serviceId: string,
  waitsAhead?: (serviceId: string) => boolean,
): Promise<GrowthRoom | null> {
  await createServicesQueries(tx).lockPlacement();
  return growthRoom(tx, serviceId, waitsAhead);
}

/** Marks the larger disk a paid change waits for (null: it waits no more), in the lock's transaction. */
export async function setPendingDisk(tx: Tx, serviceId: string, diskSpace: number | null, at: Date) {
  await createServicesQueries(tx).setPendingDisk(serviceId, diskSpace, at);
}
