// The product as an operator runs it past one machine: several API processes and a worker on one
// PostgreSQL server, and standalone agents (each its own process, data folder and address pool)
// that register with the shared registration token and call their own API process. Each process
// is started the way deploy/ starts it (`ROLES`, `API_URL`, the AGENT_* variables), can be killed
// with any signal and started again with the same settings, and logs to a file of its own.
//
// The cluster gets a database of its own on the server (created here, dropped by stop()), so
// it runs beside the other PostgreSQL suites. By default agents render their workspaces without
// making them live (AGENT_LIVE_WORKSPACES=off): what is under test is placement, convergence and
// crash safety across processes. With `live` (root) they make them for real, several agents on
// this one host: each gets AGENT_INSTANCE (its name), so the host-wide names of a workspace held by
// two of them (its network namespace, veth and runtime folder: a primary and its standby, a failed
// node's leftovers and its successor) never clash; stop() removes whatever they left.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  cpSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findLeftovers, removeLeftovers, removePoolGuardRoutes } from './live-workspaces.ts';
import { EXIT_WITH_PARENT, freePort, PRODUCT_NODE_FLAGS, ROOT, waitForHttp } from './processes.ts';

export interface AgentSpec {
  name: string;
  /** Its AGENT_ADDRESS_POOL. */
  pool: string;
}

export interface ClusterOptions {
  /** A PostgreSQL server (its `test` database or any): the cluster makes a database of its own. */
  serverUrl: string;
  /**
   * A migrated database on that server to copy the cluster's from (the API tests' template, as
   * global-setup makes it): the processes then find the schema in place instead of one of them
   * migrating an empty database while the others wait. Unset: an empty database, as a first
   * deployment meets it.
   */
  templateDatabase?: string;
  apis?: number;
  agents?: readonly AgentSpec[];
  /** AGENT_POLL_INTERVAL_MS of every agent. */
  agentPollMs?: number;
  /** Agents make their workspaces live (root, samba, btrfs, loop devices: liveWorkspacesUnavailable). */
  live?: boolean;
  /** More environment for every agent (AGENT_CLIENT_ROUTES, AGENT_REPLICA_INTERVAL_MS…). */
  agentEnv?: Record<string, string>;
  /** More environment for the APIs and the worker (BACKUP_TARGET_URL…). */
  controlEnv?: Record<string, string>;
}

export interface ClusterProcess {
  readonly name: string;
  /** The API's base URL; '' for the worker and agents. */
  readonly url: string;
  readonly running: boolean;
  /** Starts it (again, with the same settings); resolves when it answers (APIs) or has started. */
  start(): Promise<void>;
  /** Sends `signal` and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** The last lines it logged. */
  logTail(lines?: number): string;
}

export interface Cluster {
  databaseUrl: string;
  /** The control plane's DATA_DIR: mail is written to its mail/ folder. */
  dataDir: string;
  apis: ClusterProcess[];
  worker: ClusterProcess;
  agents: ClusterProcess[];
  /** Each agent's AGENT_DATA_DIR, by name. */
  agentDataDirs: Record<string, string>;
  query<T extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<T[]>;
  /** Every process's last log lines, for a failure's message. */
  logs(): string;
  /**
   * A live node's host crashes and reboots without it: its agent and every daemon it started are
   * SIGKILLed, its mounts, loop devices and workspace networks are gone; its data folder stays.
   * The agent can be started again (agents[i].start()).
   */
  crashNode(name: string): Promise<void>;
  /** A live node is lost for good: crashNode, and its data folder deleted. */
  destroyNode(name: string): Promise<void>;
  /** `npm run ops -- …args` on the cluster's database, as an operator runs it. */
  ops(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

const secret = () => randomBytes(32).toString('base64url');

function managedProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  logFile: string;
  /** For an API: its base URL, health-checked on start. */
  url?: string;
}): ClusterProcess {
  let child: ChildProcess | null = null;
  return {
    name: options.name,
    url: options.url ?? '',
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      if (this.running) return;
      const log = openSync(options.logFile, 'a');
      // Like startProduct's, each process stops once the test that started it is gone (a run
      // interrupted midway left three APIs, a worker and two agents running).
      const args = [...PRODUCT_NODE_FLAGS, '--import', 'tsx', '--import', EXIT_WITH_PARENT, options.entry];
      child = spawn(process.execPath, args, {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      if (options.url) await waitForHttp(`${options.url}/api/v1/health`, 90_000, (status) => status < 500);
    },
    kill(signal = 'SIGTERM') {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        current.once('exit', () => resolve());
        current.kill(signal);
        if (signal !== 'SIGKILL') setTimeout(() => current.kill('SIGKILL'), 15_000).unref();
      });
    },
    logTail(lines = 30) {
      try {
        return readFileSync(options.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
  };
}

/** Makes the database, starts the APIs, the worker and the agents, and waits for every node to report. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const agentSpecs = options.agents ?? [
    { name: 'node-a', pool: '198.18.20.1-198.18.20.80' },
    { name: 'node-b', pool: '198.18.21.1-198.18.21.80' },
  ];
  const databaseName = `cluster_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: options.serverUrl });
  await admin.connect();
  await admin.query(
    `CREATE DATABASE "${databaseName}"${options.templateDatabase ? ` TEMPLATE "${options.templateDatabase}"` : ''}`,
  );
  await admin.end();
  const url = new URL(options.serverUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });

  // Live: a short folder, as the product's live runs use (daemons' paths stay short).
  const root = mkdtempSync(options.live ? '/tmp/dcl-' : path.join(tmpdir(), 'debesis-cluster-'));
  const dataDir = path.join(root, 'control');
  mkdirSync(path.join(root, 'logs'), { recursive: true });
  const registrationToken = secret();
  // What every control-plane process shares: the database and the secrets (a token signed by
  // one API must be good on the other), as deploy/'s compose file and manifests give them.
  const shared = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: secret(),
    PAYMENTS_SANDBOX_SECRET: secret(),
    NODE_REGISTRATION_TOKEN: registrationToken,
    LOG_LEVEL: 'warn',
    ...options.controlEnv,
  };
  const logFile = (name: string) => path.join(root, 'logs', `${name}.log`);

  const apis: ClusterProcess[] = [];
  for (let index = 0; index < (options.apis ?? 2); index += 1) {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    apis.push(
      managedProcess({
        name: `api-${index + 1}`,
        entry: 'apps/api/src/main.ts',
        env: { ...shared, ROLES: 'api', PORT: String(port), PUBLIC_URL: apiUrl },
        logFile: logFile(`api-${index + 1}`),
        url: apiUrl,
      }),
    );
  }
  const [firstApi] = apis;
  if (!firstApi) throw new Error('a cluster needs an API process');
  const worker = managedProcess({
    name: 'worker',
    entry: 'apps/api/src/main.ts',
    env: { ...shared, ROLES: 'worker', API_URL: firstApi.url, PUBLIC_URL: firstApi.url },
    logFile: logFile('worker'),
  });
  const agentDataDirs: Record<string, string> = {};
  const agents = agentSpecs.map((spec, index) => {
    const agentDataDir = path.join(root, spec.name);
    agentDataDirs[spec.name] = agentDataDir;
    return managedProcess({
      name: spec.name,
      entry: 'apps/agent/src/main.ts',
      env: {
        // Each node calls its own API process: the desired state and reports cross processes.
        AGENT_API_URL: (apis[index % apis.length] ?? firstApi).url,
        AGENT_REGISTRATION_TOKEN: registrationToken,
        AGENT_NODE_NAME: spec.name,
        AGENT_DATA_DIR: agentDataDir,
        AGENT_ADDRESS_POOL: spec.pool,
        AGENT_LIVE_WORKSPACES: options.live ? 'auto' : 'off',
        ...(options.live ? { AGENT_INSTANCE: spec.name } : {}),
        AGENT_POLL_INTERVAL_MS: String(options.agentPollMs ?? 500),
        AGENT_MAX_BACKOFF_MS: '2000',
        AGENT_LOG_LEVEL: process.env.CLUSTER_AGENT_LOG_LEVEL ?? 'warn',
        ...options.agentEnv,
      },
      logFile: logFile(spec.name),
    });
  });

  /**
   * What a live node holds on the host: its processes, mounts and loop devices (by its data
   * folder) and its workspaces' networks, routed or not. The pool may be shared, so the networks
   * are those named for its own workspaces (their veths carry its instance's short ids, as the
   * agent's workspaceShortId makes them), never another node's.
   */
  const nodeLeftovers = (spec: AgentSpec) => {
    const folder = path.join(agentDataDirs[spec.name] ?? '', 'workspaces');
    const serviceIds = existsSync(folder) ? readdirSync(folder) : [];
    const devices = serviceIds.map(
      (serviceId) =>
        `dbs-${createHash('sha256').update(`${spec.name}/${serviceId}`).digest('hex').slice(0, 10)}`,
    );
    return {
      ...findLeftovers(agentDataDirs[spec.name] ?? '', spec.pool, devices),
      addresses: devices.map((device) => `- dev ${device}`),
    };
  };
  const query = async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    (await pool.query<T>(text, values)).rows;
  const everyProcess = [...apis, worker, ...agents];
  const cluster: Cluster = {
    databaseUrl,
    dataDir,
    apis,
    worker,
    agents,
    agentDataDirs,
    query,
    logs: () => everyProcess.map((p) => `--- ${p.name}\n${p.logTail()}`).join('\n'),
    async crashNode(name) {
      const spec = agentSpecs.find((each) => each.name === name);
      const agent = agents.find((each) => each.name === name);
      if (!spec || !agent) throw new Error(`no node ${name} in the cluster`);
      await agent.kill('SIGKILL');
      removeLeftovers(nodeLeftovers(spec));
    },
    ops(args) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/ops.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, ...shared },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      return new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      });
    },
    async destroyNode(name) {
      await cluster.crashNode(name);
      rmSync(agentDataDirs[name] ?? '', { recursive: true, force: true });
    },
    async stop() {
      await Promise.all(everyProcess.map((p) => p.kill('SIGTERM')));
      if (options.live)
        for (const spec of agentSpecs) {
          removeLeftovers(nodeLeftovers(spec));
          removePoolGuardRoutes(spec.pool);
        }
      // pool.end() answers once its clients are told to close, before their connections have; the
      // DROP … WITH (FORCE) below would end a connection still closing, an error nobody hears.
      const closing = pool.totalCount;
      let closed = 0;
      const allClosed = new Promise<void>((resolve) => {
        if (closing === 0) resolve();
        pool.on('remove', () => {
          closed += 1;
          if (closed >= closing) resolve();
        });
      });
      await pool.end();
      await allClosed;
      const cleanup = new pg.Client({ connectionString: options.serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      await cleanup.end();
      // CLUSTER_KEEP_LOGS=<folder>: the processes' logs are kept there, to read after a failure.
      const keep = process.env.CLUSTER_KEEP_LOGS;
      if (keep) cpSync(path.join(root, 'logs'), path.join(keep, path.basename(root)), { recursive: true });
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    // All at once, as an orchestrator starts them: they take turns preparing the database.
    await Promise.all([...apis.map((api) => api.start()), worker.start()]);
    await Promise.all(agents.map((agent) => agent.start()));
    await waitForNodes(cluster, agentSpecs.length);
  } catch (error) {
    const logs = cluster.logs();
    await cluster.stop();
    throw new Error(`the cluster did not start: ${(error as Error).message}\n${logs}`);
  }
  return cluster;
}

/** Waits until `count` nodes have reported within the last few seconds. */
export async function waitForNodes(cluster: Cluster, count: number, withinMs = 60_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const [row] = await cluster.query<{ online: number }>(
      `select count(*)::int as online from nodes where last_seen_at > now() - interval '5 seconds'`,
    );
    if ((row?.online ?? 0) >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} nodes did not report within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
