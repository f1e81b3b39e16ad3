import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ActivityEventReport,
  ActivityResponse,
  LoginResponse,
  AlertsResponse,
  MonitoringStatusResponse,
  ServiceQuotaResponse,
  TasksResponse,
  UserQuotaResponse,
  WorkspaceReport,
} from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import { login } from '../../test/factories.ts';
import { GIB, workspaceReport } from '../../test/services.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import {
  useWorkspaceTestApp,
  PASSWORD,
  serviceRow,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { activityWindow } from './activity-window.ts';
import { testMonitoringTick } from './monitoring.test-support.ts';
import { createEveryReportStore } from './monitoring.report.ts';
import { createMonitoringQueries } from './monitoring.queries.ts';
import { inTransaction } from '../../db/transaction.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const BASE = '/api/v1/monitoring';

describe('activity windows (unit)', () => {
  const now = new Date('2026-11-29T10:17:30Z');
  it('ends with the bucket now is in: hours by the hour up to a week, by the day beyond; real time by the minute', () => {
    expect(activityWindow({ hours: 24 }, now)).toMatchObject({
      from: new Date('2026-11-28T11:00:00Z'),
      to: new Date('2026-11-29T11:00:00Z'),
      bucketMs: HOUR_MS,
      realtime: false,
    });
    const week = activityWindow({ hours: 168 }, now);
    expect((week.to.getTime() - week.from.getTime()) / week.bucketMs).toBe(168);
    const month = activityWindow({ hours: 720 }, now);
    expect(month.bucketMs).toBe(24 * HOUR_MS);
    expect((month.to.getTime() - month.from.getTime()) / month.bucketMs).toBe(30);
    expect(activityWindow({ hours: 24, minutes: 100 }, now)).toMatchObject({
      from: new Date('2026-11-29T08:38:00Z'),
      to: new Date('2026-11-29T10:18:00Z'),
      bucketMs: MINUTE_MS,
      realtime: true,
    });
  });
});

describe('monitoring', () => {
  const mails: MailMessage[] = [];
  let tick: ReturnType<typeof testMonitoringTick>;

  const { ctx, call, node, placedService } = useWorkspaceTestApp({
    clock: true,
    node: { name: 'monitoring-node' },
  });
  beforeAll(async () => {
    tick = testMonitoringTick(ctx, { mails });
  });

  const report = (serviceId: string, extra: Partial<WorkspaceReport>) =>
    node.report([workspaceReport(serviceId, extra)]);

  let seq = 0;
  function event(
    values: Partial<ActivityEventReport> & Pick<ActivityEventReport, 'kind' | 'source'>,
  ): ActivityEventReport {
    seq += 1;
    return {
      id: `test:${seq}`,
      at: ctx.now().toISOString(),
      user: 'ona',
      path: `/shares/docs/file-${seq}.txt`,
      target: null,
      bytes: null,
      remote_address: '198.51.100.7',
      ...values,
    };
  }
  const reportEvents = (serviceId: string, events: ActivityEventReport[]) =>
    report(serviceId, { features: { monitoring: { events } } });

  const activity = async (auth: Auth, url: string) => {
    const response = await call.get(auth, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ActivityResponse>();
  };

  it('stores what the daemons recorded once each, charts, ranks and lists it, filtered by kind and user', async () => {
    const { auth, serviceId } = await placedService();
    const written = event({ kind: 'file_written', source: 'smb', bytes: 1000 });
    const renamed = event({ kind: 'file_renamed', source: 'smb', target: '/shares/docs/renamed.txt' });
    const uploaded = event({ kind: 'file_written', source: 'ftp', user: 'jonas', bytes: 5000 });
    const tunnel = event({ kind: 'vpn_connected', source: 'vpn', user: 'ona', path: null });
    await reportEvents(serviceId, [written, renamed, uploaded, tunnel]);
    // The same events again (a report the node never heard the answer to), and a kind from the future.
    await reportEvents(serviceId, [written, renamed, event({ kind: 'teleported', source: 'smb' })]);

    const day = await activity(auth, `${BASE}/services/${serviceId}/activity`);
    expect(day.bucket_seconds).toBe(3600);
    expect(day.series).toHaveLength(24);
    expect(day.totals).toEqual({
      events: 4,
      bytes: 6000,
      by_kind: { file_written: 2, file_renamed: 1, vpn_connected: 1 },
    });
    expect(day.series.at(-1)).toMatchObject({
      events: 4,
      bytes: 6000,
      by_source: { smb: 2, ftp: 1, vpn: 1 },
    });
    expect(day.users).toEqual([
      { user: 'ona', events: 3, bytes: 1000 },
      { user: 'jonas', events: 1, bytes: 5000 },
    ]);
    expect(day.events.map((e) => e.kind).sort()).toEqual([
      'file_renamed',
      'file_written',
      'file_written',
      'vpn_connected',
    ]);
    expect(day.events.find((e) => e.kind === 'file_renamed')).toMatchObject({
      source: 'smb',
      user: 'ona',
      path: renamed.path,
      target: '/shares/docs/renamed.txt',
      remote_address: '198.51.100.7',
    });

    const uploads = await activity(
      auth,
      `${BASE}/services/${serviceId}/activity?hours=168&kind=file_written&user=jonas`,
    );
    expect(uploads.series).toHaveLength(168);
    expect(uploads.events).toHaveLength(1);
    expect(uploads.events[0]).toMatchObject({ source: 'ftp', bytes: 5000 });
    expect(uploads.totals.events).toBe(1);

    for (const hours of [48, 72]) {
      const window = await activity(auth, `${BASE}/services/${serviceId}/activity?hours=${hours}`);
      expect(window.series).toHaveLength(hours);
      expect(window.totals.events).toBe(4);
    }

    const live = await activity(auth, `${BASE}/services/${serviceId}/activity?minutes=100`);
    expect(live.bucket_seconds).toBe(60);
    expect(live.series).toHaveLength(100);
    expect(live.series.at(-1)?.events).toBe(4);
    expect(live.totals.events).toBe(4);
  });

  it('keeps an event in its own hour and window: older than the window is out, pages go back in time', async () => {
    const { auth, serviceId } = await placedService();
    const old = event({
      kind: 'file_deleted',
      source: 'sftp',
      at: new Date(ctx.now().getTime() - 30 * HOUR_MS).toISOString(),
    });
    const recent = Array.from({ length: 5 }, (_, index) =>
      event({
        kind: 'login',
        source: 'ftp',
        path: null,
        at: new Date(ctx.now().getTime() - index * MINUTE_MS).toISOString(),
      }),
    );
    await reportEvents(serviceId, [old, ...recent]);
    expect((await activity(auth, `${BASE}/services/${serviceId}/activity?hours=24`)).totals.events).toBe(5);
    const two = await activity(auth, `${BASE}/services/${serviceId}/activity?hours=48`);
    expect(two.totals.by_kind).toEqual({ login: 5, file_deleted: 1 });

    const first = await activity(auth, `${BASE}/services/${serviceId}/activity?hours=48&limit=4`);
    expect(first.events).toHaveLength(4);
    expect(first.next_before).not.toBeNull();
    const second = await activity(
      auth,
      `${BASE}/services/${serviceId}/activity?hours=48&limit=4&before=${first.next_before}`,
    );
    expect(second.events.map((e) => e.kind)).toEqual(['login', 'file_deleted']);
    expect(second.next_before).toBeNull();
    const times = [...first.events, ...second.events].map((e) => e.at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('refuses a bad window with a field error and another account’s service or user with 404', async () => {
    const { auth, serviceId } = await placedService();
    for (const query of ['hours=0', 'hours=abc', 'hours=100000', 'minutes=101', 'kind=nope', 'before=x']) {
      const response = await call.get(auth, `${BASE}/services/${serviceId}/activity?${query}`);
      expect(response.statusCode, query).toBe(422);
    }
    const other = await placedService();
    const created = await call.post(other.auth, `/api/v1/user-groups/${other.serviceId}/users`, {
      name: 'svetimas',
      password: PASSWORD,
    });
    const userId = created.json<{ id: string }>().id;
    expect((await call.get(auth, `${BASE}/services/${other.serviceId}/activity`)).statusCode).toBe(404);
    expect((await call.get(auth, `${BASE}/users/${userId}/activity`)).statusCode).toBe(404);
    expect((await call.get(auth, `${BASE}/users/${userId}/quota`)).statusCode).toBe(404);
    expect((await call.get(auth, `${BASE}/services/${other.serviceId}/status`)).statusCode).toBe(404);
  });

  it('answers a user’s own activity and what the user owns', async () => {
    const { auth, serviceId } = await placedService();
    const created = await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, {
      name: 'ona',
      password: PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = created.json<{ id: string }>().id;
    await reportEvents(serviceId, [
      event({ kind: 'file_written', source: 'smb', user: 'ona', bytes: 10 }),
      event({ kind: 'file_written', source: 'smb', user: 'jonas', bytes: 20 }),
    ]);
    const mine = await activity(auth, `${BASE}/users/${userId}/activity`);
    expect(mine.events.map((e) => e.user)).toEqual(['ona']);
    expect(mine.totals.events).toBe(1);

    await setService(ctx, serviceId, { diskUsedBytes: 4000, fileCount: 7 });
    const measuredAt = ctx.now().toISOString();
    await report(serviceId, {
      features: {
        monitoring: {
          events: [],
          usage: {
            users: [
              { user: 'ona', bytes: 3000, files: 5 },
              { user: 'jonas', bytes: 600, files: 1 },
            ],
            other_bytes: 400,
            other_files: 1,
            measured_at: measuredAt,
          },
        },
      },
    });
    const quota = (await call.get(auth, `${BASE}/users/${userId}/quota`)).json<UserQuotaResponse>();
    expect(quota).toEqual({
      user_id: userId,
      user: 'ona',
      service_id: serviceId,
      bytes: 3000,
      files: 5,
      used_percent: 75,
      measured_at: measuredAt,
    });
    const service = (
      await call.get(auth, `${BASE}/services/${serviceId}/quota`)
    ).json<ServiceQuotaResponse>();
    expect(service.users).toEqual([
      { user_id: userId, user: 'ona', bytes: 3000, files: 5 },
      { user_id: null, user: 'jonas', bytes: 600, files: 1 },
    ]);
    expect(service.other_bytes).toBe(400);
    // An older count (a report delayed in transit) does not replace a newer one.
    await report(serviceId, {
      features: {
        monitoring: {
          events: [],
          usage: {
            users: [],
            other_bytes: 0,
            other_files: 0,
            measured_at: new Date(ctx.now().getTime() - HOUR_MS).toISOString(),
          },
        },
      },
    });
    expect((await call.get(auth, `${BASE}/users/${userId}/quota`)).json<UserQuotaResponse>().bytes).toBe(
      3000,
    );
  });

  it('charts the use hour by hour and says how fast it grows', async () => {
    const { owner, serviceId } = await placedService();
    const size = 50 * GIB;
    const facts = (used: number) => ({
      disk_used_bytes: used,
      file_count: 10,
      started_at: null,
      storage_bytes: size,
    });
    await report(serviceId, { facts: facts(1 * GIB) });
    ctx.advance(24 * HOUR_MS);
    await report(serviceId, { facts: facts(3 * GIB) });
    await setService(ctx, serviceId, { diskUsedBytes: 3 * GIB, storageBytes: size, fileCount: 10 });
    // A day later the access token has long expired: signed in again.
    const signedIn = (await login(ctx, owner.email)).json<LoginResponse>();
    const auth = { authorization: `Bearer ${signedIn.access_token}` };
    const quota = (await call.get(auth, `${BASE}/services/${serviceId}/quota`)).json<ServiceQuotaResponse>();
    expect(quota).toMatchObject({
      size_bytes: size,
      used_bytes: 3 * GIB,
      free_bytes: 47 * GIB,
      used_percent: 6,
      files: 10,
      growth_bytes_per_day: 2 * GIB,
      full_in_days: 23.5,
      users: null,
    });
    expect(quota.trend.map((point) => point.used_bytes)).toEqual([1 * GIB, 3 * GIB]);
  });

  it('raises a disk alert once past 80 % (and one more past 90 %), mails it once, clears each when the cause goes', async () => {
    const { auth, serviceId, owner } = await placedService();
    const size = 10 * GIB;
    const fill = (percent: number) =>
      report(serviceId, {
        facts: {
          disk_used_bytes: Math.round((size * percent) / 100),
          file_count: 1,
          started_at: null,
          storage_bytes: size,
        },
      });
    const alerts = async () =>
      (await call.get(auth, `${BASE}/alerts?service_id=${serviceId}`)).json<AlertsResponse>().alerts;

    await fill(50);
    expect(await alerts()).toEqual([]);
    await fill(85);
    await fill(86);
    expect(await alerts()).toMatchObject([
      { kind: 'disk_warning', level: 'warning', cleared_at: null, params: { percent: 85 } },
    ]);
    await fill(95);
    expect((await alerts()).map((alert) => alert.kind).sort()).toEqual(['disk_critical', 'disk_warning']);

    mails.length = 0;
    await tick.tick();
    await tick.tick();
    const mine = mails.filter((mail) => mail.to === owner.email);
    expect(mine.map((mail) => mail.subject)).toEqual([
      expect.stringContaining('Disk 85% full'),
      expect.stringContaining('Disk 95% full'),
    ]);
    expect(mine[0]?.text).toContain(`/dashboard/services/${serviceId}/monitoring`);

    await fill(40);
    const cleared = await alerts();
    expect(cleared).toHaveLength(2);
    expect(cleared.every((alert) => alert.cleared_at !== null)).toBe(true);
    expect(
      (await call.get(auth, `${BASE}/alerts?service_id=${serviceId}&level=critical`)).json<AlertsResponse>()
        .alerts,
    ).toHaveLength(1);
    // A cleared alert is not mailed again; filled again, it is a new alert.
    await fill(81);
    const again = await alerts();
    expect(again.filter((alert) => alert.cleared_at === null)).toHaveLength(1);
    await tick.tick();
    expect(mails.filter((mail) => mail.to === owner.email)).toHaveLength(3);
  });

  it('raises a daemon down and a daemon restarting over and over, a VPN user over its limit; clears them', async () => {
    const { auth, serviceId } = await placedService();
    const alerts = async () =>
      (await call.get(auth, `${BASE}/alerts?service_id=${serviceId}`))
        .json<AlertsResponse>()
        .alerts.filter((alert) => alert.cleared_at === null);
    await report(serviceId, {
      drivers: [{ driver: 'samba', live: true, serving: false, reason: 'smbd exited' }],
    });
    expect(await alerts()).toMatchObject([{ kind: 'daemon_down', level: 'critical', subject: 'samba' }]);
    for (let start = 0; start < 3; start += 1) {
      ctx.advance(MINUTE_MS);
      await report(serviceId, {
        drivers: [{ driver: 'samba', live: true, serving: true, started_at: ctx.now().toISOString() }],
      });
    }
    expect(await alerts()).toMatchObject([
      { kind: 'daemon_restarting', subject: 'samba', params: { starts: 3 } },
    ]);
    const status = (
      await call.get(auth, `${BASE}/services/${serviceId}/status`)
    ).json<MonitoringStatusResponse>();
    expect(status.daemons).toEqual([
      expect.objectContaining({ name: 'samba', state: 'up', starts_24h: 3, uptime_seconds: 0 }),
    ]);
    ctx.advance(11 * MINUTE_MS);
    await report(serviceId, {
      drivers: [
        {
          driver: 'samba',
          live: true,
          serving: true,
          started_at: new Date(ctx.now().getTime() - 11 * MINUTE_MS).toISOString(),
        },
      ],
      features: {
        vpn: {
          sessions: [],
          usage: [
            { user: 'ona-phone', month: '2026-11', bytes_received: 9, bytes_sent: 9, over_limit: true },
          ],
        },
      },
    });
    expect(await alerts()).toMatchObject([{ kind: 'vpn_over_limit', subject: 'ona-phone' }]);
    await report(serviceId, { features: { vpn: { sessions: [], usage: [] } } });
    expect(await alerts()).toEqual([]);
  });

  it('raises no restarting alert nor mail for the owner’s stop, start, restart and plan changes; three starts nobody asked for still do', async () => {
    const { auth, serviceId, owner } = await placedService();
    const services = createServicesQueries(ctx.database.db);
    const restarting = async () =>
      (await call.get(auth, `${BASE}/alerts?service_id=${serviceId}`))
        .json<AlertsResponse>()
        .alerts.filter((alert) => alert.kind === 'daemon_restarting');
    /** The node applies what was asked, a few seconds later, its daemons started (or not) just then. */
    async function applied(serving: boolean) {
      ctx.advance(20_000);
      const { generation } = await serviceRow(ctx, serviceId);
      const startedAt = ctx.now().toISOString();
      await node.report([
        {
          service_id: serviceId,
          observed_generation: generation,
          ok: true,
          drivers: ['samba', 'vpn', 'nfs'].map((driver) =>
            serving ? { driver, live: true, serving, started_at: startedAt } : { driver, live: true },
          ),
          failures: [],
        },
      ]);
    }
    const control = async (action: 'stop' | 'start' | 'restart') => {
      ctx.advance(MINUTE_MS);
      const response = await call.post(auth, `/api/v1/services/${serviceId}/${action}`);
      expect(response.statusCode, response.body).toBe(200);
    };
    const plan = async (diskSpace: number) => {
      ctx.advance(MINUTE_MS);
      const { productId, usersCount, monthlyPriceMinor } = await serviceRow(ctx, serviceId);
      await services.changePlan(
        serviceId,
        { productId, diskSpace, usersCount, monthlyPriceMinor },
        ctx.now(),
      );
    };

    // All within ten minutes: five starts of each daemon, every one asked for.
    await control('stop');
    await applied(false);
    await control('start');
    await applied(true);
    await control('restart');
    await applied(true);
    await plan(20);
    await applied(true);
    await plan(10);
    await applied(true);
    await control('restart');
    await applied(true);
    expect(await restarting()).toEqual([]);
    mails.length = 0;
    await tick.tick();
    expect(mails.filter((mail) => mail.to === owner.email)).toEqual([]);

    // Three starts of samba nobody asked for (it crashed, the node started it again), once the
    // last restart is well over.
    ctx.advance(2 * MINUTE_MS);
    for (let start = 0; start < 3; start += 1) {
      ctx.advance(MINUTE_MS);
      await report(serviceId, {
        drivers: [{ driver: 'samba', live: true, serving: true, started_at: ctx.now().toISOString() }],
      });
    }
    expect(await restarting()).toMatchObject([{ subject: 'samba', params: { starts: 3 } }]);
    await tick.tick();
    expect(mails.filter((mail) => mail.to === owner.email).map((mail) => mail.subject)).toEqual([
      expect.stringContaining('keeps restarting'),
    ]);
  });

  it('stores nothing for a report that says nothing new within a minute (one statement), and looks again after it, whichever process stored it', async () => {
    const { serviceId, owner } = await placedService();
    let clock = Date.parse('2026-11-29T10:00:00Z');
    // Two API processes: each its own store, one database.
    const [processA, processB] = [1, 2].map(() => createEveryReportStore(() => new Date(clock)));
    const context = {
      serviceId,
      accountId: owner.user.id,
      at: new Date(clock),
      planBytes: GIB,
      afterCommit: () => undefined,
      report: {
        service_id: serviceId,
        observed_generation: 1,
        ok: true,
        drivers: [{ driver: 'samba', live: true, serving: true, started_at: '2026-11-29T09:00:00.000Z' }],
        failures: [],
        facts: { disk_used_bytes: 100, file_count: 1, started_at: null, storage_bytes: GIB },
      },
    };
    const full = {
      ...context,
      report: { ...context.report, facts: { ...context.report.facts, disk_used_bytes: GIB } },
    };
    /** Runs a store in a transaction of its own, counting the statements it starts. */
    const count = async (store: typeof processA, what: typeof context) => {
      let started = 0;
      await inTransaction(ctx.database.db, async (tx) => {
        const counting = new Proxy(tx, {
          get(target, property, receiver) {
            if (
              typeof property === 'string' &&
              ['select', 'insert', 'update', 'delete', 'execute'].includes(property)
            )
              started += 1;
            return Reflect.get(target, property, receiver) as unknown;
          },
        });
        await store!(counting, what);
      });
      return started;
    };
    const diskAlert = async () =>
      (
        await createMonitoringQueries(ctx.database.db).openAlerts(serviceId, [
          'disk_warning',
          'disk_critical',
        ])
      ).map((alert) => alert.kind);

    expect(await count(processA, context)).toBeGreaterThan(1);
    clock += 30_000;
    expect(await count(processA, { ...context, at: new Date(clock) })).toBe(1);
    // More used, but no alert level crossed: still nothing new, and the same on the other process.
    expect(
      await count(processB, {
        ...context,
        report: { ...context.report, facts: { ...context.report.facts, disk_used_bytes: 200 } },
      }),
    ).toBe(1);
    // The disk fills on process B (an alert); the next report, emptier, lands on process A, which
    // stored that same report last: it is stored again all the same, and the alert clears.
    expect(await count(processB, full)).toBeGreaterThan(1);
    expect(await diskAlert()).toContain('disk_critical');
    expect(await count(processA, context)).toBeGreaterThan(1);
    expect(await diskAlert()).toEqual([]);
    clock += 61_000;
    expect(await count(processA, { ...context, at: new Date(clock) })).toBeGreaterThan(1);
  });

  it('sweeps the alerts no report decides: a silent node, a service about to end', async () => {
    const { auth, serviceId } = await placedService();
    const alerts = async () =>
      (await call.get(auth, `${BASE}/alerts?service_id=${serviceId}`))
        .json<AlertsResponse>()
        .alerts.filter((alert) => alert.cleared_at === null);
    await setService(ctx, serviceId, { validUntil: new Date(ctx.now().getTime() + 2.5 * 24 * HOUR_MS) });
    await node.report([]);
    await tick.tick();
    expect(await alerts()).toMatchObject([
      { kind: 'service_expiring', level: 'critical', params: { days: 3 } },
    ]);
    ctx.advance(3 * MINUTE_MS);
    await tick.tick();
    expect((await alerts()).map((alert) => alert.kind).sort()).toEqual([
      'node_unreachable',
      'service_expiring',
    ]);
    await node.report([]);
    await setService(ctx, serviceId, { validUntil: new Date(ctx.now().getTime() + 300 * 24 * HOUR_MS) });
    await tick.tick();
    expect(await alerts()).toEqual([]);
  });

  it('lists the tasks: provisioning and each change applied, with start, duration and the failure while it fails', async () => {
    const { auth, serviceId } = await placedService();
    const created = await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, {
      name: 'petras',
      password: PASSWORD,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { generation } = await serviceRow(ctx, serviceId);
    const tasks = async () =>
      (await call.get(auth, `${BASE}/tasks?service_id=${serviceId}`)).json<TasksResponse>().tasks;
    expect((await tasks())[0]).toMatchObject({
      id: `apply:${serviceId}:${generation}`,
      kind: 'apply',
      state: 'running',
      finished_at: null,
    });
    await report(serviceId, {
      observed_generation: generation - 1,
      ok: false,
      error: 'samba: testparm refused',
      error_code: 'driver_failed',
    });
    expect((await tasks())[0]).toMatchObject({
      state: 'failed',
      error_code: 'apply_failed',
      error: 'samba: testparm refused',
    });
    ctx.advance(4000);
    await report(serviceId, { observed_generation: generation });
    const [done] = await tasks();
    expect(done?.state).toBe('completed');
    expect(done?.duration_ms).toBeGreaterThanOrEqual(4000);
    const one = (
      await call.get(auth, `${BASE}/tasks?job_id=apply:${serviceId}:${generation}`)
    ).json<TasksResponse>();
    expect(one.tasks).toHaveLength(1);
    expect((await call.get(auth, `${BASE}/tasks?hours=0`)).statusCode).toBe(422);
    // A job id that is neither an apply's nor a UUID names no task.
    expect((await call.get(auth, `${BASE}/tasks?job_id=nothing`)).json<TasksResponse>().tasks).toEqual([]);
  });
});
