import { STORAGE_KEYS } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setCsrfCookie } from '../pages/plans/plans-fixtures.ts';
import { makeSelectedPlan, ORDER_ID } from '../payments/payment-fixtures.ts';
import { storeSelectedPlan } from '../plans/selected-plan-store.ts';
import { storeSession } from '../test/fixtures.ts';
import { server } from '../test/server.ts';
import { afterLogin } from './after-login.ts';
import { runPendingPlanCheck } from './pending-plan.ts';

const PATH = '/api/v1/auth/check-pending-plan';
const redirect = `/dashboard/payments/new/${ORDER_ID}/payment`;

function answer(respond: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(PATH, async ({ request }) => {
      bodies.push(await request.json());
      return respond();
    }),
  );
  return bodies;
}

const context = () => ({ from: null, pathname: '/auth/login', navigate: vi.fn() });
const storedPlan = () => window.localStorage.getItem(STORAGE_KEYS.selectedPlan);

beforeEach(() => {
  setCsrfCookie();
  storeSession();
  storeSelectedPlan(makeSelectedPlan());
});

describe('the pending-plan check after login (spec §4)', () => {
  it('sends the stored plan and goes to the redirect_url', async () => {
    const bodies = answer(() =>
      HttpResponse.json({ status: 'order_created', order_id: ORDER_ID, redirect_url: redirect }),
    );
    const ctx = context();

    await afterLogin(ctx);

    expect(bodies).toEqual([
      {
        product_id: 'mini',
        disk_space: 50,
        users_count: 5,
        period_id: '12m',
        selected_options: [],
        currency: 'EUR',
      },
    ]);
    expect(ctx.navigate.mock.calls).toEqual([[redirect, { replace: true }]]);
    // Kept for the payment page; paying clears it.
    expect(storedPlan()).not.toBeNull();
  });

  it.each([
    ['404', () => HttpResponse.json({ detail: 'not_found', message: 'Not found' }, { status: 404 })],
    [
      'an already-exists detail',
      () =>
        HttpResponse.json(
          { detail: 'order_already_exists', message: 'An order already exists' },
          { status: 409 },
        ),
    ],
  ])('on %s clears the plan and goes to services', async (_name, respond) => {
    answer(respond);
    const ctx = context();

    await afterLogin(ctx);

    expect(ctx.navigate.mock.calls).toEqual([['/dashboard/services', { replace: true }]]);
    expect(storedPlan()).toBeNull();
  });

  it.each([
    ['a server error', () => HttpResponse.json({ detail: 'server_error' }, { status: 500 })],
    ['a refused plan', () => HttpResponse.json({ detail: 'validation_error' }, { status: 422 })],
    ['a network failure', () => HttpResponse.error()],
  ])('on %s goes to the new-payment page and keeps the plan', async (_name, respond) => {
    answer(respond);
    const ctx = context();

    await afterLogin(ctx);

    expect(ctx.navigate.mock.calls).toEqual([['/dashboard/payments/new/payment', { replace: true }]]);
    expect(storedPlan()).not.toBeNull();
  });

  it('does not follow a redirect_url off the site', async () => {
    answer(() =>
      HttpResponse.json({ status: 'order_exists', order_id: ORDER_ID, redirect_url: '//evil.example/x' }),
    );
    const ctx = context();

    await runPendingPlanCheck(ctx);

    expect(ctx.navigate).toHaveBeenCalledWith('/dashboard/payments/new/payment', { replace: true });
  });

  it('runs once within 30 seconds, again after', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 15, 9, 0, 0));
    const bodies = answer(() =>
      HttpResponse.json({ status: 'order_exists', order_id: ORDER_ID, redirect_url: redirect }),
    );
    const first = context();
    const second = context();

    const results = await Promise.all([runPendingPlanCheck(first), runPendingPlanCheck(second)]);
    vi.setSystemTime(Date.UTC(2026, 0, 15, 9, 0, 29));
    await runPendingPlanCheck(second);

    expect(results).toEqual([true, true]);
    expect(bodies).toHaveLength(1);
    expect(first.navigate).toHaveBeenCalledTimes(1);
    expect(second.navigate).not.toHaveBeenCalled();

    vi.setSystemTime(Date.UTC(2026, 0, 15, 9, 0, 31));
    await runPendingPlanCheck(second);
    expect(bodies).toHaveLength(2);
    expect(second.navigate).toHaveBeenCalledWith(redirect, { replace: true });
  });
});
