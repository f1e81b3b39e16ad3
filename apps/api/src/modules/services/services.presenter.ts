// A service row as the owner sees it: the overview item (spec §3 fields and the lifecycle's),
// its state, its apply status, its usage. Unknowns stay null until its node reports them.
import { withoutNodePaths } from '../../http/node-error-text.ts';
import type {
  ServiceConfig,
  ServiceFeatureCounts,
  ServiceOverviewItem,
  ServiceState,
  ServiceStats,
  ServiceStatusDetail,
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

export function presentOverviewItem(
  row: ServiceListRow,
  planName: string,
  counts: ServiceFeatureCounts,
  now: Date,
): ServiceOverviewItem {
  const deletion = terminatesAt(row);
  const shown = display(row, now);
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
    uptime: uptimeSeconds(row, now),
    description: row.description,
    run_state: row.runState,
    display_state: shown.state,
    display_reason: shown.reason,
    apply_status: applyStatus(row),
    actions: availableActions(row),
    expiry_warning: expiryWarning(row, now),
    days_left: daysLeft(row, now),
    terminates_at: deletion?.toISOString() ?? null,
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
  return { name: row.name, description: row.description, expiry_reminders: row.expiryReminders };
}
