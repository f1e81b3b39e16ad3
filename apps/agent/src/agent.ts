// The agent process: it registers the node when it has no valid node token (with its one-time
// enrollment token: AGENT_REGISTRATION_TOKEN, or one the embedded node issues itself), then runs reconcile
// passes every poll interval. Passes never overlap (a loop pass and a runOnce() call queue
// behind each other); when the API fails, the wait grows exponentially up to a cap, and it is
// back to the poll interval after the first pass that succeeds. Within a pass each workspace is
// a key of the work queue (controller/): one that fails backs off on its own, one that hangs
// stops holding the others at its deadline, and the node's heartbeat (controller/heartbeat.ts)
// reports between passes whenever a pass runs long. runOnce() runs every workspace, backoff or
// not. Beside it the node-call loop (calls/call-loop.ts) answers the API's questions about a
// workspace as last applied, through the drivers' handlers and those of no driver
// (storage-files/: share links' files). The API can run it in its own process (the embedded
// default) or main.ts runs it standalone; both go through startAgent().
//
// Beside them, for standby replicas (replicas/): the pull loop pulls the replicas of the
// workspaces this node holds as a standby, and the fencing lease, renewed by every pull of the
// desired state and every report that reaches the API, stops the workspaces that may be failed
// over once it runs out (a local pass, queued like any).
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { ApiError, ApiUnauthorizedError, createApiClient } from './api-client.ts';
import { startCallLoop } from './calls/call-loop.ts';
import { runNodeCall } from './calls/node-call.ts';
import { nodeCallResponders } from './calls/responders.ts';
import { measureCapacity } from './capacity.ts';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_WORKSPACE_DEADLINE_MS, type AgentConfig } from './config.ts';
import { createHeartbeat } from './controller/heartbeat.ts';
import { createWorkspaceController } from './controller/workspace-controller.ts';
import type { Driver } from './drivers/driver.ts';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand, type CommandRunner } from './exec/run-command.ts';
import { errorMessage, silentLogger, type Logger } from './logger.ts';
import { loadNodeIdentity, saveNodeIdentity, type NodeIdentity } from './node-identity.ts';
import { createReconcileMemory, workspaceDrivers, type ReconcileResult } from './reconcile.ts';
import { createFence } from './replicas/fence.ts';
import { loadFenceRecord, saveFenceRecord } from './replicas/fence-record.ts';
import { createPullLoop } from './replicas/pull-loop.ts';
import { createClientMirrorLoop } from './backup/client-mirror-loop.ts';
import { pullReplica } from './replicas/replica-pull.ts';
import { AGENT_VERSION } from './version.ts';
import { createWakeFiles } from './wake-files.ts';
import { createUsageCounter } from './activity/usage-count.ts';
import { workspaceLayout } from './workspace-layout.ts';
import { setAgentInstance, workspaceDir } from './workspace-paths.ts';
import { wakeableSleep } from './system/wakeable-sleep.ts';

export interface AgentOptions {
  /** Default: the registry's drivers. */
  drivers?: readonly Driver[];
  /** Default: runCommand (spawn without a shell). */
  runCommand?: CommandRunner;
  fetch?: typeof fetch;
  /** Default true. With false no loop runs: passes happen only through runOnce(). */
  loop?: boolean;
  /**
   * Asked for a fresh one-time enrollment token each time the node must register, instead of
   * config.registrationToken: the embedded node issues its own, in-process.
   */
  enrollmentToken?: () => Promise<string>;
  /** Default true. With false no node-call loop runs (the API's calls go unanswered). */
  calls?: boolean;
}

export interface Agent {
  /** Runs one pass now (after any pass in progress) and resolves with what it did; rejects if it failed. */
  runOnce(): Promise<ReconcileResult>;
  /** Ask the loop for a pass now instead of at the end of the current wait (desired state changed). */
  wake(): void;
  /** Stops the loop, aborts API calls in flight, waits for a pass in progress to end. Idempotent. */
  stop(): Promise<void>;
  /** The node id once registered (or loaded from node.json). */
  readonly nodeId: string | undefined;
}

const ENROLL_HINT =
  'an operator issues one with `npm run nodes -- enroll <name>` where the API runs; set it as AGENT_REGISTRATION_TOKEN';

/** The node cannot register: nothing to do but wait and retry (or fix the config). */
export class RegistrationRefusedError extends ApiError {
  constructor(
    message = `the API refused AGENT_REGISTRATION_TOKEN (an enrollment token is one-time and for one node name: ${ENROLL_HINT})`,
  ) {
    super(message, 'http', 401, 'unauthorized');
    this.name = 'RegistrationRefusedError';
  }
}

export class AgentStoppedError extends Error {
  constructor() {
    super('the agent is stopped');
    this.name = 'AgentStoppedError';
  }
}

export function startAgent(
  config: AgentConfig,
  logger: Logger = silentLogger,
  options: AgentOptions = {},
): Agent {
  setAgentInstance(config.instance);
  const stopController = new AbortController();
  const client = createApiClient({
    baseUrl: config.apiUrl,
    timeoutMs: config.requestTimeoutMs,
    signal: stopController.signal,
    fetch: options.fetch,
  });
  // Reaching the API renews the fencing lease (replicas/fence.ts).
  const api: typeof client = {
    ...client,
    desiredState: async (token) => {
      const answer = await client.desiredState(token);
      fence.renew();
      return answer;
    },
    report: async (token, body) => {
      await client.report(token, body);
      fence.renew();
    },
  };
  const drivers =
    options.drivers ??
    createDefaultDrivers({
      live: config.liveWorkspaces,
      smbPort: config.smbPort,
      addressPool: config.addresses,
      clientRoutes: config.clientRoutes,
      backupConcurrency: config.backupConcurrency,
    });
  const responders = nodeCallResponders(drivers);
  const run = options.runCommand ?? runCommand;
  const memory = createReconcileMemory();
  // Who owns what is counted where workspaces are live (their own users own files there); a plain
  // folder of a node that runs nothing holds only the agent's own files.
  const usage =
    config.liveWorkspaces && process.getuid?.() === 0
      ? createUsageCounter({ fullEveryMs: config.usageFullScanMs, logger })
      : undefined;
  // A daemon that says its report changed (a VPN client came) gets a pass now.
  const wakeFiles = createWakeFiles(() => agent.wake(), logger);
  const wakeFilesOf = (applied: ReadonlyMap<string, WorkspaceDesiredState>) =>
    new Set(
      [...applied.values()].flatMap((desired) =>
        workspaceDrivers(desired, drivers).flatMap((driver) => {
          const file = driver.wakeOn?.(desired, workspaceDir(config.dataDir, desired.service_id));
          return file ? [file] : [];
        }),
      ),
    );

  let identity: NodeIdentity | undefined;
  let identityLoaded = false;
  let stopped = false;
  let queue: Promise<unknown> = Promise.resolve();
  const pause = wakeableSleep(() => stopped);
  // The node-call loop waits here for the identity this loop establishes.
  const identityWaiters: Array<() => void> = [];
  const identityChanged = () => {
    for (const resolve of identityWaiters.splice(0)) resolve();
  };

  async function register(): Promise<NodeIdentity> {
    identity = undefined;
    const token = options.enrollmentToken ? await options.enrollmentToken() : config.registrationToken;
    if (!token)
      throw new RegistrationRefusedError(
        `this node has no node token (${config.dataDir}/node.json) and no enrollment token: ${ENROLL_HINT}`,
      );
    const capacity = await measureCapacity(config.dataDir, config.addresses);
    let answer;
    try {
      answer = await api.register(token, {
        name: config.nodeName,
        hostname: hostname().slice(0, 255) || config.nodeName,
        agent_version: AGENT_VERSION,
        capacity,
      });
    } catch (error) {
      if (error instanceof ApiUnauthorizedError) throw new RegistrationRefusedError();
      throw error;
    }
    const registered: NodeIdentity = {
      node_id: answer.node_id,
      node_token: answer.node_token,
      node_name: config.nodeName,
      api_url: config.apiUrl,
      registered_at: new Date().toISOString(),
    };
    await saveNodeIdentity(config.dataDir, registered);
    identity = registered;
    identityChanged();
    logger.info({ node_id: registered.node_id, node_name: config.nodeName }, 'node registered');
    return registered;
  }

  async function currentIdentity(): Promise<NodeIdentity> {
    if (!identityLoaded) {
      await mkdir(config.dataDir, { recursive: true, mode: 0o750 });
      const stored = await loadNodeIdentity(config.dataDir);
      identityLoaded = true;
      if (stored && stored.node_name === config.nodeName && stored.api_url === config.apiUrl) {
        identity = stored;
        identityChanged();
      }
    }
    return identity ?? (await register());
  }

  async function pass(force: boolean): Promise<ReconcileResult> {
    if (stopped) throw new AgentStoppedError();
    const reconcileWith = (node: NodeIdentity) => controller.pass(api, node.node_token, { force });
    let result: ReconcileResult;
    try {
      result = await reconcileWith(await currentIdentity());
    } catch (error) {
      if (!(error instanceof ApiUnauthorizedError)) throw error;
      logger.warn('the API no longer accepts the node token; registering again');
      result = await reconcileWith(await register());
    }
    wakeFiles.sync(wakeFilesOf(memory.applied));
    // The API's word is known now: what to fence comes from it, and is kept for a restart.
    heard = true;
    remembered = [];
    await saveFenceRecord(config.dataDir, memory.applied.values()).catch((error: unknown) =>
      logger.warn(`fence record: ${errorMessage(error)}`),
    );
    if (result.changed) logger.info({ actions: result.actions }, 'reconcile pass changed the node');
    else
      logger.debug({ full_check: result.fullCheck, workspaces: result.workspaces.length }, 'reconcile pass');
    return result;
  }

  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      try {
        await exclusive(() => pass(false));
        failures = 0;
      } catch (error) {
        if (stopped) break;
        failures += 1;
        const cap = Math.max(config.maxBackoffMs, config.pollIntervalMs);
        const delay = Math.min(config.pollIntervalMs * 2 ** failures, cap);
        // Called on the logger: pino's methods (the API's logger in-process) need their `this`.
        logger[error instanceof RegistrationRefusedError ? 'error' : 'warn'](
          { err: error, failures, retry_in_ms: delay },
          `reconcile pass failed: ${errorMessage(error)}`,
        );
        await pause.sleep(delay);
        continue;
      }
      await pause.sleep(config.pollIntervalMs);
    }
  }

  const passDeps = () => ({
    dataDir: config.dataDir,
    addresses: config.addresses,
    agentVersion: AGENT_VERSION,
    drivers,
    logger,
    run,
    fullCheckEvery: config.fullCheckEvery,
    ...(usage ? { usage } : {}),
  });
  const controller = createWorkspaceController({
    deps: passDeps(),
    memory,
    concurrency: config.workspaceConcurrency ?? 1,
    backoff: { baseMs: config.pollIntervalMs, maxMs: Math.max(config.maxBackoffMs, config.pollIntervalMs) },
    deadlineMs: config.workspaceDeadlineMs ?? DEFAULT_WORKSPACE_DEADLINE_MS,
    // Passes only through runOnce(): no retry on its own either.
    retries: options.loop !== false,
    onRunOutsidePass: () => void heartbeat.beat(),
  });
  const heartbeat = createHeartbeat({
    everyMs: config.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    lastReportAt: () => controller.lastReportAt,
    send: async () => {
      const token = identity?.node_token;
      if (token && !stopped) await controller.report(api, token);
    },
    logger,
  });
  // Until the first pass: what the last run would have fenced (replicas/fence-record.ts).
  let remembered: WorkspaceDesiredState[] = [];
  let heard = false;
  void loadFenceRecord(config.dataDir).then((record) => {
    if (!heard) remembered = record;
  });
  const fence = createFence({
    fenceAfterMs: config.fenceAfterMs,
    applied: () => [
      ...memory.applied.values(),
      ...remembered.filter((desired) => !memory.applied.has(desired.service_id)),
    ],
    applyLocally: async (workspaces) => {
      if (stopped) return;
      await exclusive(() => controller.applyLocally(workspaces));
    },
    logger,
  });
  const pulls = createPullLoop({
    applied: () => memory.applied.values(),
    pull: async (serviceId, signal) => {
      const token = identity?.node_token;
      if (!token) throw new Error('the node is not registered yet');
      const arrived = await pullReplica(
        serviceId,
        { api, nodeToken: token, layout: workspaceLayout(workspaceDir(config.dataDir, serviceId)), run },
        signal,
      );
      return arrived !== undefined;
    },
    intervalMs: config.replicaIntervalMs,
    logger,
    onPulled: () => agent.wake(),
  });
  const mirrors = createClientMirrorLoop({
    applied: () => memory.applied.values(),
    dataDir: config.dataDir,
    intervalMs: config.clientMirrorIntervalMs,
    logger,
    onMirrored: () => agent.wake(),
  });

  const looping =
    options.loop === false
      ? Promise.resolve()
      : loop().catch((error: unknown) => logger.error({ err: error }, 'agent loop crashed'));
  if (options.loop !== false) {
    heartbeat.start();
    fence.start();
    pulls.start();
    mirrors.start();
  }

  const callLoop =
    options.calls === false
      ? undefined
      : startCallLoop({
          api,
          async nodeToken() {
            while (!stopped && !identity) await new Promise<void>((resolve) => identityWaiters.push(resolve));
            return stopped ? undefined : identity?.node_token;
          },
          run: (call) =>
            runNodeCall(call, {
              handlers: responders,
              applied: (serviceId) => memory.applied.get(serviceId),
              layout: (serviceId) => workspaceLayout(workspaceDir(config.dataDir, serviceId)),
              dataDir: config.dataDir,
              run,
              logger,
            }),
          logger,
          retryMs: config.pollIntervalMs,
          maxBackoffMs: config.maxBackoffMs,
          onWake: () => agent.wake(),
        });

  let stopping: Promise<void> | undefined;
  const agent: Agent = {
    runOnce: () => exclusive(() => pass(true)),
    wake() {
      pause.wake();
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        // No workspace starts a run from now on; those running end before the drivers stop.
        const runsEnded = controller.stop();
        stopController.abort();
        pause.wake();
        identityChanged();
        fence.stop();
        heartbeat.stop();
        await pulls.stop();
        await mirrors.stop();
        await callLoop?.stop();
        await looping;
        await queue;
        await runsEnded;
        // Background jobs (backups) end now and are recorded interrupted, rather than outlive it.
        // Then what the node no longer needs goes (the pool's guard, with no workspace left).
        const node = { dataDir: config.dataDir, logger, run };
        await Promise.all(
          drivers.map(async (driver) => {
            try {
              await driver.stop?.(node);
            } catch (error) {
              logger.warn({ driver: driver.name }, `stopping failed: ${errorMessage(error)}`);
            }
          }),
        );
        wakeFiles.close();
        logger.info('agent stopped');
      })();
      return stopping;
    },
    get nodeId() {
      return identity?.node_id;
    },
  };
  return agent;
}
