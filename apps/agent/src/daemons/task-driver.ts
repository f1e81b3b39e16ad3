// The one driver behind every task definition (definition.ts): a feature whose work is jobs the
// desired state lists (backups, restores) rather than a daemon. A pass never runs a job itself:
//
//   a pass      records a job the agent was running when it died `interrupted` (after the
//               definition's `recover`), deletes the records of jobs no longer listed (the API has
//               stored how they went), and offers the first listed job without a record to the
//               job runner (job-runner.ts), which starts it now or when a slot frees: one job per
//               workspace, `concurrency` on the node (AGENT_BACKUP_CONCURRENCY)
//   a job       records itself running (`<ws>/<feature>/jobs/<id>.json`), runs, records its end,
//               and writes `<ws>/<feature>/job-ended` as it starts and ends: the agent watches it
//               (wakeOn), so the end is reported at once, not at the next poll
//
// So every job id runs once: a job with a record is never started again, after an agent restart
// too. The report (the definition's section) lists every listed job that has started, with its
// progress while running, asked on every pass from the records and the runner (no program runs).
// A poll's cheap look says "drift" when a listed job is to be offered, so it starts without
// waiting for a full check. Not live or not needed: no job starts and the status says why.
// Stopped: no job starts, and the running one is aborted (recorded `interrupted`); so it is for a
// quiesce (the storage taken offline) and the agent's stop; removed: it is aborted, then the
// definition deletes what it keeps (the repository).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { WorkspaceDesiredState } from '@debesis/contract';
import type { Driver, DriverContext, DriverResult, DriverStatus } from '../drivers/driver.ts';
import { notLiveReason, type LiveDriverOptions } from '../drivers/live-mode.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { errorMessage } from '../logger.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import type { DaemonContext, TaskDefinition, TaskJobRecord, TaskOutcome } from './definition.ts';
import { createJobRunner } from './job-runner.ts';

export interface TaskDriverOptions extends LiveDriverOptions {
  /** Jobs that may run at once on the node, every workspace together. Default 1. */
  concurrency?: number;
  /** Default: the clock. */
  now?: () => Date;
  /** As for a daemon driver: why the host cannot run it (default: live-mode.ts). */
  whyNotLive?: () => Promise<string | undefined>;
}

/** The contract's bounds of a failure (backupJobReportSchema). */
const MAX_ERROR = 2000;
const MAX_CODE = 40;
/** A job id becomes a file name. */
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const recordSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  started_at: z.string(),
  finished_at: z.string().optional(),
  result: z.unknown().optional(),
  error_code: z.string().optional(),
  error: z.string().optional(),
});

export const JOB_ENDED_FILE = 'job-ended';

export function taskDriver<Job extends { readonly id: string }, Result, Progress>(
  definition: TaskDefinition<Job, Result, Progress>,
  options: TaskDriverOptions = {},
): Driver {
  const { name } = definition;
  const now = options.now ?? (() => new Date());
  const runner = createJobRunner<Progress>(options.concurrency ?? 1, now);
  const whyNotLive = options.whyNotLive ?? (() => notLiveReason(options, definition.programs));
  // Ended jobs' records never change: read once (a pass reports every listed job).
  const ended = new Map<string, TaskJobRecord<Result, Progress>>();

  const contextOf = (context: DriverContext): DaemonContext => ({
    ...context,
    layout: workspaceLayout(context.workspaceDir),
    dir: join(context.workspaceDir, name),
  });
  const jobsDir = (context: DaemonContext) => join(context.dir, 'jobs');
  const recordFile = (context: DaemonContext, id: string) => join(jobsDir(context), `${id}.json`);

  function listed(desired: WorkspaceDesiredState, context: DaemonContext): Job[] {
    if (desired.state === 'removed' || definition.notNeeded(desired) !== undefined) return [];
    const jobs: Job[] = [];
    for (const job of definition.jobs(desired)) {
      if (JOB_ID.test(job.id) && !jobs.some((other) => other.id === job.id)) jobs.push(job);
      else
        context.logger.warn(
          { driver: name, job: job.id.slice(0, 200) },
          'job with a bad or repeated id; ignored',
        );
    }
    return jobs;
  }

  async function recordedIds(context: DaemonContext): Promise<Set<string>> {
    const names = await readdir(jobsDir(context)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const ids = names.filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length));
    return new Set(ids.filter((id) => JOB_ID.test(id)));
  }

  async function readRecord(
    context: DaemonContext,
    id: string,
  ): Promise<TaskJobRecord<Result, Progress> | undefined> {
    const path = recordFile(context, id);
    const known = ended.get(path);
    if (known) return known;
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    let record: TaskJobRecord<Result, Progress>;
    try {
      const parsed = recordSchema.parse(JSON.parse(text));
      const result = parsed.result === undefined ? undefined : definition.resultSchema.parse(parsed.result);
      const { result: _raw, ...rest } = parsed;
      record = { ...rest, id, ...(result === undefined ? {} : { result }) };
    } catch {
      record = {
        id,
        status: 'failed',
        started_at: now().toISOString(),
        error_code: 'failed',
        error: 'the node could not read the record of this job',
      };
    }
    if (record.status !== 'running') ended.set(path, record);
    return record;
  }

  async function writeRecord(context: DaemonContext, record: TaskJobRecord<Result, Progress>): Promise<void> {
    const { progress: _notKept, ...kept } = record;
    const path = recordFile(context, record.id);
    // Known here first: from now on the job is reported ended, even should the file not be written.
    if (record.status === 'running') ended.delete(path);
    else ended.set(path, kept);
    await mkdir(jobsDir(context), { recursive: true, mode: 0o750 });
    await writeIfChanged(path, `${JSON.stringify(kept)}\n`, { mode: 0o640 });
  }

  async function deleteRecord(context: DaemonContext, id: string): Promise<void> {
    const path = recordFile(context, id);
    await rm(path, { force: true });
    ended.delete(path);
  }

  /** The job running for the workspace, unless it has recorded its end already (it is finishing). */
  function runningJob(context: DaemonContext) {
    const job = runner.running(context.workspaceDir);
    return job && !ended.has(recordFile(context, job.id)) ? job : undefined;
  }

  const failure = (code: string, error: string) => ({
    error_code: code.slice(0, MAX_CODE),
    error: error.slice(0, MAX_ERROR),
  });

  async function wake(context: DaemonContext): Promise<void> {
    await writeFile(join(context.dir, JOB_ENDED_FILE), `${Date.now()}\n`, { mode: 0o640 }).catch(
      (error: unknown) =>
        context.logger.warn(
          { driver: name, err: error },
          `cannot write ${JOB_ENDED_FILE}: the report waits for the next poll`,
        ),
    );
  }

  /** Runs `job` to its end and records how it went; never throws. */
  async function runJob(
    job: Job,
    desired: WorkspaceDesiredState,
    context: DaemonContext,
    running: { startedAt: Date; progress: Progress | undefined; signal: AbortSignal },
  ): Promise<void> {
    const log = { service_id: desired.service_id, driver: name, job: job.id };
    const started_at = running.startedAt.toISOString();
    let outcome: TaskOutcome<Result>;
    try {
      await writeRecord(context, { id: job.id, status: 'running', started_at });
      await wake(context);
      context.logger.info(log, `${name} job started`);
      outcome = await definition.run(
        job,
        desired,
        context,
        (progress) => {
          running.progress = progress;
        },
        running.signal,
      );
    } catch (error) {
      outcome = { ok: false, code: 'failed', error: errorMessage(error) };
    }
    if (running.signal.aborted && !outcome.ok)
      outcome = { ok: false, code: 'interrupted', error: String(running.signal.reason ?? 'stopped') };
    const finished_at = now().toISOString();
    const record: TaskJobRecord<Result, Progress> = outcome.ok
      ? { id: job.id, status: 'completed', started_at, finished_at, result: outcome.result }
      : { id: job.id, status: 'failed', started_at, finished_at, ...failure(outcome.code, outcome.error) };
    try {
      await writeRecord(context, record);
    } catch (error) {
      context.logger.error({ ...log, err: error }, `cannot record how the ${name} job ended`);
    }
    if (outcome.ok) context.logger.info(log, `${name} job completed`);
    else context.logger.warn({ ...log, error_code: outcome.code }, `${name} job failed: ${outcome.error}`);
    await wake(context);
  }

  /**
   * The bookkeeping every pass does: a job that was running when the agent died is recorded
   * interrupted, records of jobs no longer listed are deleted. Returns the ids recorded now.
   */
  async function settleRecords(
    desired: WorkspaceDesiredState,
    context: DaemonContext,
    jobs: readonly Job[],
    actions: string[],
  ): Promise<Set<string>> {
    const activeId = runningJob(context)?.id;
    const recorded = await recordedIds(context);
    for (const id of recorded) {
      if (id === activeId) continue;
      const job = jobs.find((candidate) => candidate.id === id);
      const record = await readRecord(context, id);
      if (record?.status === 'running') {
        await definition.recover?.(id, job, desired, context);
        if (job) {
          await writeRecord(context, {
            id,
            status: 'failed',
            started_at: record.started_at,
            finished_at: now().toISOString(),
            ...failure('interrupted', 'the agent stopped while the job ran'),
          });
          actions.push(`recorded ${name} job ${id} interrupted (the agent stopped while it ran)`);
        }
      }
      if (!job) {
        await deleteRecord(context, id);
        recorded.delete(id);
        actions.push(`deleted the record of ${name} job ${id} (no longer listed)`);
      }
    }
    return recorded;
  }

  /** The first listed job that has neither run nor runs. */
  const nextJob = (jobs: readonly Job[], recorded: ReadonlySet<string>, activeId: string | undefined) =>
    jobs.find((job) => job.id !== activeId && !recorded.has(job.id));

  return {
    name,
    kind: 'feature',
    phase: definition.phase ?? 'daemons',
    ...(definition.calls ? { calls: definition.calls } : {}),

    async apply(desired, driverContext): Promise<DriverResult> {
      const context = contextOf(driverContext);
      const key = context.workspaceDir;
      const reason = await whyNotLive();
      const actions: string[] = [];
      const status = (extra?: string): DriverStatus => {
        const why = [reason, extra].filter(Boolean).join('; ');
        return { driver: name, live: reason === undefined, ...(why ? { reason: why } : {}) };
      };

      if (desired.state === 'removed') {
        runner.withdraw(key);
        const stopping = runner.running(key)?.id;
        if (stopping) {
          await runner.abort(key, 'the workspace was removed');
          actions.push(`stopped ${name} job ${stopping}: the workspace was removed`);
        }
        actions.push(...((await definition.remove?.(desired, context)) ?? []));
        for (const path of ended.keys()) if (path.startsWith(`${key}/`)) ended.delete(path);
        return { changed: actions.length > 0, actions, status: status() };
      }

      const notNeeded = definition.notNeeded(desired);
      // The folder first: the agent watches the wake file in it (wake-files.ts).
      if (notNeeded === undefined) await mkdir(jobsDir(context), { recursive: true, mode: 0o750 });
      const jobs = listed(desired, context);
      const recorded = await settleRecords(desired, context, jobs, actions);
      const result = (extra?: string): DriverResult => ({
        changed: actions.length > 0,
        actions,
        status: status(extra),
      });
      if (notNeeded !== undefined || desired.state !== 'running' || reason !== undefined) {
        runner.withdraw(key);
        // A stopped workspace runs nothing, jobs included (like its daemons).
        const stopping = desired.state === 'stopped' ? runningJob(context)?.id : undefined;
        if (stopping) {
          await runner.abort(key, 'the workspace was stopped');
          actions.push(`stopped ${name} job ${stopping}: the workspace was stopped`);
        }
        return result(notNeeded === undefined ? undefined : `not needed: ${notNeeded}`);
      }
      const next = nextJob(jobs, recorded, runningJob(context)?.id);
      if (!next) {
        runner.withdraw(key);
        return result();
      }
      const offered = runner.offer(key, next.id, (running) => runJob(next, desired, context, running));
      if (offered === 'started') actions.push(`started ${name} job ${next.id}`);
      else if (offered === 'waiting') actions.push(`${name} job ${next.id} waits for a free job slot`);
      return result();
    },

    async observe(desired, driverContext) {
      if (desired.state === 'removed') return {};
      const context = contextOf(driverContext);
      const key = context.workspaceDir;
      const jobs = listed(desired, context);
      const recorded = await recordedIds(context);
      const activeId = runningJob(context)?.id;
      for (const id of recorded)
        if (id !== activeId && !jobs.some((job) => job.id === id))
          return { drift: `${name} keeps the record of job ${id}, which is no longer listed` };
      if (desired.state !== 'running' || jobs.length === 0 || (await whyNotLive()) !== undefined) return {};
      const next = nextJob(jobs, recorded, activeId);
      if (next && runner.waiting(key) !== next.id) return { drift: `${name} job ${next.id} is to start` };
      return {};
    },

    async quiesce(_desired, driverContext) {
      const key = driverContext.workspaceDir;
      runner.withdraw(key);
      await runner.abort(key, "the workspace's storage was taken offline (a resize)");
    },

    async report(desired, driverContext) {
      if (desired.state === 'removed' || definition.notNeeded(desired) !== undefined) return {};
      const context = contextOf(driverContext);
      // A job that has recorded its end is reported so, though the runner may not yet know it.
      const active = runningJob(context);
      const records: TaskJobRecord<Result, Progress>[] = [];
      for (const job of listed(desired, context)) {
        if (job.id === active?.id) {
          records.push({
            id: job.id,
            status: 'running',
            started_at: active.startedAt.toISOString(),
            ...(active.progress === undefined ? {} : { progress: active.progress }),
          });
          continue;
        }
        const record = await readRecord(context, job.id);
        // Running, but not here: the agent died during it (the next apply records it so).
        if (record?.status === 'running')
          records.push({
            ...record,
            status: 'failed',
            ...failure('interrupted', 'the agent stopped while the job ran'),
          });
        else if (record) records.push(record);
      }
      return definition.report(records, desired, context);
    },

    wakeOn: (desired, workspaceDir) =>
      desired.state === 'removed' || definition.notNeeded(desired) !== undefined
        ? undefined
        : join(workspaceDir, name, JOB_ENDED_FILE),

    stop: () => runner.close('the agent stopped'),
  };
}
