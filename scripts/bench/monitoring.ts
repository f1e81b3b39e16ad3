// Monitoring's figures of issue 21 (acceptance 4):
// - GET /monitoring/services/{id}/activity?hours=168 (and the other windows) with 1,000,000 events
//   of that service in the database: latency p50/p95/p99 of 400 requests, one at a time (what one
//   owner's page waits) and 4 at a time (the product's one process shared). Target:
//   p95 under 50 ms on PostgreSQL. Needs DATABASE_URL (a PostgreSQL server): the bench makes a
//   database of its own there, fills it with SQL (generate_series, then the hourly rollup the API
//   keeps, as reports would have built it) and drops it afterwards. On PGlite it is skipped.
// - the agent's cost of collecting activity: CPU time per 1,000 events, read from a Samba audit
//   log of 100,000 lines (each a write, rename, delete or folder) through the agent's own pass
//   (collectActivity: the samba driver's reader, the spool, the report's share, the ack).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { collectActivity, createDefaultDrivers, silentLogger, workspaceLayout } from '@debesis/agent';
import type { WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import { startProduct } from '../lib/processes.ts';
import { buyWorkspace, cheapestPlan, customerApi } from '../lib/workspace-api.ts';

const EVENTS = 1_000_000;
const REQUESTS = 400;
const IN_FLIGHT = 4;
const AUDIT_LINES = 100_000;

export interface WindowFigure {
  label: string;
  /** Requests in flight at once. */
  inFlight: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  bytes: number;
}

export interface MonitoringFigures {
  skipped?: string;
  fillSeconds?: number;
  windows: WindowFigure[];
  collect: { events: number; cpuMs: number; wallMs: number; cpuMsPer1000: number };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function timeRequests(
  url: string,
  authorization: string,
  inFlight: number,
): Promise<Omit<WindowFigure, 'label'>> {
  const times: number[] = [];
  let bytes = 0;
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const started = performance.now();
      const response = await fetch(url, { headers: { authorization } });
      const body = await response.text();
      times.push(performance.now() - started);
      if (!response.ok) throw new Error(`${url}: ${response.status} ${body}`);
      bytes = body.length;
    }
  };
  // Warm-up: plans and caches, not measured.
  for (let index = 0; index < 20; index += 1)
    await fetch(url, { headers: { authorization } }).then((r) => r.text());
  await Promise.all(Array.from({ length: inFlight }, worker));
  const sorted = times.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    inFlight,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    bytes,
  };
}

async function measureWindows(): Promise<Pick<MonitoringFigures, 'skipped' | 'fillSeconds' | 'windows'>> {
  const server = process.env.DATABASE_URL;
  if (!server) return { skipped: 'needs DATABASE_URL (a PostgreSQL server)', windows: [] };
  const name = `debesis_bench_monitoring_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const product = await startProduct({ DATABASE_URL: url.toString() });
  try {
    const [email = ''] = await createVerifiedAccounts(product.url, product.dataDir, 1);
    const token = (await signInTokens(product.url, email)).access_token;
    const api = await customerApi(product.url, token);
    const workspace = await buyWorkspace(api, (await cheapestPlan(product.url)).order, 'bench-monitoring', {
      withinMs: 120_000,
    });

    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const filling = performance.now();
    // A week of a busy workspace: 20 users, every source and kind, a file path each, stored in
    // the order they happened (as reports bring them: the newest are the newest rows).
    await db.query(
      `INSERT INTO monitoring_events (service_id, at, source, kind, username, path, bytes, remote_address, node_key)
       SELECT $1, now() - interval '7 days' * (1 - g::float8 / $2), g % 6, g % 13, 'user' || (g % 20),
              '/shares/docs/folder-' || (g % 500) || '/file-' || g || '.txt', g % 100000,
              '198.51.100.' || (g % 250), 'bench:' || g
       FROM generate_series(1, $2::int) AS g`,
      [workspace.id, EVENTS],
    );
    // The rollups, as the API keeps them from the reports (monitoring.report.ts).
    const hour = `date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
    await db.query(
      `INSERT INTO monitoring_activity_hours (service_id, hour, source, kind, events, bytes)
       SELECT service_id, ${hour}, source, kind, count(*), coalesce(sum(bytes), 0)
       FROM monitoring_events WHERE service_id = $1 GROUP BY 1, 2, 3, 4`,
      [workspace.id],
    );
    await db.query(
      `INSERT INTO monitoring_user_hours (service_id, hour, username, events, bytes)
       SELECT service_id, ${hour}, username, count(*), coalesce(sum(bytes), 0)
       FROM monitoring_events WHERE service_id = $1 AND username IS NOT NULL GROUP BY 1, 2, 3`,
      [workspace.id],
    );
    await db.query(
      `INSERT INTO monitoring_user_kind_hours (service_id, username, hour, source, kind, events, bytes)
       SELECT service_id, username, ${hour}, source, kind, count(*), coalesce(sum(bytes), 0)
       FROM monitoring_events WHERE service_id = $1 AND username IS NOT NULL GROUP BY 1, 2, 3, 4, 5`,
      [workspace.id],
    );
    await db.query('VACUUM ANALYZE monitoring_user_hours');
    await db.query('VACUUM ANALYZE monitoring_user_kind_hours');
    await db.query('VACUUM ANALYZE monitoring_activity_hours');
    await db.query('VACUUM ANALYZE monitoring_events');
    const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;
    await db.end();

    const base = `${product.url}/api/v1/monitoring/services/${workspace.id}/activity`;
    const authorization = `Bearer ${token}`;
    const windows: WindowFigure[] = [];
    for (const [label, query] of [
      ['activity?hours=168 (a week)', 'hours=168'],
      ['activity?hours=24', 'hours=24'],
      ['activity?minutes=100 (real time)', 'minutes=100'],
      ['activity?hours=168&user=user7', 'hours=168&user=user7'],
      ['activity?hours=168&kind=file_deleted', 'hours=168&kind=file_deleted'],
    ] as const)
      for (const inFlight of [1, IN_FLIGHT])
        windows.push({ label, ...(await timeRequests(`${base}?${query}`, authorization, inFlight)) });
    return { fillSeconds, windows };
  } finally {
    await product.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function measureCollect(): Promise<MonitoringFigures['collect']> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-activity-'));
  try {
    const serviceId = 'bench-activity';
    const workspaceDir = path.join(dataDir, 'workspaces', serviceId);
    const layout = workspaceLayout(workspaceDir);
    await mkdir(layout.samba.logDir, { recursive: true });
    const ops = [
      (i: number) => `openat|ok|w|/srv/shares/docs/file-${i}.txt`,
      (i: number) => `renameat|ok|/srv/shares/docs/file-${i}.txt|/srv/shares/docs/renamed-${i}.txt`,
      (i: number) => `unlinkat|ok|/srv/shares/docs/renamed-${i}.txt`,
      (i: number) => `mkdirat|ok|/srv/shares/docs/folder-${i}`,
    ];
    const lines = Array.from(
      { length: AUDIT_LINES },
      (_, i) =>
        `[2026/11/29 10:00:00.${String(i % 1_000_000).padStart(6, '0')},  1]   user${i % 20}|198.51.100.7|${ops[i % 4]!(i)}`,
    );
    await writeFile(layout.samba.auditLog, lines.join('\n') + '\n');
    const desired = { service_id: serviceId, state: 'running', id_base: 1_000_000 } as WorkspaceDesiredState;
    const report: WorkspaceReport = {
      service_id: serviceId,
      observed_generation: 1,
      ok: true,
      drivers: [],
      failures: [],
    };
    const drivers = createDefaultDrivers({ live: false }).filter((driver) => driver.name === 'samba');
    const context = {
      dataDir,
      workspaceDir,
      logger: silentLogger,
      run: () => Promise.reject(new Error('no programs here')),
    };
    const cpu = process.cpuUsage();
    const started = performance.now();
    let events = 0;
    for (let pass = 0; pass < 1000; pass += 1) {
      const collected = await collectActivity({ drivers, logger: silentLogger }, desired, report, context);
      const sent = collected.report.features?.monitoring?.events.length ?? 0;
      await collected.ack();
      events += sent;
      if (sent === 0) break;
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    return {
      events,
      cpuMs: Math.round(cpuMs),
      wallMs: Math.round(performance.now() - started),
      cpuMsPer1000: Math.round((cpuMs / events) * 1000 * 10) / 10,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function measureMonitoring(): Promise<MonitoringFigures> {
  const collect = await measureCollect();
  return { ...(await measureWindows()), collect };
}

export function printMonitoring(figures: MonitoringFigures) {
  console.log(
    `\nMonitoring: activity windows with ${EVENTS.toLocaleString('en-US')} events of one service (PostgreSQL)`,
  );
  if (figures.skipped) console.log(`  skipped: ${figures.skipped}`);
  else {
    console.log(
      `  filled in ${figures.fillSeconds} s; ${REQUESTS} requests each, one at a time and ${IN_FLIGHT} at a time`,
    );
    console.log('| what | in flight | p50 | p95 | p99 | answer |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const w of figures.windows)
      console.log(
        `| ${w.label} | ${w.inFlight} | ${w.p50Ms} ms | ${w.p95Ms} ms | ${w.p99Ms} ms | ${(w.bytes / 1024).toFixed(1)} KiB |`,
      );
  }
  const { collect } = figures;
  console.log(
    `  the agent collecting activity: ${collect.events.toLocaleString('en-US')} events from a Samba audit log in ` +
      `${collect.wallMs} ms, ${collect.cpuMs} ms CPU: ${collect.cpuMsPer1000} ms CPU per 1,000 events`,
  );
}
