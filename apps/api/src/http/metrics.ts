// Operators' metrics in Prometheus text format: requests and their latency (counted in process),
// the Node process (prom-client's defaults), and the database's picture read at each scrape
// (nodes, services by status, jobs by queue and state, how long the last hour's applies took).
// Served only when asked for: at GET /metrics on the main listener behind METRICS_TOKEN, and/or
// on a listener of its own (METRICS_PORT, on METRICS_HOST) without a token. Each app has its own
// registry, so several apps in one process (the tests) do not share counters.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { SERVICE_STATUSES } from '@debesis/contract';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { JOB_NAMES } from '../jobs/job-map.ts';
import { jobCounts } from '../jobs/queue.ts';
import { recentApplyDurations } from '../modules/monitoring/apply-durations.ts';
import { servicesByStatus } from '../modules/services/service-counts.ts';
import { AppError } from './app-error.ts';

/** What the gauges read at each scrape. */
export interface MetricsSources {
  /** Nodes known and those online (NODE_OFFLINE_AFTER_MS), as the health report counts them. */
  nodeSummary(): Promise<{ total: number; online: number }>;
  /** Services per status, and how many placed ones wait for their node to apply a change. */
  servicesByStatus(): Promise<{ byStatus: Array<{ status: string; count: number }>; changesPending: number }>;
  /** pg-boss jobs per queue and state. */
  jobsByState(): Promise<Array<{ queue: string; state: string; count: number }>>;
  /** How long the applies of the last hour took (seconds), from asking to the node's report. */
  applyDurations(): Promise<{ p50: number | null; p95: number | null; count: number }>;
}

/** pg-boss 10's job states (its `job_state` type). */
const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
/** The route label of a request no route matched (the web app's pages, unknown paths). */
const UNMATCHED_ROUTE = 'unmatched';

/** The reads, each from the module that owns the table. */
export function metricsQueries(database: Database, now: () => Date): Omit<MetricsSources, 'nodeSummary'> {
  return {
    servicesByStatus: () => servicesByStatus(database.db),
    jobsByState: () => jobCounts(database),
    applyDurations: () => recentApplyDurations(database.db, now()),
  };
}

export interface Metrics {
  readonly registry: Registry;
  /** Counts one answered request. */
  observe(request: FastifyRequest, statusCode: number, elapsedMs: number): void;
  /** The text a scrape gets, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * One read shared by the gauges of one scrape: prom-client collects every metric at once, so
 * the gauges that show one query's columns start it once between them.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  return () => {
    running ??= read().finally(() => {
      running = null;
    });
    return running;
  };
}

export function createMetrics(deps: { sources: MetricsSources }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'debesis_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'debesis_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // A failed read fails the scrape (Prometheus then shows the target down) rather than showing
  // a zero that would read as "no nodes online".
  const nodeSummary = perScrape(() => deps.sources.nodeSummary());
  const servicesByStatus = perScrape(() => deps.sources.servicesByStatus());

  new Gauge({
    name: 'debesis_nodes',
    help: 'Storage nodes registered',
    registers: [registry],
    async collect() {
      this.set((await nodeSummary()).total);
    },
  });
  new Gauge({
    name: 'debesis_nodes_online',
    help: 'Storage nodes whose agent reported within the last minute',
    registers: [registry],
    async collect() {
      this.set((await nodeSummary()).online);
    },
  });
  new Gauge({
    name: 'debesis_services',
    help: 'Services (workspaces) by status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { byStatus } = await servicesByStatus();
      this.reset();
      for (const status of SERVICE_STATUSES) this.set({ status }, 0);
      for (const row of byStatus) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'debesis_services_changes_pending',
    help: 'Placed services whose node has not yet applied their newest desired-state generation',
    registers: [registry],
    async collect() {
      this.set((await servicesByStatus()).changesPending);
    },
  });
  const applies = perScrape(() => deps.sources.applyDurations());
  new Gauge({
    name: 'debesis_apply_duration_seconds',
    help: 'How long nodes took to apply the changes of the last hour, from asking to their report (quantile 0.5, 0.95)',
    labelNames: ['quantile'] as const,
    registers: [registry],
    async collect() {
      const { p50, p95 } = await applies();
      this.reset();
      if (p50 !== null) this.set({ quantile: '0.5' }, p50);
      if (p95 !== null) this.set({ quantile: '0.95' }, p95);
    },
  });
  new Gauge({
    name: 'debesis_applies_last_hour',
    help: 'Changes nodes applied in the last hour',
    registers: [registry],
    async collect() {
      this.set((await applies()).count);
    },
  });
  new Gauge({
    name: 'debesis_jobs',
    help: 'Background jobs by queue and state (completed ones until pg-boss archives them)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const rows = await deps.sources.jobsByState();
      this.reset();
      for (const queue of JOB_NAMES) for (const state of JOB_STATES) this.set({ queue, state }, 0);
      for (const row of rows) this.set({ queue: row.queue, state: row.state }, row.count);
    },
  });

  return {
    registry,
    observe(request, statusCode, elapsedMs) {
      // The route pattern (`/api/v1/services/:id`), never the URL: ids would make a series each.
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status: `${Math.floor(statusCode / 100)}xx`,
      };
      requests.inc(labels);
      latency.observe(labels, elapsedMs / 1000);
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

const metricsOfApp = new WeakMap<FastifyInstance, Metrics>();

/** Compares in constant time (both sides hashed first, so their lengths say nothing either). */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer (.+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * Counts every request of the app; with `token`, serves GET /metrics on the app's own listener to
 * callers bearing it (the route is public to the access plugin: the token is its guard, not a
 * session; it is left out of the OpenAPI document, which describes the API).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { metrics: Metrics; token?: string }) => {
    const { metrics, token } = options;
    metricsOfApp.set(app, metrics);
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observe(request, reply.statusCode, reply.elapsedTime);
      done();
    });
    if (token === undefined) return;
    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const given = bearerOf(request);
      if (given === null || !sameToken(given, token)) {
        throw new AppError('unauthorized', { headers: { 'www-authenticate': 'Bearer realm="metrics"' } });
      }
      const { contentType, body } = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  },
);

/** Logs a scrape only when it fails (Fastify's error log): one line every few seconds would fill the log. */
class FailuresOnly extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
}

/**
 * The listener of its own for METRICS_PORT: GET /metrics without a token, nothing else. It is
 * meant for a private address (METRICS_HOST), so no session, CSRF or rate-limit machinery.
 */
export async function listenForMetrics(
  app: FastifyInstance,
  options: { host: string; port: number; logger?: FastifyBaseLogger },
): Promise<{ server: FastifyInstance; address: string }> {
  const metrics = metricsOfApp.get(app);
  if (!metrics) throw new Error('listenForMetrics: the app keeps no metrics (set METRICS_PORT)');
  const server = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new FailuresOnly(),
  });
  server.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
  const address = await server.listen({ host: options.host, port: options.port });
  return { server, address };
}
