import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type {
  BackupBrowseResponse,
  BackupReport,
  BackupRestore,
  BackupSchedule,
  BackupSession,
  BackupSources,
  BackupUsage,
  NodeCallKind,
  NodeStreamCallKind,
  WorkspaceDesiredState,
} from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import { injectWithCsrf } from '../../test/test-app.ts';
import type { NodeCalls } from '../nodes/node-calls.ts';
import { createUsersQueries } from '../users/users.queries.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  PASSWORD,
  serviceRow,
  type Auth,
  expectNodeFileDownloaded,
} from '../directory/workspace.test-support.ts';
import { cronPattern, nextRunAfter } from './backup-calendar.ts';
import { createBackupScheduler } from './backups.scheduler.ts';
import { backupSchedules } from './backups.table.ts';

const DAY_MS = 86_400_000;

describe('backup schedule times (unit)', () => {
  it('reads the time in the schedule’s zone, across daylight-saving changes', () => {
    const weekly = {
      frequency: 'weekly',
      hour: 2,
      minute: 0,
      weekday: 0,
      monthDay: 1,
      timeZone: 'Europe/Vilnius',
    } as const;
    expect(cronPattern(weekly)).toBe('0 2 * * 0');
    // Sunday 2:00 in Vilnius: winter (+2) and summer (+3).
    expect(nextRunAfter(weekly, new Date('2026-03-28T12:00:00Z')).toISOString()).toBe(
      '2026-03-29T00:00:00.000Z',
    );
    expect(nextRunAfter(weekly, new Date('2026-10-24T12:00:00Z')).toISOString()).toBe(
      '2026-10-24T23:00:00.000Z',
    );
    const monthly = { ...weekly, frequency: 'monthly', monthDay: 1 } as const;
    expect(nextRunAfter(monthly, new Date('2026-01-31T12:00:00Z')).toISOString()).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    const hourly = { ...weekly, frequency: 'hourly', minute: 15 } as const;
    expect(nextRunAfter(hourly, new Date('2026-01-31T12:15:00Z')).toISOString()).toBe(
      '2026-01-31T13:15:00.000Z',
    );
  });
});

describe('backups', () => {
  const asked: Array<{ serviceId: string; kind: NodeCallKind | NodeStreamCallKind; payload: unknown }> = [];
  const mails: MailMessage[] = [];
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind, payload: { path: string }) => {
      asked.push({ serviceId, kind, payload });
      if (payload.path === '/nowhere')
        return { ok: true, result: { found: false, entries: [], truncated: false } };
      return {
        ok: true,
        result: {
          found: true,
          entries: [
            { name: 'projects', type: 'dir', size: null, modified_at: '2026-11-01T10:00:00Z' },
            { name: 'report.txt', type: 'file', size: 12, modified_at: '2026-11-01T10:00:00Z' },
          ],
          truncated: false,
        },
      };
    }) as NodeCalls['call'],
    // The node's bytes of one file: a small one in two chunks, and no other file.
    stream: (async (serviceId: string, kind: 'backup.download', payload: { path: string }) => {
      asked.push({ serviceId, kind, payload });
      if (payload.path !== '/shares/projects/ataskaita už lapkritį.txt')
        return { ok: false, code: 'not_found', error: 'no such file in the snapshot' };
      return {
        ok: true,
        stream: {
          name: 'ataskaita už lapkritį.txt',
          size: 11,
          body: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
        },
      };
    }) as NodeCalls['stream'],
  };

  const { ctx, call, node, place } = useWorkspaceTestApp({
    clock: true,
    nodeCalls,
    node: { name: 'backup-node', addresses: ['10.17.0.1'], subnet: '10.17.1', idBase: 8_000_000 },
  });

  const base = (serviceId: string) => `/api/v1/backups/${serviceId}`;
  const put = (auth: Auth, url: string, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'PUT', url, headers: auth, payload });
  const scheduler = () =>
    createBackupScheduler({
      db: ctx.database.db,
      users: createUsersQueries(ctx.database.db),
      sendMail: async (message) => {
        mails.push(message);
      },
      publicUrl: 'http://localhost',
      wakeNode: () => undefined,
      now: () => ctx.now(),
    });

  /** Every active schedule of the service became due `ms` ago. */
  async function backDate(serviceId: string, ms: number): Promise<void> {
    await ctx.database.db
      .update(backupSchedules)
      .set({ nextRunAt: new Date(ctx.now().getTime() - ms) })
      .where(and(eq(backupSchedules.serviceId, serviceId), eq(backupSchedules.state, 'active')));
  }

  async function placedService() {
    const owner = await ownerWithService(ctx);
    await place(owner.serviceId);
    const share = await call.post(owner.auth, `/api/v1/samba/${owner.serviceId}/shares`, {
      name: 'projects',
    });
    expect(share.statusCode, share.body).toBe(201);
    const user = await call.post(owner.auth, `/api/v1/user-groups/${owner.serviceId}/users`, {
      name: 'ona',
      password: PASSWORD,
    });
    expect(user.statusCode, user.body).toBe(201);
    return owner;
  }

  async function schedule(auth: Auth, serviceId: string, body: object = {}): Promise<BackupSchedule> {
    const response = await call.post(auth, `${base(serviceId)}/schedules`, {
      name: 'Projects weekly',
      frequency: 'weekly',
      hour: 2,
      minute: 0,
      weekday: 0,
      time_zone: 'Europe/Vilnius',
      paths: [
        { kind: 'share', name: 'projects' },
        { kind: 'home', name: 'ona' },
      ],
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<BackupSchedule>();
  }

  const trigger = async (auth: Auth, serviceId: string, id: string) => {
    const response = await call.post(auth, `${base(serviceId)}/schedules/${id}/trigger`);
    expect(response.statusCode, response.body).toBe(202);
    return response.json<BackupSession>();
  };
  const sessions = async (auth: Auth, serviceId: string, query = '') => {
    const response = await call.get(auth, `${base(serviceId)}/sessions${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ sessions: BackupSession[] }>().sessions;
  };
  const desiredOf = async (serviceId: string): Promise<WorkspaceDesiredState | undefined> =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);
  const report = async (serviceId: string, backup: Partial<BackupReport>) =>
    node.report([
      {
        service_id: serviceId,
        observed_generation: (await serviceRow(ctx, serviceId)).generation,
        ok: true,
        drivers: [{ driver: 'backup', live: true }],
        failures: [],
        features: { backup: { jobs: [], usage: null, snapshot_ids: null, ...backup } },
      },
    ]);
  // One reading of the clock for both ends: two readings a millisecond apart made it 2.001 s.
  const completed = (id: string, snapshot: string, startedAt = ctx.now()) => ({
    id,
    status: 'completed' as const,
    started_at: startedAt.toISOString(),
    finished_at: new Date(startedAt.getTime() + 2000).toISOString(),
    snapshot_id: snapshot,
    bytes_added: 2048,
    files: 3,
    files_new: 3,
  });
  const failed = (id: string, code = 'repository_missing') => ({
    id,
    status: 'failed' as const,
    started_at: ctx.now().toISOString(),
    finished_at: ctx.now().toISOString(),
    error_code: code,
    error: 'Fatal: unable to open config file',
  });

  it('makes a schedule from a preset with folders chosen from the service’s lists; refuses a folder it does not have', async () => {
    const { auth, serviceId } = await placedService();
    const sources = (await call.get(auth, `${base(serviceId)}/sources`)).json<BackupSources>();
    expect(sources).toEqual({ shares: ['projects'], homes: ['ona'], exports: [] });

    const created = await schedule(auth, serviceId);
    expect(created).toMatchObject({
      frequency: 'weekly',
      state: 'active',
      provider_managed: false,
      keep_full: 4,
      keep_incremental: 14,
      full_every_days: 7,
      last_session: null,
    });
    // Sunday 2:00 in Vilnius, after now.
    const next = new Date(created.next_run_at ?? '');
    expect(next.getTime()).toBeGreaterThan(ctx.now().getTime());
    expect(next.getTime() - ctx.now().getTime()).toBeLessThanOrEqual(7 * DAY_MS);
    expect(
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'Europe/Vilnius',
        weekday: 'short',
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(next),
    ).toBe('Sun, 02');

    const unknown = await call.post(auth, `${base(serviceId)}/schedules`, {
      name: 'x',
      frequency: 'daily',
      paths: [{ kind: 'share', name: 'nope' }],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ errors: Array<{ field: string; code: string }> }>().errors).toEqual([
      expect.objectContaining({ field: 'paths.0.name', code: 'backup_path_unknown' }),
    ]);
    const badZone = await call.post(auth, `${base(serviceId)}/schedules`, {
      name: 'x',
      frequency: 'daily',
      time_zone: 'Mars/Olympus',
      paths: [{ kind: 'share', name: 'projects' }],
    });
    expect(badZone.statusCode).toBe(422);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain(
      'Backup schedule created',
    );
  });

  it('runs now once: the job is in the desired state with the folders’ paths; progress, completion and browse follow the node', async () => {
    const { auth, serviceId } = await placedService();
    const created = await schedule(auth, serviceId);
    const queued = await trigger(auth, serviceId, created.id);
    expect(queued).toMatchObject({ status: 'queued', type: 'full', trigger: 'manual', browsable: false });
    // Asked again while it waits: the same run.
    expect((await trigger(auth, serviceId, created.id)).id).toBe(queued.id);
    expect(await sessions(auth, serviceId)).toHaveLength(1);

    const desired = await desiredOf(serviceId);
    expect(desired?.backup?.jobs).toEqual([
      {
        id: queued.id,
        kind: 'backup',
        type: 'full',
        paths: ['shares/projects', 'home/ona'],
        tags: [`schedule:${created.id}`, 'full'],
        retention: { tag: `schedule:${created.id}`, keep_full: 4, keep_incremental: 14 },
      },
    ]);

    await report(serviceId, {
      jobs: [
        {
          id: queued.id,
          status: 'running',
          started_at: ctx.now().toISOString(),
          progress: { percent: 40, files_done: 2, bytes_done: 100 },
        },
      ],
    });
    const [running] = await sessions(auth, serviceId);
    expect(running).toMatchObject({
      status: 'running',
      progress: { percent: 40, files_done: 2, bytes_done: 100 },
    });

    await report(serviceId, {
      jobs: [completed(queued.id, 'a'.repeat(64))],
      usage: {
        repository_bytes: 9000,
        stored_bytes: 4000,
        snapshots: 1,
        measured_at: ctx.now().toISOString(),
      },
      snapshot_ids: ['a'.repeat(64)],
    });
    const [done] = await sessions(auth, serviceId);
    expect(done).toMatchObject({
      status: 'completed',
      size_added: 2048,
      files: 3,
      files_new: 3,
      browsable: true,
      progress: null,
      duration_seconds: 2,
    });
    // Finished jobs leave the desired state with its next generation (it is kept per generation);
    // the node never runs a finished id again.
    const usage = (await call.get(auth, `${base(serviceId)}/usage`)).json<BackupUsage>();
    expect(usage).toMatchObject({ repository_bytes: 9000, stored_bytes: 4000, snapshots: 1 });
    expect(usage.last_success_at).not.toBeNull();

    const browsed = await call.get(auth, `${base(serviceId)}/sessions/${queued.id}/browse?path=%2Fshares`);
    expect(browsed.statusCode, browsed.body).toBe(200);
    expect(browsed.json<BackupBrowseResponse>().entries.map((entry) => entry.name)).toEqual([
      'projects',
      'report.txt',
    ]);
    expect(asked.at(-1)).toEqual({
      serviceId,
      kind: 'backup.browse',
      payload: { snapshot_id: 'a'.repeat(64), path: '/shares' },
    });
    expect(
      (await call.get(auth, `${base(serviceId)}/sessions/${queued.id}/browse?path=%2Fnowhere`)).statusCode,
    ).toBe(404);
    expect(
      (await call.get(auth, `${base(serviceId)}/sessions/${queued.id}/browse?path=..%2Fetc`)).statusCode,
    ).toBe(422);

    // The next run within full_every_days is incremental.
    const second = await trigger(auth, serviceId, created.id);
    expect(second.type).toBe('incremental');
    const [, last] = [
      0,
      (await call.get(auth, `${base(serviceId)}/schedules`)).json<{ schedules: BackupSchedule[] }>(),
    ];
    expect(last.schedules.find((s) => s.id === created.id)?.last_session).toMatchObject({
      id: second.id,
      status: 'queued',
    });
  });

  it('restores a file back or into a folder as a node job; refuses a run that cannot be browsed', async () => {
    const { auth, serviceId } = await placedService();
    const created = await schedule(auth, serviceId);
    const run = await trigger(auth, serviceId, created.id);
    const early = await call.post(auth, `${base(serviceId)}/sessions/${run.id}/restore`, {
      path: '/shares/projects/a.txt',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json<{ detail: string }>().detail).toBe('backup_not_browsable');
    await report(serviceId, { jobs: [completed(run.id, 'b'.repeat(64))] });

    const root = await call.post(auth, `${base(serviceId)}/sessions/${run.id}/restore`, { path: '/' });
    expect(root.statusCode).toBe(422);
    const asked = await call.post(auth, `${base(serviceId)}/sessions/${run.id}/restore`, {
      path: '/shares/projects/a.txt',
      target: 'folder',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const restore = asked.json<BackupRestore>();
    expect(restore).toMatchObject({ status: 'queued', target: 'folder', path: '/shares/projects/a.txt' });
    expect((await desiredOf(serviceId))?.backup?.jobs).toEqual([
      {
        id: restore.id,
        kind: 'restore',
        snapshot_id: 'b'.repeat(64),
        path: '/shares/projects/a.txt',
        target: 'folder',
      },
    ]);
    await report(serviceId, {
      jobs: [
        {
          id: restore.id,
          status: 'completed',
          started_at: ctx.now().toISOString(),
          finished_at: ctx.now().toISOString(),
          files_restored: 1,
          restored_to: '/shares/projects/a (restored 2026-11-28).txt',
        },
      ],
    });
    const listed = (await call.get(auth, `${base(serviceId)}/restores`)).json<{
      restores: BackupRestore[];
    }>();
    expect(listed.restores[0]).toMatchObject({
      status: 'completed',
      files_restored: 1,
      restored_to: '/shares/projects/a (restored 2026-11-28).txt',
    });
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain(
      'Backup restore started',
    );
  });

  it('downloads one file of a completed backup as an attachment, piped from the node', async () => {
    const { auth, serviceId } = await placedService();
    const created = await schedule(auth, serviceId);
    const run = await trigger(auth, serviceId, created.id);
    const url = (path: string) =>
      `${base(serviceId)}/sessions/${run.id}/download?path=${encodeURIComponent(path)}`;
    const early = await call.get(auth, url('/shares/projects/ataskaita už lapkritį.txt'));
    expect(early.statusCode).toBe(409);
    expect(early.json<{ detail: string }>().detail).toBe('backup_not_browsable');
    await report(serviceId, { jobs: [completed(run.id, 'c'.repeat(64))] });

    const file = await call.get(auth, url('/shares/projects/ataskaita už lapkritį.txt'));
    expectNodeFileDownloaded(file);
    expect(asked.at(-1)).toEqual({
      serviceId,
      kind: 'backup.download',
      payload: { snapshot_id: 'c'.repeat(64), path: '/shares/projects/ataskaita už lapkritį.txt' },
    });
    const missing = await call.get(auth, url('/shares/projects/nothing.txt'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ detail: string }>().detail).toBe('backup_path_not_found');
    expect((await call.get(auth, url('/'))).statusCode).toBe(422);
    expect((await call.get(auth, url('/shares/../etc/passwd'))).statusCode).toBe(422);
  });

  it('forgotten snapshots are no longer browsable; a job id of another service changes nothing', async () => {
    const one = await placedService();
    const other = await placedService();
    const created = await schedule(one.auth, one.serviceId);
    const first = await trigger(one.auth, one.serviceId, created.id);
    await report(one.serviceId, { jobs: [completed(first.id, 'c'.repeat(64))] });
    const second = await trigger(one.auth, one.serviceId, created.id);
    // Reported under the other service: ignored.
    await report(other.serviceId, { jobs: [completed(second.id, 'e'.repeat(64))] });
    expect((await sessions(one.auth, one.serviceId))[0]).toMatchObject({ id: second.id, status: 'queued' });
    await report(one.serviceId, {
      jobs: [completed(second.id, 'd'.repeat(64))],
      snapshot_ids: ['d'.repeat(64)],
    });
    const list = await sessions(one.auth, one.serviceId);
    expect(list.map((s) => [s.id, s.pruned, s.browsable])).toEqual([
      [second.id, false, true],
      [first.id, true, false],
    ]);
    expect((await call.get(other.auth, `${base(one.serviceId)}/sessions`)).statusCode).toBe(404);
  });

  it('the scheduler gives every active service the provider’s daily backup, queues due runs once across schedulers, and skips paused ones', async () => {
    const { auth, serviceId } = await placedService();
    await scheduler().tick();
    const listedResponse = await call.get(auth, `${base(serviceId)}/schedules`);
    expect(listedResponse.statusCode, listedResponse.body).toBe(200);
    const listed = listedResponse.json<{
      schedules: BackupSchedule[];
    }>();
    const provider = listed.schedules[0];
    expect(provider).toMatchObject({
      provider_managed: true,
      frequency: 'daily',
      keep_full: 1,
      keep_incremental: 6,
      full_every_days: 7,
      time_zone: 'Europe/Vilnius',
    });
    expect(provider?.hour).toBeGreaterThanOrEqual(2);
    expect(provider?.hour).toBeLessThanOrEqual(3);
    // The owner may run it now, but not change or delete it.
    expect(
      (await put(auth, `${base(serviceId)}/schedules/${provider?.id}`, { state: 'paused' })).statusCode,
    ).toBe(409);
    expect((await call.del(auth, `${base(serviceId)}/schedules/${provider?.id}`)).statusCode).toBe(409);

    const paused = await schedule(auth, serviceId, {
      name: 'Paused',
      frequency: 'hourly',
      minute: 5,
      state: 'paused',
    });
    const hourly = await schedule(auth, serviceId, { name: 'Hourly', frequency: 'hourly', minute: 5 });
    expect(paused.next_run_at).toBeNull();

    // Every schedule's time passed three days ago (the worker was down): each runs once, not once
    // per missed time, even with two schedulers at the same minute; the paused one not at all.
    await backDate(serviceId, 3 * DAY_MS);
    await Promise.all([scheduler().tick(), scheduler().tick()]);
    const runs = await sessions(auth, serviceId);
    expect(runs.map((run) => run.schedule_name).sort()).toEqual(['Daily backup', 'Hourly']);
    expect(runs.every((run) => run.trigger === 'schedule' && run.status === 'queued')).toBe(true);
    const jobs = (await desiredOf(serviceId))?.backup?.jobs ?? [];
    expect(jobs.find((job) => job.kind === 'backup' && job.paths.includes('.'))).toBeDefined();
    // Each next time counts from now.
    const after = (await call.get(auth, `${base(serviceId)}/schedules`)).json<{
      schedules: BackupSchedule[];
    }>();
    for (const listed of after.schedules.filter((s) => s.state === 'active'))
      expect(new Date(listed.next_run_at ?? '').getTime()).toBeGreaterThan(ctx.now().getTime());

    // Due again while its run still waits: nothing new is queued.
    await backDate(serviceId, 60_000);
    await scheduler().tick();
    expect(await sessions(auth, serviceId)).toHaveLength(2);
    // Resumed, the paused one counts from now: it does not run for what it missed.
    const resumed = await put(auth, `${base(serviceId)}/schedules/${paused.id}`, { state: 'active' });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(new Date(resumed.json<BackupSchedule>().next_run_at ?? '').getTime()).toBeGreaterThan(
      ctx.now().getTime(),
    );
    expect(
      (await sessions(auth, serviceId, `?schedule_id=${hourly.id}`)).map((s) => s.schedule_name),
    ).toEqual(['Hourly']);
  });

  it('six schedulers at once (on PostgreSQL really in parallel, as several workers) queue each due run once', async () => {
    const owners = [await placedService(), await placedService()];
    const made: string[] = [];
    for (const { auth, serviceId } of owners)
      for (const name of ['A', 'B', 'C', 'D'])
        made.push((await schedule(auth, serviceId, { name, frequency: 'hourly', minute: 7 })).id);
    for (const { serviceId } of owners) await backDate(serviceId, 2 * 3_600_000);
    await Promise.all(Array.from({ length: 6 }, () => scheduler().tick()));
    for (const { serviceId } of owners) await backDate(serviceId, 60_000);
    await Promise.all(Array.from({ length: 6 }, () => scheduler().tick()));
    for (const { auth, serviceId } of owners) {
      const runs = await sessions(auth, serviceId);
      const perSchedule = new Map<string, number>();
      for (const run of runs)
        perSchedule.set(run.schedule_id ?? '', (perSchedule.get(run.schedule_id ?? '') ?? 0) + 1);
      // Four own schedules and the provider's: one run each.
      expect(perSchedule.size).toBe(5);
      expect([...perSchedule.values()].every((count) => count === 1)).toBe(true);
    }
    expect(made).toHaveLength(8);
  });

  it('a failed run is in history with its code, in the activity log, and mailed once until the schedule succeeds again', async () => {
    const { auth, serviceId, owner } = await placedService();
    const created = await schedule(auth, serviceId, { name: 'Nightly' });
    const mailsTo = () => mails.filter((mail) => mail.to === owner.email);

    const ticksQueued = async () =>
      Number(
        (
          await ctx.database.executeSql(
            `select count(*)::int as n from pgboss.job where name = 'backups.tick'`,
          )
        ).rows[0]?.n,
      );
    const queuedBefore = await ticksQueued();
    const first = await trigger(auth, serviceId, created.id);
    await report(serviceId, { jobs: [failed(first.id)] });
    expect((await sessions(auth, serviceId))[0]).toMatchObject({
      status: 'failed',
      error_code: 'repository_missing',
      error: 'Fatal: unable to open config file',
    });
    // The report asks the worker's tick to mail now, not at its next minute.
    expect(await ticksQueued()).toBe(queuedBefore + 1);
    await scheduler().tick();
    await scheduler().tick();
    expect(mailsTo()).toHaveLength(1);
    expect(mailsTo()[0]?.subject).toContain('Nightly');

    const second = await trigger(auth, serviceId, created.id);
    await report(serviceId, { jobs: [failed(second.id, 'failed')] });
    await scheduler().tick();
    expect(mailsTo()).toHaveLength(1);

    const third = await trigger(auth, serviceId, created.id);
    await report(serviceId, { jobs: [completed(third.id, 'f'.repeat(64))] });
    const fourth = await trigger(auth, serviceId, created.id);
    await report(serviceId, { jobs: [failed(fourth.id, 'no_space')] });
    await scheduler().tick();
    expect(mailsTo()).toHaveLength(2);
    const actions = (await activityOf(ctx, serviceId)).filter((entry) => entry.action === 'Backup failed');
    expect(actions).toHaveLength(3);
    expect(actions[0]).toMatchObject({ tone: 'error' });
  });

  it('a schedule whose folders are all gone fails at once with path_missing, without a node job', async () => {
    const { auth, serviceId } = await placedService();
    const created = await schedule(auth, serviceId, { paths: [{ kind: 'share', name: 'projects' }] });
    expect((await call.del(auth, `/api/v1/samba/${serviceId}/shares/projects`)).statusCode).toBe(204);
    const run = await trigger(auth, serviceId, created.id);
    expect(run).toMatchObject({ status: 'failed', error_code: 'path_missing' });
    expect((await desiredOf(serviceId))?.backup?.jobs).toEqual([]);
  });
});
