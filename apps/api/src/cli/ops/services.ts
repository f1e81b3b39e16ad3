// `ops services show`: one service as asked (desired) beside what its node last said (observed).
import { isUuid, type DriverStatus, type ResourceFailure, type ServiceApplyStatus } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { nodeSeen } from '../../modules/nodes/online-nodes.ts';
import { applyStatus, workspaceState } from '../../modules/services/lifecycle.ts';
import { storageBytes } from '../../modules/services/placement.ts';
import { createServicesQueries, type ServiceRow } from '../../modules/services/services.queries.ts';
import { nodeIsOnline } from '../../modules/nodes/nodes.constants.ts';

export interface ServiceDetail {
  service: ServiceRow;
  /** What its node should do with it now (the lifecycle's word). */
  desiredState: ReturnType<typeof workspaceState>;
  applyStatus: ServiceApplyStatus;
  node: { name: string; online: boolean; lastSeenAt: Date | null } | null;
  /** Its standby copy (replicas.ts): where, and the newest replica it holds. */
  standby: { name: string; online: boolean; replica: string | null; lastInSyncAt: Date | null } | null;
  /** An operator's move under way: its phase and target. */
  move: { phase: string; target: string; stoppedAt: Date | null } | null;
  /** The plan's size; `storageBytes` on the row is the size the node reports it has. */
  diskSizeBytes: number;
  drivers: DriverStatus[];
  failures: ResourceFailure[];
}

export async function serviceDetail(db: Db, id: string, now: Date): Promise<ServiceDetail> {
  const service = isUuid(id) ? await createServicesQueries(db).findById(id) : undefined;
  if (!service) throw new Error(`no service ${id}`);
  const seen = service.nodeId ? await nodeSeen(db, service.nodeId) : undefined;
  const standby = service.standbyNodeId ? await nodeSeen(db, service.standbyNodeId) : undefined;
  const target = service.moveTargetNodeId ? await nodeSeen(db, service.moveTargetNodeId) : undefined;
  return {
    service,
    desiredState: workspaceState(service),
    applyStatus: applyStatus(service),
    node: seen
      ? { name: seen.name, online: nodeIsOnline(seen.lastSeenAt, now), lastSeenAt: seen.lastSeenAt }
      : null,
    standby: service.standbyNodeId
      ? {
          name: standby?.name ?? service.standbyNodeId,
          online: standby ? nodeIsOnline(standby.lastSeenAt, now) : false,
          replica: service.replicaName,
          lastInSyncAt: service.replicaTakenAt,
        }
      : null,
    move:
      service.movePhase && service.moveTargetNodeId
        ? {
            phase: service.movePhase,
            target: target?.name ?? service.moveTargetNodeId,
            stoppedAt: service.moveStoppedAt,
          }
        : null,
    diskSizeBytes: storageBytes(service.diskSpace),
    drivers: service.drivers,
    failures: service.failures,
  };
}
