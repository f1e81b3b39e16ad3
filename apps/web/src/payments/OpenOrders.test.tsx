import { CSRF_COOKIE, type OpenOrder } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../i18n/language.ts';
import { invoicesHandler, summaryHandler } from '../pages/billing/billing-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../test/fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { makeOpenOrder } from './payment-fixtures.ts';

const NEW_ORDER = '0b7f3c1e-5d2a-4c7e-9a51-3f6e2b8d9c11';
const FAILED_EXTENSION = '0b7f3c1e-5d2a-4c7e-9a51-3f6e2b8d9c12';
const PLAN_CHANGE_ORDER = '0b7f3c1e-5d2a-4c7e-9a51-3f6e2b8d9c13';
const PLAN_CHANGE = '5a7f3c1e-5d2a-4c7e-9a51-3f6e2b8d9c99';
const SERVICE = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01';

function openOrders(): OpenOrder[] {
  return [
    makeOpenOrder({ id: NEW_ORDER, amount: 7260 }),
    makeOpenOrder({
      id: FAILED_EXTENSION,
      kind: 'extension',
      status: 'FAILED',
      service_id: SERVICE,
      service_name: 'Team drive',
    }),
    makeOpenOrder({
      id: PLAN_CHANGE_ORDER,
      kind: 'plan_change',
      service_id: SERVICE,
      service_name: 'Team drive',
      plan_change_id: PLAN_CHANGE,
      product_name: 'OPTIMIZED',
      disk_space: 500,
      users_count: 10,
    }),
  ];
}

/** The open orders as the API holds them: a cancelled one leaves the list. */
function openOrdersApi(initial = openOrders()) {
  let orders = initial;
  const cancelled: string[] = [];
  server.use(
    http.get('/api/v1/orders/open', () => HttpResponse.json(orders)),
    http.post('/api/v1/orders/:id/cancel', ({ params }) => {
      const order = orders.find((candidate) => candidate.id === params.id);
      if (!order) return HttpResponse.json({ detail: 'not_found', message: 'Not found' }, { status: 404 });
      cancelled.push(order.id);
      orders = orders.filter((candidate) => candidate.id !== order.id);
      return HttpResponse.json({ ...order, status: 'CANCELLED' });
    }),
  );
  return cancelled;
}

beforeEach(() => {
  storeSession();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  server.use(userHandler(makeUser()), summaryHandler(), invoicesHandler([]));
});

describe.each([
  ['services', '/dashboard/services'],
  ['billing', '/dashboard/billing'],
])('unpaid orders on the %s page', (_page, path) => {
  it('lists each with what it buys, Pay to its own payment page and Cancel', async () => {
    openOrdersApi();
    renderApp(path);
    const list = await screen.findByTestId('open-orders');
    expect(within(list).getByRole('heading').textContent).toBe('Unpaid orders (3)');

    const fresh = screen.getByTestId(`open-order-${NEW_ORDER}`);
    expect(fresh.textContent).toContain('New service: MINI');
    expect(fresh.textContent).toContain('MINI · 50 GB · 5 users');
    expect(fresh.textContent).toContain('Awaiting payment');
    expect(screen.getByTestId(`open-order-amount-${NEW_ORDER}`).textContent).toBe(formatMoney(7260, 'en-US'));
    expect(screen.getByTestId(`open-order-pay-${NEW_ORDER}`).getAttribute('href')).toBe(
      `/dashboard/payments/new/${NEW_ORDER}/payment`,
    );

    const failed = screen.getByTestId(`open-order-${FAILED_EXTENSION}`);
    expect(failed.textContent).toContain('Extension of Team drive');
    expect(failed.textContent).toContain('Payment failed');
    const retry = screen.getByTestId(`open-order-pay-${FAILED_EXTENSION}`);
    expect(retry.textContent).toContain('Retry payment');
    expect(retry.getAttribute('href')).toBe(`/dashboard/payments/retry/${FAILED_EXTENSION}/payment`);

    expect(screen.getByTestId(`open-order-${PLAN_CHANGE_ORDER}`).textContent).toContain(
      'Plan change of Team drive',
    );
    expect(screen.getByTestId(`open-order-pay-${PLAN_CHANGE_ORDER}`).getAttribute('href')).toBe(
      `/dashboard/payments/plan-change/${PLAN_CHANGE}/payment`,
    );
    for (const id of [NEW_ORDER, FAILED_EXTENSION, PLAN_CHANGE_ORDER]) {
      expect(screen.getByTestId(`open-order-cancel-${id}`).textContent).toContain('Cancel order');
    }
  });

  it('cancels an order only after confirming, and the list no longer shows it', async () => {
    const cancelled = openOrdersApi();
    renderApp(path);
    await userEvent.click(await screen.findByTestId(`open-order-cancel-${NEW_ORDER}`));
    // Nothing happens before the confirmation; keeping it changes nothing.
    expect(cancelled).toEqual([]);
    expect(screen.getByTestId(`open-order-${NEW_ORDER}`).textContent).toContain('account credit');
    await userEvent.click(screen.getByTestId(`open-order-cancel-keep-${NEW_ORDER}`));
    expect(cancelled).toEqual([]);

    await userEvent.click(screen.getByTestId(`open-order-cancel-${NEW_ORDER}`));
    await userEvent.click(screen.getByTestId(`open-order-cancel-confirm-${NEW_ORDER}`));
    await waitFor(() => expect(screen.queryByTestId(`open-order-${NEW_ORDER}`)).toBeNull());
    expect(cancelled).toEqual([NEW_ORDER]);
    expect(screen.getByTestId(`open-order-${FAILED_EXTENSION}`)).toBeTruthy();
  });
});

describe('unpaid orders', () => {
  it('shows nothing when there are none', async () => {
    renderApp('/dashboard/services');
    await screen.findByTestId('services-empty');
    expect(screen.queryByTestId('open-orders')).toBeNull();
  });

  it('says why a paid order could not be cancelled, in Lithuanian too', async () => {
    await changeLanguage('lt');
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      http.get('/api/v1/orders/open', () => HttpResponse.json([makeOpenOrder({ id: NEW_ORDER })])),
      http.post('/api/v1/orders/:id/cancel', () =>
        HttpResponse.json(
          {
            detail: 'order_not_cancellable',
            message:
              'Šis užsakymas jau apmokėtas, todėl jo atšaukti negalima. Tai, ką jis nupirko, tvarkykite skiltyje „Paslaugos“.',
          },
          { status: 409 },
        ),
      ),
    );
    renderApp('/dashboard/billing');
    expect((await screen.findByTestId('open-orders')).textContent).toContain('Neapmokėtas užsakymas');
    await userEvent.click(screen.getByTestId(`open-order-cancel-${NEW_ORDER}`));
    await userEvent.click(screen.getByTestId(`open-order-cancel-confirm-${NEW_ORDER}`));
    expect((await screen.findByTestId(`open-order-cancel-error-${NEW_ORDER}`)).textContent).toContain(
      'jau apmokėtas, todėl jo atšaukti negalima',
    );
  });
});
