// Health of the parts a request depends on. The database being down makes the whole service
// down; a stuck queue or no online storage node makes it degraded (sign-in still works, new
// workspaces wait).
import type { HealthResponse } from '@debesis/contract';

export interface HealthDependencies {
  databaseKind: 'pglite' | 'postgres';
  pingDatabase: () => Promise<void>;
  pendingJobs: () => Promise<number>;
  nodeSummary: () => Promise<{ total: number; online: number }>;
  version: string;
  startedAt: number;
  /** How long one measurement answers every caller; 0 measures on every call. */
  maxAgeMs: number;
}

async function timed<T>(probe: () => Promise<T>): Promise<{ value?: T; error?: string; latency: number }> {
  const start = performance.now();
  try {
    const value = await probe();
    return { value, latency: Math.round((performance.now() - start) * 100) / 100 };
  } catch (error) {
    return {
      error: error instanceof Error ? error.message : String(error),
      latency: Math.round((performance.now() - start) * 100) / 100,
    };
  }
}

export function createHealthService(deps: HealthDependencies) {
  // Load balancers and monitors poll health often and at once. One measurement (three queries)
  // answers every caller for maxAgeMs, including callers that arrive while it runs, so polling
  // can never crowd out customers' requests on the database. `checked_at` says how old it is.
  let latest: { at: number; report: Promise<HealthResponse> } | undefined;

  async function runCheck(): Promise<HealthResponse> {
    const [database, jobs, nodes] = await Promise.all([
      timed(deps.pingDatabase),
      timed(deps.pendingJobs),
      timed(deps.nodeSummary),
    ]);
    const databaseOk = database.error === undefined;
    const jobsOk = jobs.error === undefined;
    const online = nodes.value?.online ?? 0;
    const status = !databaseOk ? 'down' : jobsOk && online > 0 ? 'ok' : 'degraded';
    return {
      status,
      version: deps.version,
      checked_at: new Date().toISOString(),
      uptime_s: Math.round((Date.now() - deps.startedAt) / 1000),
      database: {
        kind: deps.databaseKind,
        status: databaseOk ? 'ok' : 'down',
        latency_ms: database.latency,
        ...(database.error ? { detail: database.error } : {}),
      },
      jobs: {
        status: jobsOk ? 'ok' : 'down',
        latency_ms: jobs.latency,
        detail: jobsOk ? `${jobs.value ?? 0} pending` : (jobs.error ?? 'unavailable'),
      },
      nodes: {
        status: online > 0 ? 'ok' : 'degraded',
        total: nodes.value?.total ?? 0,
        online,
        ...(nodes.error ? { detail: nodes.error } : online === 0 ? { detail: 'no storage node online' } : {}),
      },
    };
  }

  return {
    check(): Promise<HealthResponse> {
      const now = Date.now();
      if (!latest || now - latest.at >= deps.maxAgeMs) latest = { at: now, report: runCheck() };
      return latest.report;
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
