import { beforeAll, describe, expect, it } from 'vitest';
import {
  VPN_TUNNEL_SERVER_ADDRESS,
  type AlertsResponse,
  type LoginResponse,
  type ServiceNetwork,
  type WorkspaceReport,
} from '@debesis/contract';
import { login, signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { GIB, workspaceReport } from '../../test/services.ts';
import {
  useWorkspaceTestApp,
  ownerWithService,
  serviceRow,
  setService,
} from '../directory/workspace.test-support.ts';
import { testMonitoringTick } from '../monitoring/monitoring.test-support.ts';
import { bandwidthDecision, bandwidthLimitBytes, bandwidthMonth, trafficGrowth } from './network.period.ts';

const DAY_MS = 86_400_000;

describe('bandwidth rules (unit)', () => {
  it('cuts the billing period into months from its start day, the month’s last day when shorter', () => {
    const start = new Date('2026-01-31T09:00:00Z');
    expect(bandwidthMonth(start, new Date('2026-02-10T00:00:00Z'))).toEqual({
      start: new Date('2026-01-31T09:00:00Z'),
      end: new Date('2026-02-28T09:00:00Z'),
    });
    expect(bandwidthMonth(start, new Date('2026-02-28T09:00:00Z')).start).toEqual(
      new Date('2026-02-28T09:00:00Z'),
    );
    expect(bandwidthMonth(start, new Date('2027-01-31T08:59:59Z')).start).toEqual(
      new Date('2026-12-31T09:00:00Z'),
    );
    // Before the period starts: its first month.
    expect(bandwidthMonth(start, new Date('2025-12-01T00:00:00Z')).start).toEqual(start);
  });

  it('counts the growth of the node’s total; a new total counts all it holds; never backwards', () => {
    const taken = { counterId: 'c1', received: 100, sent: 50 };
    const growth = (counter_id: string, received_bytes: number, sent_bytes: number) =>
      trafficGrowth(taken, { counter_id, received_bytes, sent_bytes });
    expect(growth('c1', 150, 50)).toEqual({ received: 50, sent: 0 });
    expect(growth('c1', 100, 50)).toEqual({ received: 0, sent: 0 });
    expect(growth('c2', 7, 3)).toEqual({ received: 7, sent: 3 });
    expect(growth('c1', 10, 0)).toEqual({ received: 0, sent: 0 });
  });

  it('allows twice the disk a month; warns at 80 %, throttles at the allowance', () => {
    expect(bandwidthLimitBytes(3)).toBe(6 * GIB);
    const limit = bandwidthLimitBytes(50);
    expect(bandwidthDecision(limit * 0.79, limit)).toMatchObject({ throttle: false, alerts: { wanted: [] } });
    expect(bandwidthDecision(limit * 0.8, limit).alerts.wanted.map((alert) => alert.kind)).toEqual([
      'bandwidth_warning',
    ]);
    const over = bandwidthDecision(limit, limit);
    expect(over.throttle).toBe(true);
    expect(over.alerts.wanted.map((alert) => alert.kind)).toEqual([
      'bandwidth_warning',
      'bandwidth_exhausted',
    ]);
  });
});

describe('bandwidth and reach of a workspace (API)', () => {
  const mails: MailMessage[] = [];
  let tick: ReturnType<typeof testMonitoringTick>;

  const { ctx, call, node } = useWorkspaceTestApp({ clock: true, node: { name: 'network-node' } });
  beforeAll(async () => {
    tick = testMonitoringTick(ctx, { mails });
  });

  const report = (serviceId: string, network: NonNullable<WorkspaceReport['features']>['network']) =>
    node.report([workspaceReport(serviceId, { features: { network } })]);
  const throttledInDesired = async (serviceId: string) =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId)
      ?.bandwidth_throttled === true;

  it('counts traffic per month of the period, warns at 80 % (mailed once), throttles at the limit, resets with the month', async () => {
    const owned = await ownerWithService(ctx);
    const { serviceId, owner } = owned;
    let auth = owned.auth;
    const periodStart = new Date(ctx.now().getTime() - 3 * DAY_MS);
    await setService(ctx, serviceId, {
      nodeId: node.id,
      address: '10.16.9.1',
      idBase: 7_900_000,
      paidFrom: periodStart,
      paidMonths: 12,
      validUntil: new Date(periodStart.getTime() + 365 * DAY_MS),
    });
    const view = async () => (await call.get(auth, `/api/v1/network/${serviceId}`)).json<ServiceNetwork>();
    const openAlerts = async () =>
      (await call.get(auth, `/api/v1/monitoring/alerts?service_id=${serviceId}`))
        .json<AlertsResponse>()
        .alerts.filter((alert) => alert.cleared_at === null)
        .map((alert) => alert.kind)
        .sort();
    const limit = (await view()).bandwidth!.limit_bytes;
    expect(limit).toBe(100 * GIB); // MINI: 50 GB of disk
    const traffic = (counter_id: string, received: number, sent: number) => ({
      reachable_from: 'node_only' as const,
      client_routes: [],
      traffic: { counter_id, received_bytes: Math.round(received), sent_bytes: Math.round(sent) },
    });

    expect(await view()).toMatchObject({ reachable_from: null, bandwidth: { used_bytes: 0 } });
    await report(serviceId, traffic('c1', 0.3 * limit, 0.2 * limit));
    // The same total again (a report sent twice) counts nothing twice.
    await report(serviceId, traffic('c1', 0.3 * limit, 0.2 * limit));
    expect(await view()).toMatchObject({
      reachable_from: 'node_only',
      client_routes: [],
      bandwidth: { used_bytes: Math.round(0.5 * limit), percent: 50, throttled: false },
    });
    expect(await openAlerts()).toEqual([]);

    // Past 80 %: one warning, mailed once however many reports and ticks follow.
    await report(serviceId, traffic('c1', 0.5 * limit, 0.35 * limit));
    await report(serviceId, traffic('c1', 0.5 * limit, 0.36 * limit));
    expect(await openAlerts()).toEqual(['bandwidth_warning']);
    mails.length = 0;
    await tick.tick();
    await tick.tick();
    const warned = mails.filter((mail) => mail.to === owner.email);
    expect(warned.map((mail) => mail.subject)).toEqual([
      expect.stringContaining("85% of this month's bandwidth"),
    ]);
    expect(await throttledInDesired(serviceId)).toBe(false);

    // The node started its total over (its record lost): the new total is counted whole, and the
    // month's use passes the allowance: throttled, with a new generation for the node to pull.
    const before = (await serviceRow(ctx, serviceId)).generation;
    await report(serviceId, traffic('c2', 0.1 * limit, 0.05 * limit));
    expect((await view()).bandwidth).toMatchObject({ percent: 101, throttled: true, throttle_kbit: 10_000 });
    expect(await openAlerts()).toEqual(['bandwidth_exhausted', 'bandwidth_warning']);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before + 1);
    expect(await throttledInDesired(serviceId)).toBe(true);
    await tick.tick();
    expect(mails.filter((mail) => mail.to === owner.email)).toHaveLength(2);

    // The next month of the period: the use starts at 0, the throttle is lifted, the alerts clear.
    ctx.advance(31 * DAY_MS);
    // The access token has long expired: signed in again.
    const signedIn = (await login(ctx, owner.email)).json<LoginResponse>();
    auth = { authorization: `Bearer ${signedIn.access_token}` };
    await report(serviceId, traffic('c2', 0.1 * limit, 0.05 * limit));
    expect((await view()).bandwidth).toMatchObject({ used_bytes: 0, throttled: false });
    expect(await throttledInDesired(serviceId)).toBe(false);
    expect(await openAlerts()).toEqual([]);
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before + 2);
  });

  it('shows the client routes a node serves, and another owner gets 404', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, { nodeId: node.id, address: '10.16.9.2', idBase: 7_910_000 });
    await report(serviceId, { reachable_from: 'routes', client_routes: ['192.0.2.0/24'] });
    expect((await call.get(auth, `/api/v1/network/${serviceId}`)).json<ServiceNetwork>()).toMatchObject({
      reachable_from: 'routes',
      client_routes: ['192.0.2.0/24'],
      // MINI has an address of its own: every service answers on it.
      vpn_only: false,
      services_address: '10.16.9.2',
    });
    const other = await ownerWithService(ctx);
    expect((await call.get(other.auth, `/api/v1/network/${serviceId}`)).statusCode).toBe(404);
  });

  it("tells a Starter's owner its services answer inside the VPN only, at the tunnel's address", async () => {
    const owner = await signedInUser(ctx);
    const { service_id: serviceId } = await buyService(ctx, owner.auth, {
      product_id: 'starter',
      disk_space: 3,
      users_count: 2,
      period_id: '1m',
    });
    await setService(ctx, serviceId, {
      status: 'active',
      nodeId: node.id,
      address: '10.16.9.3',
      idBase: 7_920_000,
    });
    expect((await call.get(owner.auth, `/api/v1/network/${serviceId}`)).json<ServiceNetwork>()).toMatchObject(
      {
        vpn_only: true,
        services_address: VPN_TUNNEL_SERVER_ADDRESS,
      },
    );
  });
});
