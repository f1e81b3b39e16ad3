// GET /api/v1/dashboard/: the account at a glance — services by status, those about to expire
// with the days left (the lifecycle's constants), orders awaiting payment, credit and the newest
// activity; only the caller's own.
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_LATEST_ACTIVITY,
  SERVICE_STATUSES,
  type ActivityPage,
  type BillingSummary,
  type DashboardSummary,
  type Order,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import {
  buyService,
  openSession,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
  placeOrder,
} from '../../test/payments.ts';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { ownerWithService, setService } from '../directory/workspace.test-support.ts';
import { DAY_MS, EXPIRING_SOON_DAYS, HOUR_MS } from '../services/lifecycle.constants.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '12m' };
type Auth = { authorization: string };

describe('dashboard summary', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const get = async <T>(auth: Auth, url: string) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const summary = (auth: Auth) => get<DashboardSummary>(auth, '/api/v1/dashboard/');
  const none = Object.fromEntries(SERVICE_STATUSES.map((status) => [status, 0]));

  it('is empty but complete for a new account, and needs a signed-in owner', async () => {
    const owner = await signedInUser(ctx);
    const body = await summary(owner.auth);
    expect(body).toMatchObject({
      services: { total: 0, by_status: none },
      expiring_soon: { within_days: EXPIRING_SOON_DAYS, services: [] },
      unpaid_orders: { count: 0, amount: 0, currency: 'EUR', orders: [] },
      credit: { balance: 0, currency: 'EUR' },
    });
    expect(body.latest_activity.map((entry) => entry.action)).toContain('user logged in');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/dashboard/' })).statusCode).toBe(401);
  });

  it('counts services by status, lists those expiring soon with the days left, unpaid orders and credit', async () => {
    const { auth, serviceId: critical } = await ownerWithService(ctx);
    const soon = (await buyService(ctx, auth, STARTER)).service_id;
    const lapsed = (await buyService(ctx, auth, STARTER)).service_id;
    const later = (await buyService(ctx, auth, STARTER)).service_id;
    // A confirmed downgrade of the MINI service leaves credit on the account.
    const downgrade = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/plan-changes/',
      headers: auth,
      payload: { service_id: critical, ...STARTER, confirm_downgrade: true },
    });
    expect(downgrade.statusCode, downgrade.body).toBe(201);
    const now = Date.now();
    await setService(ctx, critical, { status: 'active', validUntil: new Date(now + 2 * DAY_MS - HOUR_MS) });
    await setService(ctx, soon, { status: 'active', validUntil: new Date(now + 6 * DAY_MS + HOUR_MS) });
    await setService(ctx, lapsed, { status: 'expired', validUntil: new Date(now - DAY_MS) });
    await setService(ctx, later, { status: 'active' });
    const order = await placeOrder(ctx, auth, STARTER);

    const body = await summary(auth);
    expect(body.services).toEqual({ total: 4, by_status: { ...none, active: 3, expired: 1 } });
    expect(body.expiring_soon.within_days).toBe(EXPIRING_SOON_DAYS);
    expect(body.expiring_soon.services).toEqual([
      expect.objectContaining({ id: critical, status: 'active', days_left: 2, expiry_warning: 'critical' }),
      expect.objectContaining({ id: soon, status: 'active', days_left: 7, expiry_warning: 'expiring_soon' }),
    ]);
    expect(body.unpaid_orders).toEqual({
      count: 1,
      amount: order.amount,
      currency: 'EUR',
      orders: [
        {
          id: order.id,
          kind: 'new',
          product_name: order.product_name,
          service_id: null,
          amount: order.amount,
          currency: 'EUR',
          created_at: order.created_at,
        },
      ],
    });
    const billing = await get<BillingSummary>(auth, '/api/v1/billing/');
    expect(body.credit.balance).toBeGreaterThan(0);
    expect(body.credit).toEqual({ balance: billing.credit.balance, currency: 'EUR' });
    const log = await get<ActivityPage>(auth, `/api/v1/activity/?limit=${DASHBOARD_LATEST_ACTIVITY}`);
    expect(body.latest_activity).toEqual(log.items);
    expect(body.latest_activity).toHaveLength(DASHBOARD_LATEST_ACTIVITY);
    expect(body.latest_activity[0]?.action).toBe('order created');

    // Someone else's summary holds none of it.
    const stranger = await signedInUser(ctx);
    expect((await summary(stranger.auth)).services.total).toBe(0);
  });

  it('counts as unpaid what the open orders card lists: an order whose payment failed too', async () => {
    const { auth } = await signedInUser(ctx);
    const order = async () => await placeOrder(ctx, auth, STARTER);
    const awaiting = await order();
    const declined = await order();
    const session = await openSession(ctx, auth, declined.id);
    await sendSandboxEvent(
      ctx,
      sandboxEvent(session.session_id, 'payment.failed', { error: { code: 'card_declined', message: 'no' } }),
    );
    const open = await get<Order[]>(auth, '/api/v1/orders/open');
    expect(open.map((entry) => [entry.id, entry.status]).sort()).toEqual(
      [
        [declined.id, 'FAILED'],
        [awaiting.id, 'AWAITING_PAYMENT'],
      ].sort(),
    );
    const { unpaid_orders: unpaid } = await summary(auth);
    expect(unpaid.count).toBe(2);
    expect(unpaid.orders.map((entry) => entry.id)).toEqual(open.map((entry) => entry.id));
    expect(unpaid.amount).toBe(awaiting.amount + declined.amount);
  });
});
