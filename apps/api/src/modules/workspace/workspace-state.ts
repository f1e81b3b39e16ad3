// The node's side of a service (ARCHITECTURE "Desired state and the agent"): what each node
// should run, composed from the lifecycle (state, address, size, id block) and the sections of
// the registered workspace features, and what its agent reports back. A node hears about, and
// may report on, only the services placed on it, those it keeps the standby copy of (replicas.ts:
// the same workspace with `role: 'standby'`; its report stores only its replica) and those it
// must delete (departures: `state: 'removed'`, done once it reports that generation applied).
// Anything else in its report is ignored (fencing: a node that lost a workspace changes nothing
// of it), and so are failures of a kind no registered feature claims. What a workspace's features observed (its
// report's `features`: VPN sessions, traffic) goes to the feature of each section.
import type { FastifyBaseLogger } from 'fastify';
import {
  isWorkspaceErrorCode,
  type WorkspaceDesiredState,
  type WorkspaceFeatureSections,
  type WorkspaceReport,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { createNodeCopies, type DepartureRow } from '../replicas/node-copies.ts';
import { createGenerationCache } from '../services/generation-cache.ts';
import { workspaceState } from '../services/lifecycle.ts';
import { storageBytes } from '../services/placement.ts';
import type { ServiceNotifier } from '../services/services.notifier.ts';
import {
  createWorkspaceRows,
  type ServiceRow,
  type WorkspaceReportValues,
} from '../services/workspace-rows.ts';
import { addressKindOf, type FeatureRegistry, type PlanFacts } from './workspace-feature.ts';

/** What a report says of a workspace's storage, for the plan changes waiting for a shrink. */
export interface StorageReport {
  serviceId: string;
  /** The size the storage has now; null when the node's storage has no size limit. */
  storageBytes: number | null;
  /** A shrink to this many bytes was refused because the data does not fit. */
  refusedBytes: number | null;
  reason: string | null;
}

function storageOf(report: WorkspaceReport): StorageReport | null {
  // Only a measured report says anything of the storage (a failed one before mounting does not).
  if (!report.facts) return null;
  const storage = report.drivers.find((driver) => driver.driver === 'storage');
  return {
    serviceId: report.service_id,
    storageBytes: report.facts.storage_bytes ?? null,
    refusedBytes: storage?.refused_bytes ?? null,
    reason: storage?.reason ?? null,
  };
}

const MAX_LOGGED_ERROR = 1000;

type Sections = Partial<WorkspaceFeatureSections>;

function parseTime(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function valuesOf(
  report: WorkspaceReport,
  at: Date,
  known: (kind: string) => boolean,
): WorkspaceReportValues {
  return {
    observedGeneration: report.observed_generation,
    // A failure no feature here claims has nothing to show it (an agent ahead of its API).
    failures: report.failures.filter((failure) => known(failure.kind)),
    drivers: report.drivers,
    lastError: report.ok ? null : (report.error ?? 'the node could not apply the workspace'),
    facts: report.facts
      ? {
          diskUsedBytes: report.facts.disk_used_bytes,
          fileCount: report.facts.file_count,
          startedAt: parseTime(report.facts.started_at),
          storageBytes: report.facts.storage_bytes ?? null,
        }
      : null,
    at,
  };
}

/** JSON with object keys sorted: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * Whether the report says anything the row does not already hold (the time aside). Agents report
 * every few seconds and mostly repeat themselves; only a change is written.
 */
function changes(row: ServiceRow, values: WorkspaceReportValues): boolean {
  if (row.observedGeneration !== values.observedGeneration || row.lastError !== values.lastError) return true;
  if (canonical(row.failures) !== canonical(values.failures)) return true;
  if (canonical(row.drivers) !== canonical(values.drivers)) return true;
  const facts = values.facts;
  if (!facts) return false;
  return (
    row.diskUsedBytes !== facts.diskUsedBytes ||
    row.fileCount !== facts.fileCount ||
    row.storageBytes !== facts.storageBytes ||
    (row.startedAt?.getTime() ?? null) !== (facts.startedAt?.getTime() ?? null)
  );
}

export function createWorkspaceState(deps: {
  db: Db;
  features: Pick<FeatureRegistry, 'desiredSections' | 'featureOfFailure' | 'storeReports'>;
  plans: PlanFacts;
  notifier: Pick<ServiceNotifier, 'ready'>;
  /** Told what each reported workspace's storage is now (downgrades wait for their shrink). */
  storageReported?: (reports: StorageReport[], at: Date) => Promise<void>;
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const queries = createWorkspaceRows(deps.db);
  const copies = createNodeCopies(deps.db);
  // Agents pull every few seconds and the sections cost a handful of queries per workspace,
  // while they change only with the service's generation.
  const cache = createGenerationCache<Sections>();
  const known = (kind: string) => deps.features.featureOfFailure(kind) !== undefined;

  async function sectionsOf(row: ServiceRow, idBase: number, publicAddress: boolean): Promise<Sections> {
    const cached = cache.get(row.id, row.generation);
    if (cached) return cached;
    const sections = await deps.features.desiredSections({ serviceId: row.id, idBase, publicAddress });
    cache.set(row.id, row.generation, sections);
    return sections;
  }

  /** A move stops the primary before its final sync (modules/replicas). */
  function stateOf(row: ServiceRow): WorkspaceDesiredState['state'] {
    const state = workspaceState(row);
    const stopping = row.movePhase === 'stopping' || row.movePhase === 'final_sync';
    return stopping && state === 'running' ? 'stopped' : state;
  }

  /** What a node's role adds: a standby's sync token, a primary's right to be failed over. */
  function roleFields(row: ServiceRow, role: 'primary' | 'standby'): Partial<WorkspaceDesiredState> {
    if (role === 'standby')
      return {
        role,
        ...(row.movePhase === 'final_sync' && row.moveSyncToken ? { sync_token: row.moveSyncToken } : {}),
      };
    return row.standbyNodeId !== null && row.replicaTakenAt !== null ? { failover: true } : {};
  }

  /** A copy the node must delete: nothing but where it was. */
  function departed(departure: DepartureRow): WorkspaceDesiredState {
    return {
      service_id: departure.serviceId,
      generation: departure.generation,
      state: 'removed',
      address: departure.address,
      storage_bytes: storageBytes(departure.diskSpace),
      id_base: departure.idBase,
      users: [],
      groups: [],
    };
  }

  async function desired(
    row: ServiceRow,
    role: 'primary' | 'standby' = 'primary',
  ): Promise<WorkspaceDesiredState | null> {
    if (row.address === null || row.idBase === null) return null;
    const state = stateOf(row);
    // A workspace being deleted needs no users or features; the agent only removes it.
    const publicAddress = await deps.plans.publicAddress(row.productId);
    const sections = state === 'removed' ? {} : await sectionsOf(row, row.idBase, publicAddress);
    return {
      service_id: row.id,
      generation: row.generation,
      state,
      address: row.address,
      // A NAT plan's address is its VPN's door only: the agent binds every other daemon inside.
      address_kind: addressKindOf(publicAddress),
      storage_bytes: storageBytes(row.diskSpace),
      id_base: row.idBase,
      ...roleFields(row, role),
      users: [],
      groups: [],
      ...sections,
      ...(row.restartGeneration !== null ? { restart_token: String(row.restartGeneration) } : {}),
    };
  }

  /**
   * The agent's line in the service's log when the applied generation or the error changes: a
   * code (NODE_LOG_CODES) with its params, shown in the owner's language; `message` keeps it in
   * plain English, the node's own words for a failure.
   */
  async function logOutcome(row: ServiceRow, values: WorkspaceReportValues, report: WorkspaceReport) {
    const base = { serviceId: row.id, accountId: row.accountId, createdAt: values.at };
    const notLive = values.drivers.filter((driver) => !driver.live).map((driver) => driver.driver);
    if (values.lastError && values.lastError !== row.lastError) {
      const detail = values.lastError.slice(0, MAX_LOGGED_ERROR);
      await queries.insertEvent({
        ...base,
        level: 'error',
        code: isWorkspaceErrorCode(report.error_code) ? report.error_code : 'apply_failed',
        message: detail,
        details: {
          ...(isWorkspaceErrorCode(report.error_code) ? report.error_params : {}),
          detail,
          generation: row.generation,
          observed_generation: values.observedGeneration,
        },
      });
    } else if (!values.lastError && (values.observedGeneration !== row.observedGeneration || row.lastError)) {
      await queries.insertEvent({
        ...base,
        level: row.lastError ? 'success' : 'info',
        code: row.lastError ? 'recovered' : 'generation_applied',
        message: `${row.lastError ? 'recovered: ' : ''}applied generation ${values.observedGeneration}`,
        details: {
          generation: values.observedGeneration,
          failures: values.failures.length,
          ...(notLive.length > 0 ? { not_live: notLive } : {}),
        },
      });
    }
  }

  /**
   * A report of a copy that is not the node's primary: a standby's replica is stored (the rest of
   * its report says nothing of the service), a departed copy reported deleted at its generation is
   * done with; anything else is another node's business and changes nothing.
   */
  async function applyCopyReport(
    nodeId: string,
    report: WorkspaceReport,
    standbys: Map<string, ServiceRow>,
    departures: Map<string, DepartureRow>,
  ): Promise<void> {
    if (standbys.has(report.service_id)) {
      standbys.delete(report.service_id);
      const replica = report.features?.replica;
      if (replica) await copies.storeReplica(report.service_id, nodeId, replica);
      return;
    }
    const departure = departures.get(report.service_id);
    if (!departure || !report.ok || report.observed_generation < departure.generation) return;
    departures.delete(report.service_id);
    await copies.settleDeparture(report.service_id, nodeId, report.observed_generation);
  }

  return {
    /**
     * Every workspace placed on the node (until the node has deleted a terminated one), those it
     * keeps the standby of, and the copies it must delete.
     */
    async desiredFor(nodeId: string): Promise<WorkspaceDesiredState[]> {
      const workspaces: WorkspaceDesiredState[] = [];
      for (const row of await queries.listForNode(nodeId)) {
        const workspace = await desired(row);
        if (workspace) workspaces.push(workspace);
      }
      for (const row of await copies.standbysOn(nodeId)) {
        const workspace = await desired(row, 'standby');
        if (workspace) workspaces.push(workspace);
      }
      const listed = new Set(workspaces.map((workspace) => workspace.service_id));
      for (const departure of await copies.departuresOf(nodeId)) {
        if (!listed.has(departure.serviceId)) workspaces.push(departed(departure));
      }
      return workspaces;
    },

    /**
     * Stores what the node says of its services. A placed service whose node has applied all it
     * was asked becomes active (and the owner is told); a terminated one the node has deleted
     * lets go of its node, address and id block.
     */
    async applyReports(nodeId: string, reports: readonly WorkspaceReport[]): Promise<void> {
      if (reports.length === 0) return;
      const at = deps.now();
      const rows = new Map((await queries.listForNode(nodeId)).map((row) => [row.id, row]));
      const standbys = new Map((await copies.standbysOn(nodeId)).map((row) => [row.id, row]));
      const departures = new Map((await copies.departuresOf(nodeId)).map((row) => [row.serviceId, row]));
      const unchanged: string[] = [];
      const storage: StorageReport[] = [];
      for (const report of reports) {
        const row = rows.get(report.service_id);
        if (!row) {
          await applyCopyReport(nodeId, report, standbys, departures);
          continue;
        }
        rows.delete(report.service_id); // a service listed twice counts once
        const values = valuesOf(report, at, known);
        const storageReport = row.status === 'terminated' ? null : storageOf(report);
        if (storageReport) storage.push(storageReport);
        if (changes(row, values)) {
          await queries.recordReport(row.id, nodeId, values);
          await logOutcome(row, values, report);
        } else {
          unchanged.push(row.id);
        }
        if (row.status !== 'terminated') {
          const followUps: Array<() => Promise<void>> = [];
          await inTransaction(deps.db, (tx) =>
            deps.features.storeReports(
              tx,
              {
                serviceId: row.id,
                accountId: row.accountId,
                at,
                report,
                planBytes: storageBytes(row.diskSpace),
                afterCommit: (task) => followUps.push(task),
              },
              report.features ?? {},
            ),
          );
          for (const task of followUps) {
            await task().catch((error: unknown) =>
              deps.log?.warn({ err: error, serviceId: row.id }, 'a report follow-up failed'),
            );
          }
        }
        // Checked on every report, not only on a change: a crash between storing a report and
        // acting on it must not leave a service stuck in processing.
        const appliedAll = values.observedGeneration >= row.generation && values.lastError === null;
        if (!appliedAll) continue;
        if (row.status === 'processing') {
          const activated = await queries.activateApplied(row.id, nodeId, at);
          if (activated) await deps.notifier.ready(activated);
        } else if (row.status === 'terminated') {
          const released = await queries.releaseRemoved(row.id, nodeId, at);
          if (released) {
            await queries.insertEvent({
              serviceId: row.id,
              accountId: row.accountId,
              level: 'warning',
              code: 'data_deleted',
              message: 'data deleted from the node',
              details: { address: row.address },
              createdAt: at,
            });
          }
        }
      }
      await queries.touchReported(nodeId, unchanged, at);
      if (storage.length > 0 && deps.storageReported) await deps.storageReported(storage, at);
    },
  };
}

export type WorkspaceStateService = ReturnType<typeof createWorkspaceState>;
