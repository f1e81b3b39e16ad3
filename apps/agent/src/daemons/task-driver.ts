// The one driver behind every task definition (definition.ts): a feature that runs now and then
// rather than all the time (backups). Nothing runs between passes; a pass runs the task when the
// definition says it is due, and records the run (`<feature>/last-run.json`: when, outcome, the
// program's words). A poll's cheap look says "due" as drift, so a due task runs on the next pass
// without waiting for a full check. A run that fails is an outcome to report, not a failure of
// the driver: the workspace stays ok and the run says what went wrong; the driver throws only
// when it could not record the run at all.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Driver, DriverContext } from '../drivers/driver.ts';
import { notLiveReason, type LiveDriverOptions } from '../drivers/live-mode.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import type { DaemonContext, TaskDefinition, TaskRun } from './definition.ts';

const runSchema = z.object({
  started_at: z.string(),
  finished_at: z.string(),
  outcome: z.enum(['succeeded', 'failed']),
  detail: z.string().optional(),
});

export interface TaskDriverOptions extends LiveDriverOptions {
  /** Default: the clock. */
  now?: () => Date;
  /** As for a daemon driver: why the host cannot run it (default: live-mode.ts). */
  whyNotLive?: () => Promise<string | undefined>;
}

const MAX_DETAIL = 1000;

export function taskDriver(definition: TaskDefinition, options: TaskDriverOptions = {}): Driver {
  const { name } = definition;
  const now = options.now ?? (() => new Date());
  const contextOf = (context: DriverContext): DaemonContext => ({
    ...context,
    layout: workspaceLayout(context.workspaceDir),
    dir: join(context.workspaceDir, name),
  });
  const runFile = (context: DaemonContext) => join(context.dir, 'last-run.json');

  async function lastRun(context: DaemonContext): Promise<TaskRun | undefined> {
    const text = await readFile(runFile(context), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const parsed = runSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    name,
    kind: 'feature',

    async apply(desired, driverContext) {
      const context = contextOf(driverContext);
      const reason = await (options.whyNotLive ?? (() => notLiveReason(options, definition.programs)))();
      const notNeeded = desired.state === 'removed' ? undefined : definition.notNeeded(desired);
      const last = await lastRun(context);
      const status = (extra: string | undefined) => {
        const why = [reason, extra].filter(Boolean).join('; ');
        return { driver: name, live: reason === undefined, ...(why ? { reason: why } : {}) };
      };
      if (desired.state !== 'running' || notNeeded !== undefined || reason !== undefined) {
        const extra = notNeeded ? `not needed: ${notNeeded}` : undefined;
        return { changed: false, actions: [], status: status(extra), ...(last ? { lastRun: last } : {}) };
      }
      const failedLast = (run: TaskRun | undefined) =>
        run?.outcome === 'failed' ? `last run failed: ${run.detail ?? 'no detail'}` : undefined;
      if (!definition.due(desired, last, now())) {
        return {
          changed: false,
          actions: [],
          status: status(failedLast(last)),
          ...(last ? { lastRun: last } : {}),
        };
      }

      const started = now();
      let outcome: Pick<TaskRun, 'outcome' | 'detail'>;
      try {
        outcome = await definition.run(desired, context);
      } catch (error) {
        outcome = { outcome: 'failed', detail: (error as Error).message };
      }
      const run: TaskRun = {
        started_at: started.toISOString(),
        finished_at: now().toISOString(),
        outcome: outcome.outcome,
        ...(outcome.detail !== undefined ? { detail: outcome.detail.slice(0, MAX_DETAIL) } : {}),
      };
      await mkdir(context.dir, { recursive: true, mode: 0o750 });
      await writeIfChanged(runFile(context), JSON.stringify(run) + '\n', { mode: 0o640 });
      return {
        changed: true,
        actions: [`ran ${name}: ${run.outcome}`],
        status: status(failedLast(run)),
        lastRun: run,
      };
    },

    async observe(desired, driverContext) {
      if (desired.state !== 'running' || definition.notNeeded(desired) !== undefined) return {};
      const context = contextOf(driverContext);
      if (definition.due(desired, await lastRun(context), now())) return { drift: `${name} is due` };
      return {};
    },
  };
}
