// What the owner reads of monitoring (contract monitoring.ts): activity, quota, tasks, alerts and
// status. Every read starts from a service or a user the caller owns: another account's id is a
// 404, like everywhere else.
import {
  NODE_UNREACHABLE_SECONDS,
  type ActivityEvent,
  type ActivityQuery,
  type ActivityResponse,
  type Alert,
  type AlertKind,
  type AlertLevel,
  type MonitoringStatusResponse,
  type ServiceQuotaResponse,
  type Task,
  type TaskState,
  type UserQuotaResponse,
} from '@debesis/contract';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/app-error.ts';
import { withoutNodePaths } from '../../http/node-error-text.ts';
import { backupTasks } from '../backups/backup-tasks.ts';
import { createDirectoryReader } from '../directory/directory.reader.ts';
import { nodeSeen } from '../nodes/online-nodes.ts';
import { storageBytes } from '../services/placement.ts';
import type { WorkspaceChanges } from '../workspace/workspace-change.ts';
import { activityWindow, cursorOf, fillBuckets, parseCursor } from './activity-window.ts';
import { kindCode, kindOf, sourceCode, sourceOf } from './monitoring.codes.ts';
import {
  createMonitoringQueries,
  type AlertRow,
  type EventFilter,
  type EventRow,
} from './monitoring.queries.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The drivers every workspace has (folder, storage, address, users): not daemons. */
const BASE_DRIVERS = new Set(['workspace-dir', 'storage', 'network', 'users']);

function presentEvent(row: EventRow): ActivityEvent[] {
  const kind = kindOf(row.kind);
  const source = sourceOf(row.source);
  if (!kind || !source) return [];
  return [
    {
      id: String(row.id),
      at: row.at.toISOString(),
      source,
      kind,
      user: row.username,
      path: row.path,
      target: row.target,
      bytes: row.bytes,
      remote_address: row.remoteAddress,
    },
  ];
}

/** An alert as the owner reads it (the alerts route, the webhook's posts). */
export function presentAlert(row: AlertRow, serviceName: string): Alert {
  return {
    id: row.id,
    kind: row.kind as AlertKind,
    level: row.level,
    service_id: row.serviceId,
    service_name: serviceName,
    subject: row.subject === '' ? null : row.subject,
    params: row.params,
    raised_at: row.raisedAt.toISOString(),
    cleared_at: row.clearedAt?.toISOString() ?? null,
  };
}

const iso = (at: Date | null) => at?.toISOString() ?? null;
const duration = (from: Date | null, to: Date | null) => (from && to ? to.getTime() - from.getTime() : null);

export function createMonitoringService(deps: {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'listOwned'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const queries = createMonitoringQueries(deps.db);
  const reader = createDirectoryReader(deps.db);

  async function ownedUser(accountId: string, userId: string) {
    const user = await reader.findAccountUser(accountId, userId);
    if (!user) throw notFound();
    return user;
  }

  async function activityOf(serviceId: string, query: ActivityQuery): Promise<ActivityResponse> {
    const window = activityWindow(query, now());
    const filter: EventFilter = {
      serviceId,
      from: window.from,
      to: window.to,
      username: query.user,
      kind: query.kind === undefined ? undefined : kindCode(query.kind),
      source: query.source === undefined ? undefined : sourceCode(query.source),
    };
    const [buckets, totals, rows] = await Promise.all([
      window.realtime
        ? queries.minuteBuckets(filter)
        : queries.hourBuckets(filter, window.bucketMs / HOUR_MS),
      window.realtime ? queries.eventTotals(filter) : queries.hourTotals(filter),
      queries.listEvents(filter, query.limit, parseCursor(query.before)),
    ]);
    const page = rows.slice(0, query.limit);
    const byKind: ActivityResponse['totals']['by_kind'] = {};
    let events = 0;
    let bytes = 0;
    for (const row of totals.kinds) {
      const kind = kindOf(row.kind);
      if (!kind) continue;
      byKind[kind] = (byKind[kind] ?? 0) + row.events;
      events += row.events;
      bytes += row.bytes;
    }
    const last = page.at(-1);
    return {
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      bucket_seconds: window.bucketMs / 1000,
      series: fillBuckets(window, buckets),
      totals: { events, bytes, by_kind: byKind },
      users: totals.users.map(({ user, events: count, bytes: moved }) => ({
        user,
        events: count,
        bytes: moved,
      })),
      events: page.flatMap(presentEvent),
      next_before: rows.length > query.limit && last ? cursorOf(last) : null,
    };
  }

  return {
    async serviceActivity(accountId: string, serviceId: string, query: ActivityQuery) {
      const service = await deps.changes.owned(accountId, serviceId);
      return activityOf(service.id, query);
    },

    async userActivity(accountId: string, userId: string, query: ActivityQuery) {
      const user = await ownedUser(accountId, userId);
      return activityOf(user.serviceId, { ...query, user: user.name });
    },

    async serviceQuota(accountId: string, serviceId: string, hours: number): Promise<ServiceQuotaResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const at = now();
      const size = service.storageBytes ?? storageBytes(service.diskSpace);
      const used = service.diskUsedBytes ?? 0;
      const [samples, usage, users] = await Promise.all([
        queries.usageSamples(service.id, new Date(at.getTime() - hours * HOUR_MS)),
        queries.userUsage(service.id),
        reader.listUsers(service.id),
      ]);
      const first = samples[0];
      const last = samples.at(-1);
      const span = first && last ? (last.hour.getTime() - first.hour.getTime()) / DAY_MS : 0;
      const growth = first && last && span > 0 ? (last.usedBytes - first.usedBytes) / span : null;
      const ids = new Map(users.map((user) => [user.name, user.id]));
      const owners = usage.filter((row) => row.username !== '');
      const other = usage.find((row) => row.username === '');
      return {
        service_id: service.id,
        size_bytes: size,
        used_bytes: used,
        free_bytes: Math.max(0, size - used),
        used_percent: size > 0 ? Math.round((used / size) * 1000) / 10 : 0,
        files: service.fileCount ?? 0,
        measured_at: iso(service.reportedAt),
        trend: samples.map((sample) => ({
          at: sample.hour.toISOString(),
          used_bytes: sample.usedBytes,
          files: sample.files,
        })),
        growth_bytes_per_day: growth === null ? null : Math.round(growth),
        full_in_days: growth !== null && growth > 0 ? Math.round(((size - used) / growth) * 10) / 10 : null,
        users:
          usage.length === 0
            ? null
            : owners.map((row) => ({
                user_id: ids.get(row.username) ?? null,
                user: row.username,
                bytes: row.bytes,
                files: row.files,
              })),
        other_bytes: other?.bytes ?? null,
        users_measured_at: iso(usage[0]?.measuredAt ?? null),
      };
    },

    async userQuota(accountId: string, userId: string): Promise<UserQuotaResponse> {
      const user = await ownedUser(accountId, userId);
      const service = await deps.changes.owned(accountId, user.serviceId);
      const row = (await queries.userUsage(user.serviceId)).find((entry) => entry.username === user.name);
      const used = service.diskUsedBytes ?? 0;
      const bytes = row?.bytes ?? 0;
      return {
        user_id: user.id,
        user: user.name,
        service_id: user.serviceId,
        bytes,
        files: row?.files ?? 0,
        used_percent: used > 0 ? Math.round((bytes / used) * 1000) / 10 : 0,
        measured_at: iso(row?.measuredAt ?? null),
      };
    },

    async tasks(
      accountId: string,
      query: { hours: number; job_id?: string | undefined; service_id?: string | undefined },
    ): Promise<Task[]> {
      const services = query.service_id
        ? [await deps.changes.owned(accountId, query.service_id)]
        : await deps.changes.listOwned(accountId);
      const byId = new Map(services.map((service) => [service.id, service]));
      const from = new Date(now().getTime() - query.hours * HOUR_MS);
      const apply = /^apply:([0-9a-f-]{36}):(\d{1,9})$/.exec(query.job_id ?? '');
      const ids = apply ? [apply[1]!].filter((id) => byId.has(id)) : [...byId.keys()];
      // A backup run's or restore's id is a UUID: any other job id names none of them.
      const wantsBackups = query.job_id === undefined || z.uuid().safeParse(query.job_id).success;
      const [applies, backups] = await Promise.all([
        query.job_id === undefined || apply
          ? queries.applies(ids, from, apply ? Number(apply[2]) : undefined)
          : Promise.resolve([]),
        wantsBackups ? backupTasks(deps.db, ids, from, query.job_id) : Promise.resolve([]),
      ]);
      const tasks: Task[] = [];
      for (const row of applies) {
        const service = byId.get(row.serviceId);
        if (!service) continue;
        const failing =
          !row.appliedAt && service.lastError !== null && service.observedGeneration < row.generation;
        const state: TaskState = row.appliedAt
          ? 'completed'
          : failing
            ? 'failed'
            : service.nodeId
              ? 'running'
              : 'queued';
        tasks.push({
          id: `apply:${row.serviceId}:${row.generation}`,
          kind: row.kind,
          state,
          service_id: row.serviceId,
          service_name: service.name,
          subject: String(row.generation),
          started_at: row.requestedAt.toISOString(),
          finished_at: iso(row.appliedAt),
          duration_ms: duration(row.requestedAt, row.appliedAt),
          error_code: failing ? 'apply_failed' : null,
          error: failing ? withoutNodePaths(service.lastError) : null,
        });
      }
      for (const row of backups) {
        const service = byId.get(row.serviceId);
        if (!service) continue;
        const started = row.startedAt ?? row.createdAt;
        tasks.push({
          id: row.id,
          kind: row.kind,
          state: row.status,
          service_id: row.serviceId,
          service_name: service.name,
          subject: row.subject,
          started_at: started.toISOString(),
          finished_at: iso(row.finishedAt),
          duration_ms: duration(row.startedAt, row.finishedAt),
          error_code: row.errorCode,
          error: withoutNodePaths(row.error),
        });
      }
      return tasks.sort((a, b) => b.started_at.localeCompare(a.started_at)).slice(0, 500);
    },

    async alerts(
      accountId: string,
      query: { hours: number; level?: AlertLevel | undefined; service_id?: string | undefined },
    ): Promise<Alert[]> {
      if (query.service_id) await deps.changes.owned(accountId, query.service_id);
      const rows = await queries.listAlerts({
        accountId,
        from: new Date(now().getTime() - query.hours * HOUR_MS),
        level: query.level,
        serviceId: query.service_id,
      });
      const names = new Map(
        (await deps.changes.listOwned(accountId)).map((service) => [service.id, service.name]),
      );
      return rows.flatMap((row) => {
        const name = names.get(row.serviceId);
        return name === undefined ? [] : [presentAlert(row, name)];
      });
    },

    async status(accountId: string, serviceId: string): Promise<MonitoringStatusResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      const at = now();
      const [node, starts, appliedAt, activeAlerts] = await Promise.all([
        service.nodeId ? nodeSeen(deps.db, service.nodeId) : Promise.resolve(undefined),
        queries.daemonStarts(service.id, new Date(at.getTime() - DAY_MS)),
        queries.lastApplied(service.id),
        queries.countOpenAlerts(service.id),
      ]);
      const daemons = service.drivers
        .filter((driver) => !BASE_DRIVERS.has(driver.driver))
        .map((driver) => {
          const state = !driver.live
            ? 'not_live'
            : driver.serving === true
              ? 'up'
              : driver.serving === false
                ? 'down'
                : 'not_needed';
          const started = state === 'up' && driver.started_at ? new Date(driver.started_at) : null;
          return {
            name: driver.driver,
            state,
            started_at: iso(started),
            uptime_seconds: started
              ? Math.max(0, Math.floor((at.getTime() - started.getTime()) / 1000))
              : null,
            starts_24h: starts.get(driver.driver) ?? 0,
            reason: driver.reason ?? null,
          } as const;
        });
      return {
        service_id: service.id,
        node: node
          ? {
              name: node.name,
              online:
                node.lastSeenAt !== null &&
                at.getTime() - node.lastSeenAt.getTime() < NODE_UNREACHABLE_SECONDS * 1000,
              last_seen_at: iso(node.lastSeenAt),
            }
          : null,
        last_apply: {
          generation: service.generation,
          observed_generation: service.observedGeneration,
          applied_at: iso(appliedAt),
          ok: service.reportedAt ? service.lastError === null : null,
          error_code: service.lastError ? 'apply_failed' : null,
        },
        daemons,
        reported_at: iso(service.reportedAt),
        active_alerts: activeAlerts,
      };
    },
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;
