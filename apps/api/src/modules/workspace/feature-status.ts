// What a workspace feature's status (VPN, Samba, NFS, FTP) reads of its service's last report:
// its driver's entry, and how far the node has applied what was last asked of the feature.
import type { DriverStatus, ServiceApplyStatus } from '@debesis/contract';
import type { ServiceRow } from '../services/workspace-rows.ts';

/** The named driver's entry in the service's last report; undefined before it reported one. */
export function reportedDriver(service: ServiceRow, driverName: string): DriverStatus | undefined {
  return service.drivers.find((candidate) => candidate.driver === driverName);
}

/**
 * How far the node has applied the service: applying while it is behind the desired generation,
 * failed while it reports a failure of one of the feature's kinds, applied otherwise.
 */
export function applyProgress(
  service: ServiceRow,
  failureKinds: readonly string[],
): {
  apply_status: ServiceApplyStatus;
  generation: number;
  observed_generation: number;
  reported_at: string | null;
} {
  const failed = service.failures.some((failure) => failureKinds.includes(failure.kind));
  return {
    apply_status:
      service.observedGeneration < service.generation ? 'applying' : failed ? 'failed' : 'applied',
    generation: service.generation,
    observed_generation: service.observedGeneration,
    reported_at: service.reportedAt?.toISOString() ?? null,
  };
}
