// The task driver with a fake definition whose jobs end when the test says: a listed job runs once,
// in the background (the pass only starts it), one at a time per workspace and `concurrency` at a
// time on the node; its record outlives the agent (a finished job is reported and never run again,
// one that was running is recorded interrupted); records of jobs no longer listed are deleted; the
// end of a job is reported at once (its wake file, and through a real agent loop).
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BackupJob, BackupNodeJob, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { startAgent, type Agent } from '../agent.ts';
import type { Driver } from '../drivers/driver.ts';
import { workspaceDirDriver } from '../drivers/workspace-dir.driver.ts';
import { silentLogger } from '../logger.ts';
import { createReconcileMemory, type ReconcileMemory } from '../reconcile.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { fakeNodePass } from '../testing/fake-pass.ts';
import { startFakeApi, waitFor, type FakeApi } from '../testing/fake-api.ts';
import { testAgentConfig } from '../testing/agent-config.ts';
import type { TaskDefinition } from './definition.ts';
import { JOB_ENDED_FILE, taskDriver as makeTaskDriver } from './task-driver.ts';

let dataDir: string;
/** Every driver a test made: their jobs end (aborted if need be) before the test's folder goes. */
const made: Driver[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'task-driver-'));
});
afterEach(async () => {
  const node = { dataDir, logger: silentLogger, run: () => Promise.reject(new Error('no program')) };
  await Promise.all(made.splice(0).flatMap((driver) => (driver.stop ? [driver.stop(node)] : [])));
  // A job stopped just now may still be writing its last file (ENOTEMPTY on a loaded machine).
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
});

function taskDriver(...args: Parameters<typeof makeTaskDriver>): Driver {
  const driver = makeTaskDriver(...args);
  made.push(driver);
  return driver;
}

const A = 'ws-a';
const B = 'ws-b';
const wsDir = (id: string) => join(dataDir, 'workspaces', id);
const jobsDir = (id: string) => join(wsDir(id), 'backup', 'jobs');

const JOB_1 = '11111111-1111-4111-8111-111111111111';
const JOB_2 = '22222222-2222-4222-8222-222222222222';
const JOB_3 = '33333333-3333-4333-8333-333333333333';

const job = (id: string): BackupJob => ({
  id,
  kind: 'backup',
  type: 'full',
  paths: ['.'],
  tags: [],
  retention: null,
});

const workspace = (serviceId: string, jobs: string[], extra: Partial<WorkspaceDesiredState> = {}) =>
  desiredWorkspace({
    service_id: serviceId,
    generation: 1,
    backup: { jobs: jobs.map(job), clients: [], client_repositories: [] },
    ...extra,
  });

/** A fake feature: each job runs until the test ends it (`finish`), saying how far it is. */
function fakeTask() {
  const gates = new Map<string, (outcome: 'ok' | 'fail' | 'throw') => void>();
  const started: string[] = [];
  const recovered: string[] = [];
  const removed: string[] = [];
  let running = 0;
  let most = 0;
  const definition: TaskDefinition<BackupNodeJob, { files: number }, { percent: number }> = {
    name: 'backup',
    programs: [],
    notNeeded: (desired) => (desired.backup ? undefined : 'the workspace has no backups'),
    jobs: (desired) => desired.backup?.jobs ?? [],
    resultSchema: z.object({ files: z.number() }),
    async run(runJob, desired, _context, progress, signal) {
      started.push(`${desired.service_id}/${runJob.id}`);
      running += 1;
      most = Math.max(most, running);
      progress({ percent: 42 });
      try {
        const how = await new Promise<'ok' | 'fail' | 'throw' | 'aborted'>((resolve) => {
          gates.set(runJob.id, resolve);
          signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        if (how === 'throw') throw new Error('repository locked');
        if (how === 'ok') return { ok: true, result: { files: 12 } };
        return { ok: false, code: how === 'fail' ? 'no_space' : 'failed', error: `it went ${how}` };
      } finally {
        running -= 1;
      }
    },
    recover: (id) => {
      recovered.push(id);
      return Promise.resolve();
    },
    report: (jobs) =>
      Promise.resolve({
        backup: {
          jobs: jobs.map(({ result, progress, ...rest }) => ({
            ...rest,
            ...(result ? { files: result.files } : {}),
            ...(progress ? { progress: { percent: progress.percent, files_done: 0, bytes_done: 0 } } : {}),
          })),
          usage: null,
          snapshot_ids: null,
        },
      }),
    remove: (desired) => {
      removed.push(desired.service_id);
      return Promise.resolve([`deleted the backups of ${desired.service_id}`]);
    },
  };
  const finish = async (id: string, how: 'ok' | 'fail' | 'throw' = 'ok') => {
    await waitFor(() => gates.has(id), 5000, `job ${id} to run`);
    gates.get(id)?.(how);
    gates.delete(id);
  };
  return {
    definition,
    finish,
    started,
    recovered,
    removed,
    get most() {
      return most;
    },
  };
}

const live = { whyNotLive: () => Promise.resolve(undefined) };

async function pass(
  drivers: readonly Driver[],
  workspaces: WorkspaceDesiredState[],
  memory: ReconcileMemory = createReconcileMemory(),
  fullCheckEvery = 1,
) {
  const { result, reports } = await fakeNodePass({ dataDir, drivers, workspaces, memory, fullCheckEvery });
  const byId = new Map(reports.map((report) => [report.service_id, report]));
  return {
    result,
    report: (id = A) => byId.get(id)!,
    jobs: (id = A) => byId.get(id)?.features?.backup?.jobs,
  };
}

/** Waits for an asynchronous condition (a file's content). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const recordOf = async (serviceId: string, id: string) =>
  JSON.parse(await readFile(join(jobsDir(serviceId), `${id}.json`), 'utf8')) as Record<string, unknown>;

describe('a task driver', () => {
  it('runs a listed job once, beside the pass, and reports it running with its progress, then how it ended', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, live)];
    const memory = createReconcileMemory();

    const first = await pass(drivers, [workspace(A, [JOB_1])], memory);
    // The pass came back while the job still runs.
    expect(first.result.actions).toContain(`${A}: started backup job ${JOB_1}`);
    expect(first.jobs()).toEqual([expect.objectContaining({ id: JOB_1, status: 'running' })]);
    await waitFor(() => task.started.length === 1, 5000, 'the job to run');
    const polled = await pass(drivers, [workspace(A, [JOB_1])], memory, 1000);
    expect(polled.result.skipped).toEqual([A]);
    expect(polled.jobs()).toEqual([
      {
        id: JOB_1,
        status: 'running',
        started_at: expect.any(String) as string,
        progress: expect.objectContaining({ percent: 42 }) as object,
      },
    ]);
    expect(await recordOf(A, JOB_1)).toMatchObject({ id: JOB_1, status: 'running' });

    await task.finish(JOB_1);
    await until(async () => (await recordOf(A, JOB_1)).status === 'completed', 'the record');
    const after = await pass(drivers, [workspace(A, [JOB_1])], memory, 1000);
    expect(after.jobs()).toEqual([
      {
        id: JOB_1,
        status: 'completed',
        started_at: expect.any(String) as string,
        finished_at: expect.any(String) as string,
        files: 12,
      },
    ]);
    // Listed again and again, applied again (a full check): never run again.
    await pass(drivers, [workspace(A, [JOB_1], { generation: 2 })], memory);
    await pass(drivers, [workspace(A, [JOB_1], { generation: 2 })], memory, 1);
    expect(task.started).toEqual([`${A}/${JOB_1}`]);
    expect(after.report().ok).toBe(true);
  });

  it('runs one job at a time per workspace, in the listed order: a poll queues the next, which starts when the first ends', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, { ...live, concurrency: 4 })];
    const memory = createReconcileMemory();
    const state = workspace(A, [JOB_1, JOB_2, JOB_3]);

    const first = await pass(drivers, [state], memory);
    await waitFor(() => task.started.length === 1, 5000, 'the job to run');
    expect(task.started).toEqual([`${A}/${JOB_1}`]);
    // Queued jobs are not reported.
    expect(first.jobs()?.map((j) => j.id)).toEqual([JOB_1]);
    // The same generation, only polled: the next job is drift, applied, queued behind the first.
    const polled = await pass(drivers, [state], memory, 1000);
    expect(polled.result.applied).toEqual([A]);
    expect(polled.result.actions).toContain(`${A}: backup job ${JOB_2} waits for a free job slot`);
    expect((await pass(drivers, [state], memory, 1000)).result.skipped).toEqual([A]);
    expect(task.started).toHaveLength(1);

    await task.finish(JOB_1, 'fail');
    await waitFor(() => task.started.length === 2, 5000, 'the next job to run');
    expect(task.started).toEqual([`${A}/${JOB_1}`, `${A}/${JOB_2}`]);
    const second = await pass(drivers, [state], memory, 1000);
    expect(second.jobs()).toEqual([
      expect.objectContaining({ id: JOB_1, status: 'failed', error_code: 'no_space', error: 'it went fail' }),
      expect.objectContaining({ id: JOB_2, status: 'running' }),
    ]);
    await task.finish(JOB_2, 'throw');
    await waitFor(() => task.started.length === 3, 5000, 'the third job to run');
    expect(await recordOf(A, JOB_2)).toMatchObject({
      status: 'failed',
      error_code: 'failed',
      error: 'repository locked',
    });
    await task.finish(JOB_3);
    await until(async () => (await recordOf(A, JOB_3)).status === 'completed', 'the third job to end');
    expect(task.most).toBe(1);
  });

  it('runs at most `concurrency` jobs on the node; a waiting workspace starts as soon as a slot frees', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, { ...live, concurrency: 1 })];
    const memory = createReconcileMemory();
    const both = [workspace(A, [JOB_1]), workspace(B, [JOB_2])];

    const first = await pass(drivers, both, memory);
    await waitFor(() => task.started.length === 1, 5000, 'the job to run');
    expect(task.started).toEqual([`${A}/${JOB_1}`]);
    expect(first.result.actions).toContain(`${B}: backup job ${JOB_2} waits for a free job slot`);
    expect(first.jobs(B)).toEqual([]);
    await pass(drivers, both, memory, 1000);
    expect(task.started).toHaveLength(1);

    // No pass in between: the runner starts B's job when A's ends.
    await task.finish(JOB_1);
    await waitFor(() => task.started.length === 2, 5000, "B's job to start");
    expect(task.started[1]).toBe(`${B}/${JOB_2}`);
    await task.finish(JOB_2);
    await until(async () => (await recordOf(B, JOB_2)).status === 'completed', "B's job to end");
    expect(task.most).toBe(1);

    const wide = fakeTask();
    const wideDrivers = [workspaceDirDriver, taskDriver(wide.definition, { ...live, concurrency: 2 })];
    await rm(join(dataDir, 'workspaces'), { recursive: true });
    await pass(wideDrivers, both);
    await waitFor(() => wide.started.length === 2, 5000, 'both jobs to run');
    expect(wide.started.sort()).toEqual([`${A}/${JOB_1}`, `${B}/${JOB_2}`]);
    await wide.finish(JOB_1);
    await wide.finish(JOB_2);
    await until(async () => (await recordOf(B, JOB_2)).status === 'completed', "B's job to end");
    await until(async () => (await recordOf(A, JOB_1)).status === 'completed', "A's job to end");
  });

  it('after an agent restart: a finished job is reported and never run again; one that was running is recorded interrupted', async () => {
    const before = fakeTask();
    const state = workspace(A, [JOB_1, JOB_2]);
    await pass([workspaceDirDriver, taskDriver(before.definition, live)], [state]);
    await before.finish(JOB_1);
    await until(async () => (await recordOf(A, JOB_1)).status === 'completed', 'the first job');
    await pass([workspaceDirDriver, taskDriver(before.definition, live)], [state]);
    await waitFor(() => before.started.length === 2, 5000, 'the second job');
    // The agent dies here: JOB_2's record says running. A new agent, a new driver, the same folder.
    const after = fakeTask();
    const restarted = [workspaceDirDriver, taskDriver(after.definition, live)];
    const { result, jobs } = await pass(restarted, [state]);
    expect(after.started).toEqual([]);
    expect(after.recovered).toEqual([JOB_2]);
    expect(result.actions).toContain(
      `${A}: recorded backup job ${JOB_2} interrupted (the agent stopped while it ran)`,
    );
    expect(jobs()).toEqual([
      expect.objectContaining({ id: JOB_1, status: 'completed', files: 12 }),
      expect.objectContaining({ id: JOB_2, status: 'failed', error_code: 'interrupted' }),
    ]);
    await pass(restarted, [state]);
    expect(after.started).toEqual([]);
    // (The first agent's job, still in this process, is stopped before the test's folder goes.)
  });

  it('deletes the records of jobs no longer listed (a poll sees them), and keeps a running one', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, { ...live, concurrency: 1 })];
    const memory = createReconcileMemory();
    await pass(drivers, [workspace(A, [JOB_1])], memory);
    await task.finish(JOB_1);
    await until(async () => (await recordOf(A, JOB_1)).status === 'completed', 'the job');
    await pass(drivers, [workspace(A, [JOB_1, JOB_2])], memory, 1000);
    await waitFor(() => task.started.length === 2, 5000, 'the second job');
    await until(async () => (await readdir(jobsDir(A))).length === 2, 'its record');
    expect((await readdir(jobsDir(A))).sort()).toEqual([`${JOB_1}.json`, `${JOB_2}.json`].sort());

    // The API stored JOB_1 and stopped listing it; JOB_2 runs and is not listed either.
    const { result } = await pass(drivers, [workspace(A, [])], memory, 1000);
    expect(result.applied).toEqual([A]);
    expect(result.actions).toContain(`${A}: deleted the record of backup job ${JOB_1} (no longer listed)`);
    expect(await readdir(jobsDir(A))).toEqual([`${JOB_2}.json`]);
    await task.finish(JOB_2);
    await until(async () => (await recordOf(A, JOB_2)).status === 'completed', 'the job');
    await pass(drivers, [workspace(A, [])], memory, 1000);
    expect(await readdir(jobsDir(A))).toEqual([]);
  });

  it('writes its wake file when a job starts and when it ends', async () => {
    const task = fakeTask();
    const driver = taskDriver(task.definition, live);
    const state = workspace(A, [JOB_1]);
    const wakeFile = join(wsDir(A), 'backup', JOB_ENDED_FILE);
    expect(driver.wakeOn?.(state, wsDir(A))).toBe(wakeFile);
    expect(driver.wakeOn?.(workspace(A, [], { backup: undefined }), wsDir(A))).toBeUndefined();
    await pass([workspaceDirDriver, driver], [state]);
    await until(
      () =>
        stat(wakeFile).then(
          () => true,
          () => false,
        ),
      'the wake file',
    );
    const started = (await stat(wakeFile)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await task.finish(JOB_1);
    await until(async () => (await stat(wakeFile)).mtimeMs > started, 'the wake file written again');
  });

  it('starts nothing while not live, stopped or not needed, and says why', async () => {
    const task = fakeTask();
    const notLive = taskDriver(task.definition, {
      whyNotLive: () => Promise.resolve('restic is not installed'),
    });
    expect((await pass([workspaceDirDriver, notLive], [workspace(A, [JOB_1])])).report().drivers[1]).toEqual({
      driver: 'backup',
      live: false,
      reason: 'restic is not installed',
    });
    const driver = taskDriver(task.definition, live);
    const stopped = await pass([workspaceDirDriver, driver], [workspace(A, [JOB_1], { state: 'stopped' })]);
    expect(stopped.report().drivers[1]).toEqual({ driver: 'backup', live: true });
    expect(stopped.jobs()).toEqual([]);
    const none = await pass([workspaceDirDriver, driver], [workspace(A, [], { backup: undefined })]);
    expect(none.report().drivers[1]).toEqual({
      driver: 'backup',
      live: true,
      reason: 'not needed: the workspace has no backups',
    });
    expect(none.report().features).toBeUndefined();
    expect(task.started).toEqual([]);
  });

  it('a removed workspace: its running job is stopped and recorded interrupted, then the feature deletes its data', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, live)];
    await pass(drivers, [workspace(A, [JOB_1])]);
    await waitFor(() => task.started.length === 1, 5000, 'the job');
    const wanted: string[] = [];
    // Before the workspace's folder goes, the job has ended and said so.
    const watcher: Driver = {
      name: 'watcher',
      apply: async () => {
        wanted.push(String((await recordOf(A, JOB_1)).error_code));
        return { changed: false, actions: [], status: { driver: 'watcher', live: true } };
      },
    };
    const { result } = await pass(
      [workspaceDirDriver, watcher, ...drivers.slice(1)],
      [workspace(A, [JOB_1], { state: 'removed' })],
    );
    expect(wanted).toEqual(['interrupted']);
    expect(result.actions).toEqual([
      `${A}: stopped backup job ${JOB_1}: the workspace was removed`,
      `${A}: deleted the backups of ${A}`,
      `${A}: removed ${wsDir(A)}`,
    ]);
    expect(task.removed).toEqual([A]);
  });

  it('a stopped workspace stops its running job (interrupted) and starts no other', async () => {
    const task = fakeTask();
    const drivers = [workspaceDirDriver, taskDriver(task.definition, live)];
    await pass(drivers, [workspace(A, [JOB_1, JOB_2])]);
    await waitFor(() => task.started.length === 1, 5000, 'the job');
    const { result, jobs } = await pass(drivers, [workspace(A, [JOB_1, JOB_2], { state: 'stopped' })]);
    expect(result.actions).toContain(`${A}: stopped backup job ${JOB_1}: the workspace was stopped`);
    expect(jobs()).toEqual([
      expect.objectContaining({
        id: JOB_1,
        status: 'failed',
        error_code: 'interrupted',
        error: 'the workspace was stopped',
      }),
    ]);
    await pass(drivers, [workspace(A, [JOB_1, JOB_2], { state: 'stopped' })]);
    expect(task.started).toEqual([`${A}/${JOB_1}`]);
  });

  it('a quiesce (the storage taken offline) stops the running job: interrupted', async () => {
    const task = fakeTask();
    const driver = taskDriver(task.definition, live);
    await pass([workspaceDirDriver, driver], [workspace(A, [JOB_1])]);
    await waitFor(() => task.started.length === 1, 5000, 'the job');
    await driver.quiesce?.(workspace(A, [JOB_1]), {
      dataDir,
      workspaceDir: wsDir(A),
      logger: silentLogger,
      run: () => Promise.reject(new Error('no program')),
    });
    expect(await recordOf(A, JOB_1)).toMatchObject({
      status: 'failed',
      error_code: 'interrupted',
      error: "the workspace's storage was taken offline (a resize)",
    });
  });
});

describe('a task driver in a running agent', () => {
  let api: FakeApi;
  let agent: Agent | undefined;
  beforeEach(async () => {
    api = await startFakeApi();
  });
  afterEach(async () => {
    await agent?.stop();
    await api.close();
  });

  const start = (drivers: readonly Driver[]) =>
    startAgent(
      testAgentConfig(api, dataDir, {
        nodeName: 'task-node',
        // An hour: any report after the first comes from a wake, not from the poll.
        pollIntervalMs: 3_600_000,
        addresses: ['127.0.10.1'],
      }),
      silentLogger,
      { drivers, calls: false },
    );

  const jobsReported = () =>
    api.reports.at(-1)?.workspaces.find((w: WorkspaceReport) => w.service_id === A)?.features?.backup?.jobs ??
    [];

  it('reports a job’s end at once, not at its next poll', async () => {
    const task = fakeTask();
    api.workspaces = [workspace(A, [JOB_1])];
    agent = start([workspaceDirDriver, taskDriver(task.definition, live)]);
    await waitFor(() => api.reports.length >= 1 && task.started.length === 1, 5000, 'the first report');
    expect(api.invalid).toEqual([]);
    await task.finish(JOB_1);
    await waitFor(() => jobsReported()[0]?.status === 'completed', 10_000, 'the report of the end');
    expect(api.invalid).toEqual([]);
  }, 20_000);

  it('stopping the agent stops its jobs, recorded interrupted', async () => {
    const task = fakeTask();
    api.workspaces = [workspace(A, [JOB_1])];
    agent = start([workspaceDirDriver, taskDriver(task.definition, live)]);
    await waitFor(() => task.started.length === 1, 5000, 'the job');
    await agent.stop();
    expect(await recordOf(A, JOB_1)).toMatchObject({
      status: 'failed',
      error_code: 'interrupted',
      error: 'the agent stopped',
    });
  });
});

// A record the agent wrote before this version (or by hand) that it cannot read is a failure, not a crash.
describe('a task driver’s records', () => {
  it('reports an unreadable record as failed', async () => {
    const task = fakeTask();
    await mkdir(jobsDir(A), { recursive: true });
    await writeFile(join(jobsDir(A), `${JOB_1}.json`), '{not json');
    const { jobs } = await pass(
      [workspaceDirDriver, taskDriver(task.definition, live)],
      [workspace(A, [JOB_1])],
    );
    expect(jobs()).toEqual([expect.objectContaining({ id: JOB_1, status: 'failed', error_code: 'failed' })]);
    expect(task.started).toEqual([]);
  });
});
