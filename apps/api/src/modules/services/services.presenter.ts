// A service row as the owner sees it: the overview item (spec §3 fields and the lifecycle's),
// its state, its apply status, its usage. Unknowns stay null until its node reports them.
import { withoutNodePaths } from '../../http/node-error-text.ts';
import {
  REPLICA_BEHIND_AFTER_MS,
  type ReplicaState,
  type ServiceConfig,
  type ServiceFeatureCounts,
  type ServiceOverviewItem,
  type ServiceReplica,
  type ServiceState,
  type ServiceStats,
  type ServiceStatusDetail,
} from '@debesis/contract';
import {
  applyStatus,
  availableActions,
  daysLeft,
  display,
  expiryWarning,
  terminatesAt,
  uptimeSeconds,
} from './lifecycle.ts';
import { storageBytes } from './placement.ts';
import type { ServiceListRow, ServiceRow } from './services.queries.ts';

/** A service whose features count nothing (users and groups are always counted). */
export const NO_COUNTS: ServiceFeatureCounts = { users_active: 0, groups: 0 };

export function presentState(row: ServiceListRow, now: Date): ServiceState {
  const shown = display(row, now);
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    run_state: row.runState,
    display_state: shown.state,
    display_reason: shown.reason,
    apply_status: applyStatus(row),
  };
}

/** The fields of an overview item that move with the clock; the rest follow from the row alone. */
export type OverviewTimedFields = Pick<
  ServiceOverviewItem,
  'uptime' | 'display_state' | 'display_reason' | 'expiry_warning' | 'days_left'
> & { replica_state: ReplicaState };

/**
 * The second copy's state (replicas.ts): none without a standby, syncing before its first
 * replica, behind once its newest is older than REPLICA_BEHIND_AFTER_MS.
 */
export function replicaState(
  row: Pick<ServiceListRow, 'standbyNodeId' | 'replicaTakenAt'>,
  now: Date,
): ReplicaState {
  if (row.standbyNodeId === null) return 'none';
  if (row.replicaTakenAt === null) return 'syncing';
  return now.getTime() - row.replicaTakenAt.getTime() > REPLICA_BEHIND_AFTER_MS ? 'behind' : 'in_sync';
}

export function presentReplica(
  row: Pick<ServiceListRow, 'standbyNodeId' | 'replicaTakenAt'>,
  state: ReplicaState,
  standbyName: string | null,
): ServiceReplica {
  return {
    state,
    node: state === 'none' ? null : standbyName,
    last_in_sync_at: row.replicaTakenAt?.toISOString() ?? null,
  };
}

/**
 * The only part of an overview item given the time: an answer kept for rows that have not
 * changed is still right while these come out the same (services.service.ts overviewForSession).
 */
export function overviewTimedFields(row: ServiceListRow, now: Date): OverviewTimedFields {
  const shown = display(row, now);
  return {
    uptime: uptimeSeconds(row, now),
    display_state: shown.state,
    display_reason: shown.reason,
    expiry_warning: expiryWarning(row, now),
    days_left: daysLeft(row, now),
    replica_state: replicaState(row, now),
  };
}

export function sameTimedFields(a: OverviewTimedFields, b: OverviewTimedFields): boolean {
  return (
    a.uptime === b.uptime &&
    a.display_state === b.display_state &&
    a.display_reason === b.display_reason &&
    a.expiry_warning === b.expiry_warning &&
    a.days_left === b.days_left &&
    a.replica_state === b.replica_state
  );
}

/** An overview item: `timed` is overviewTimedFields of the row at the time it is shown. */
export function presentOverviewItem(
  row: ServiceListRow,
  planName: string,
  counts: ServiceFeatureCounts,
  timed: OverviewTimedFields,
  /** The standby's node name, when it has one. */
  standbyName: string | null = null,
): ServiceOverviewItem {
  const deletion = terminatesAt(row);
  return {
    id: row.id,
    order_id: row.orderId,
    name: row.name,
    plan: planName,
    product_id: row.productId,
    period_id: row.periodId,
    status: row.status,
    valid_until: row.validUntil.toISOString(),
    ip_address: row.address,
    disk_space: row.diskSpace,
    disk_usage: row.diskUsedBytes,
    file_usage: row.fileCount,
    // Each feature's counts; a feature not used leaves its own out.
    ...counts,
    // Users the plan allows: "users active/total" reads as used of allowed.
    users_total: row.usersCount,
    monthly_price: row.monthlyPriceMinor,
    uptime: timed.uptime,
    description: row.description,
    run_state: row.runState,
    display_state: timed.display_state,
    display_reason: timed.display_reason,
    apply_status: applyStatus(row),
    actions: availableActions(row),
    expiry_warning: timed.expiry_warning,
    days_left: timed.days_left,
    terminates_at: deletion?.toISOString() ?? null,
    replica: presentReplica(row, timed.replica_state, standbyName),
    auto_renew: row.autoRenew,
  };
}

export function presentStatus(row: ServiceRow, nodeOnline: boolean | null, now: Date): ServiceStatusDetail {
  return {
    ...presentState(row, now),
    generation: row.generation,
    observed_generation: row.observedGeneration,
    placed: row.nodeId !== null,
    node_online: nodeOnline,
    drivers: row.drivers.map((driver) => ({
      driver: driver.driver,
      live: driver.live,
      reason: driver.reason ?? null,
    })),
    failures: row.failures.map((failure) => ({
      kind: failure.kind,
      name: failure.name,
      error: withoutNodePaths(failure.error),
    })),
    last_error: withoutNodePaths(row.lastError),
    reported_at: row.reportedAt?.toISOString() ?? null,
    started_at: row.startedAt?.toISOString() ?? null,
    uptime: uptimeSeconds(row, now),
  };
}

export function presentStats(row: ServiceRow, counts: ServiceFeatureCounts, now: Date): ServiceStats {
  const total = storageBytes(row.diskSpace);
  return {
    id: row.id,
    disk_space_bytes: total,
    disk_used_bytes: row.diskUsedBytes,
    disk_used_percent:
      row.diskUsedBytes === null ? null : Math.round((row.diskUsedBytes / total) * 1000) / 10,
    file_count: row.fileCount,
    ...counts,
    users_total: row.usersCount,
    bandwidth_gb: row.diskSpace * 2,
    uptime: uptimeSeconds(row, now),
    started_at: row.startedAt?.toISOString() ?? null,
    reported_at: row.reportedAt?.toISOString() ?? null,
    valid_until: row.validUntil.toISOString(),
    days_left: daysLeft(row, now),
  };
}

export function presentConfig(row: ServiceRow): ServiceConfig {
  return {
    name: row.name,
    description: row.description,
    expiry_reminders: row.expiryReminders,
    auto_renew: row.autoRenew,
  };
}
