// The one driver behind every daemon definition (definition.ts). A pass for a workspace:
//
//   removed, or not needed (no shares)  → stop the daemon if it runs; status says why; not
//                                         removed: the definition's tidy (data of resources gone);
//                                         removed: the definition's remove (what it set up outside)
//   otherwise                           → render its config files, tidy; check each that changed
//                                         (bad resources left out as failures); write them
//   the host cannot run it              → stop there: rendered and checked, status says why
//   live                                → the definition's sync steps (passdb); stopped: stop it
//   running                             → start it if it does not run (and wait for its port),
//                                         restart it for the owner's restart (context.restart,
//                                         decided once per workspace in reconcile) or a changed
//                                         command line, else reload it only if a file changed
//
// Its definition's `report` (what the feature observed) is asked by reconcile on every pass of a
// workspace that needs it.
//
// It is a feature driver: when it throws, reconcile reports the feature failed with the reason
// and applies the other features; the workspace's folder, storage, address and users stand.
// An unchanged workspace runs no program at all.
import { basename, join } from 'node:path';
import type { ResourceFailure, WorkspaceDesiredState } from '@debesis/contract';
import type { DaemonSpawner } from '../exec/spawn-daemon.ts';
import type { ActivityBatch, Driver, DriverContext, DriverResult, DriverStatus } from '../drivers/driver.ts';
import { notLiveReason, type LiveDriverOptions } from '../drivers/live-mode.ts';
import { fileBatch } from '../fs/write-if-changed.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { checkRenderedConfig } from './config-check.ts';
import type { NodeCallContext, NodeCallHandlers } from '../calls/node-call.ts';
import type { DaemonCallHandler, DaemonCallHandlers, DaemonContext, DaemonDefinition } from './definition.ts';
import {
  daemonFiles,
  runningDaemon,
  signalDaemon,
  startDaemon,
  stopDaemon,
  type DaemonRecord,
} from './supervisor.ts';

const NO_ACTIVITY: ActivityBatch = { events: [], commit: async () => undefined };

export interface DaemonDriverOptions extends LiveDriverOptions {
  spawn?: DaemonSpawner;
  /** How long the daemon may take to listen. Default 15 s. */
  startTimeoutMs?: number;
  /**
   * Why the host cannot run it live, or undefined when it can. Default: live mode, root and the
   * definition's programs (live-mode.ts); tests of the supervision itself stand in for the host.
   */
  whyNotLive?: () => Promise<string | undefined>;
}

export function daemonDriver(definition: DaemonDefinition, options: DaemonDriverOptions = {}): Driver {
  const { name, daemon } = definition;
  const contextOf = (context: DriverContext): DaemonContext => ({
    ...context,
    layout: workspaceLayout(context.workspaceDir),
    dir: join(context.workspaceDir, name),
  });
  const filesOf = (context: DaemonContext) =>
    daemonFiles(context.dir, daemon, { retitles: definition.retitles });
  const whyNotLive = options.whyNotLive ?? (() => notLiveReason(options, definition.programs));

  async function stop(context: DaemonContext, argv: readonly string[]): Promise<string[]> {
    return (await stopDaemon(filesOf(context), argv)) ? [`stopped ${daemon}`] : [];
  }

  return {
    name,
    kind: 'feature',
    phase: definition.phase ?? 'daemons',
    resources: (desired) => definition.resources(desired),
    ...(definition.calls ? { calls: withRefresh(definition.calls) } : {}),

    async apply(desired, driverContext) {
      const context = contextOf(driverContext);
      const argv = definition.argv(desired, context);
      const reason = await whyNotLive();
      const notNeeded = desired.state === 'removed' ? undefined : definition.notNeeded(desired);
      if (desired.state === 'removed' || notNeeded !== undefined) {
        // Stopping works whatever the host lacks now: a daemon started earlier must not outlive this.
        const actions = await stop(context, argv);
        if (desired.state !== 'removed') actions.push(...((await definition.tidy?.(desired, context)) ?? []));
        else actions.push(...((await definition.remove?.(desired, context)) ?? []));
        const why = [reason, notNeeded && `not needed: ${notNeeded}`].filter(Boolean).join('; ');
        return {
          changed: actions.length > 0,
          actions,
          status: { driver: name, live: reason === undefined, ...(why ? { reason: why } : {}) },
          facts: { started_at: null },
        };
      }
      return applyNeeded(desired, context, argv, reason);
    },

    async observe(desired, driverContext) {
      const context = contextOf(driverContext);
      const argv = definition.argv(desired, context);
      const running = await runningDaemon(filesOf(context), argv);
      const shouldRun =
        desired.state === 'running' &&
        definition.notNeeded(desired) === undefined &&
        (await whyNotLive()) === undefined;
      if (!shouldRun) {
        if (running && desired.state !== 'removed' && definition.notNeeded(desired) !== undefined)
          return { drift: `${daemon} runs but is not needed` };
        return { facts: { started_at: running?.started_at ?? null } };
      }
      if (!running) return { drift: `${daemon} is not running`, serving: false, facts: { started_at: null } };
      if (running.argv.join('\0') !== argv.join('\0'))
        return { drift: `${daemon} runs with another command line`, serving: true };
      const drift = await definition.drift?.(desired, context);
      if (drift) return { drift, serving: true, facts: { started_at: running.started_at } };
      return { serving: true, facts: { started_at: running.started_at } };
    },

    async quiesce(desired, driverContext) {
      const context = contextOf(driverContext);
      await stop(context, definition.argv(desired, context));
    },

    ...(definition.wakeOn && {
      wakeOn: (desired: WorkspaceDesiredState, workspaceDir: string) =>
        desired.state === 'running' && definition.notNeeded(desired) === undefined
          ? definition.wakeOn?.(workspaceLayout(workspaceDir))
          : undefined,
    }),

    ...(definition.activity && {
      activity: async (desired: WorkspaceDesiredState, driverContext: DriverContext) =>
        desired.state === 'removed'
          ? NO_ACTIVITY
          : ((await definition.activity?.(desired, contextOf(driverContext))) ?? NO_ACTIVITY),
    }),

    ...(definition.report && {
      report: async (desired: WorkspaceDesiredState, driverContext: DriverContext) =>
        desired.state === 'removed' || definition.notNeeded(desired) !== undefined
          ? {}
          : ((await definition.report?.(desired, contextOf(driverContext))) ?? {}),
    }),
  };

  /** Renders, checks and writes the config files: what changed, and what a running daemon needs. */
  async function writeConfig(desired: WorkspaceDesiredState, context: DaemonContext) {
    const rendering = await definition.render(desired, context);
    const actions = [...rendering.actions];
    const failures: ResourceFailure[] = [...rendering.failures];
    let configChanged = false;
    let restartNeeded = false;
    // Each file is checked after the ones before it are written (openvpn's check runs the
    // password script its config names); the folders are flushed once, before anything reloads
    // (write-if-changed.ts).
    const batch = fileBatch();
    try {
      for (const file of rendering.files) {
        const checked = await checkRenderedConfig(file, context.run);
        failures.push(...checked.failures);
        if ((await batch.write(file.path, checked.text, { mode: file.mode })).changed) {
          if (!file.rereadByDaemon) configChanged = true;
          if (file.restartOnChange) restartNeeded = true;
          actions.push(`wrote ${file.path}`);
        }
      }
    } finally {
      await batch.flush();
    }
    return { files: rendering.files, actions, failures, configChanged, restartNeeded };
  }

  function start(desired: WorkspaceDesiredState, context: DaemonContext, argv: string[]) {
    return startDaemon(filesOf(context), {
      name: daemon,
      namespace: context.layout,
      keep: [context.dir, ...(definition.keep?.(desired, context) ?? [])],
      argv,
      setup: definition.setup?.(desired, context),
      listens: definition.listens(desired),
      spawn: options.spawn,
      timeoutMs: options.startTimeoutMs,
    });
  }

  /** Brings a running daemon up to config files that changed: its reload, or a restart. */
  async function reload(
    desired: WorkspaceDesiredState,
    context: DaemonContext,
    argv: string[],
    running: DaemonRecord,
    restartNeeded: boolean,
  ): Promise<DaemonRecord> {
    const method = restartNeeded ? ({ kind: 'restart' } as const) : definition.reload(context);
    switch (method.kind) {
      case 'command': {
        const [command, ...args] = method.argv;
        if (command) await context.run(command, args, { check: true });
        return running;
      }
      case 'signal':
        await signalDaemon(filesOf(context), argv, method.signal);
        return running;
      case 'restart':
        await stopDaemon(filesOf(context), argv);
        return start(desired, context, argv);
    }
  }

  /**
   * A node call's way to change what the daemon serves without waiting for a pass (NFS's
   * disconnect): what an apply does to the config of a daemon that runs — render, check, write
   * what changed, reload — and nothing else (no start, no sync). A daemon that does not run, or
   * is not needed, gets its files at its next pass.
   */
  async function refresh(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string[]> {
    if (desired.state !== 'running' || definition.notNeeded(desired) !== undefined) return [];
    if ((await whyNotLive()) !== undefined) return [];
    const written = await writeConfig(desired, context);
    const argv = definition.argv(desired, context);
    const running = await runningDaemon(filesOf(context), argv);
    if (!running || !written.configChanged) return written.actions;
    await reload(desired, context, argv, running, written.restartNeeded);
    return [...written.actions, `reloaded ${daemon}`];
  }

  /** The definition's call handlers, each given `refresh` for the workspace it is called on. */
  function withRefresh(calls: DaemonCallHandlers): NodeCallHandlers {
    const wrapped: Record<string, unknown> = {};
    for (const [kind, handler] of Object.entries(calls) as Array<[string, DaemonCallHandler]>)
      wrapped[kind] = (payload: never, context: NodeCallContext) =>
        handler(payload, {
          ...context,
          refresh: () =>
            refresh(
              context.desired,
              contextOf({
                dataDir: context.dataDir,
                workspaceDir: context.layout.root,
                logger: context.logger,
                run: context.run,
              }),
            ),
        });
    return wrapped;
  }

  async function applyNeeded(
    desired: WorkspaceDesiredState,
    context: DaemonContext,
    argv: string[],
    reason: string | undefined,
  ): Promise<DriverResult> {
    const written = await writeConfig(desired, context);
    const { files: renderedFiles, failures, configChanged, restartNeeded } = written;
    const actions = [...written.actions, ...((await definition.tidy?.(desired, context)) ?? [])];
    const result = (status: DriverStatus, record?: DaemonRecord): DriverResult => ({
      changed: actions.length > 0,
      actions,
      // A serving daemon says since when: the API counts its uptime and its restarts.
      status: status.serving && record?.started_at ? { ...status, started_at: record.started_at } : status,
      failures,
      facts: { started_at: record?.started_at ?? null },
    });

    if (reason) {
      const names = renderedFiles.map((file) => basename(file.path));
      const rendered = `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} rendered`;
      return result({ driver: name, live: false, reason: `${reason}: ${rendered}, ${daemon} does not run` });
    }

    if (definition.sync) actions.push(...(await definition.sync(desired, context)));

    const files = filesOf(context);
    if (desired.state === 'stopped') {
      actions.push(...(await stop(context, argv)));
      return result({ driver: name, live: true });
    }

    let running = await runningDaemon(files, argv);
    if (running && context.restart) {
      await stopDaemon(files, argv);
      running = undefined;
      actions.push(`stopped ${daemon} for the restart the owner asked for`);
    } else if (running && running.argv.join('\0') !== argv.join('\0')) {
      await stopDaemon(files, running.argv);
      running = undefined;
      actions.push(`stopped ${daemon}: its command line changed`);
    }
    if (!running) {
      const listens = definition.listens(desired);
      running = await start(desired, context, argv);
      actions.push(`started ${daemon} (pid ${running.pid}) on ${listens.host}:${listens.port}`);
    } else if (configChanged) {
      running = await reload(desired, context, argv, running, restartNeeded);
      actions.push(`reloaded ${daemon}`);
    }
    return result({ driver: name, live: true, serving: true }, running);
  }
}
