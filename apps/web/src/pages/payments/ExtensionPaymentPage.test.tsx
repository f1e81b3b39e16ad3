import { applyCredit, calculatePrice, formatMoney, vatFor } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeOrder, ORDER_ID } from '../../payments/payment-fixtures.ts';
import { providerNavigation } from '../../payments/payments-api.ts';
import { makeUser } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { makeService, overviewHandler, SERVICE_ID } from '../../test/service-fixtures.ts';
import { creditHandler } from '../plan-changes/plan-change-fixtures.ts';
import { catalogueHandlers, productById, type PriceCall } from '../plans/plans-fixtures.ts';
import { newValidUntil } from './ExtensionPaymentPage.tsx';
import { signIn } from '../../test/sign-in.ts';

const PROVIDER_URL = '/payments-sandbox/sessions/ps_test_session_0001';
const PAGE = `/dashboard/payments/extend/${SERVICE_ID}/payment`;
const euro = (minor: number) => formatMoney(minor, 'en-US');
const lithuanianVat = vatFor({ country: 'LT', isBusiness: false, vatNumberValid: false });
const miniFor = (periodId: string) =>
  calculatePrice(productById('mini'), { disk_space: 50, users_count: 5, period_id: periodId }, lithuanianVat);

beforeEach(() => signIn({ user: makeUser({ country: 'LT' }), handlers: [overviewHandler([makeService()])] }));

describe('extending a service (/dashboard/payments/extend/{serviceId}/payment)', () => {
  it('prices the chosen period, shows the new end date and pays for that period', async () => {
    const priced: PriceCall[] = [];
    const extended: unknown[] = [];
    server.use(
      ...catalogueHandlers(priced),
      creditHandler(0),
      http.post(`/api/v1/orders/service/${SERVICE_ID}/extend`, async ({ request }) => {
        extended.push(await request.json());
        return HttpResponse.json(makeOrder({ kind: 'extension', service_id: SERVICE_ID }), { status: 201 });
      }),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL }),
      ),
    );
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    renderApp(PAGE);

    // The service's own period first.
    expect((await screen.findByTestId<HTMLInputElement>('plan-period-12m')).checked).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('payment-total').textContent).toBe(euro(miniFor('12m').total)),
    );
    expect(screen.getByTestId('extension-valid-until').textContent).toBe('Jan 15, 2027');
    expect(screen.getByTestId('extension-new-valid-until').textContent).toBe('Jan 15, 2028');

    await userEvent.click(screen.getByTestId('plan-period-3m'));
    await waitFor(() =>
      expect(screen.getByTestId('payment-total').textContent).toBe(euro(miniFor('3m').total)),
    );
    expect(screen.getByTestId('extension-new-valid-until').textContent).toBe('Apr 15, 2027');
    expect(screen.getByTestId('breakdown-vat-amount').textContent).toBe(euro(miniFor('3m').vat_amount));
    expect(priced.at(-1)).toMatchObject({
      body: { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '3m' },
      country: 'LT',
    });

    await userEvent.click(screen.getByTestId('payment-pay'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
    expect(extended).toEqual([{ period_id: '3m' }]);
  });

  it('uses the account credit first and says when it covers everything', async () => {
    server.use(...catalogueHandlers(), creditHandler(5000, 0));
    renderApp(PAGE);
    await userEvent.click(await screen.findByTestId('plan-period-1m'));
    const expected = applyCredit(miniFor('1m'), 5000);
    await waitFor(() => expect(screen.getByTestId('payment-total').textContent).toBe(euro(expected.total)));
    expect(screen.getByTestId('breakdown-credit').textContent).toBe(euro(-expected.credit_applied));
    expect(screen.getByTestId('payment-pay').textContent).toBe('Pay with account credit');
    expect(screen.getByTestId('payment-pay-note').textContent).toBe(
      'Your account credit covers the whole amount: no card is needed.',
    );
    // The balance, and the part of it this payment uses.
    expect(screen.getByTestId('payment-summary').parentElement?.textContent).toContain(
      `Your account credit (${euro(5000)}) is used first: ${euro(expected.credit_applied)} of it goes to this payment.`,
    );
  });

  it('says the payment could not be initialised when the extension order fails', async () => {
    server.use(
      ...catalogueHandlers(),
      creditHandler(0),
      http.post(`/api/v1/orders/service/${SERVICE_ID}/extend`, () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    renderApp(PAGE);
    await userEvent.click(await screen.findByTestId('payment-pay'));
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      'The payment could not be initialised. Please try again.',
    );
  });

  it('says "Service not found" and "Service has no valid expiration date"', async () => {
    server.use(overviewHandler([]));
    const first = renderApp(PAGE);
    expect((await screen.findByTestId('payment-error')).textContent).toBe('Service not found');
    first.unmount();

    server.use(overviewHandler([makeService({ valid_until: 'never' })]));
    renderApp(PAGE);
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      'Service has no valid expiration date',
    );
  });
});

describe('the new end date', () => {
  it('follows the paid time, or today when that has ended', () => {
    const now = new Date('2026-06-29T12:00:00.000Z');
    // The last day of a month moves to the last day of a shorter one, as the API counts it.
    expect(newValidUntil(new Date('2027-01-31T09:00:00.000Z'), 1, now).toISOString()).toBe(
      '2027-02-28T09:00:00.000Z',
    );
    expect(newValidUntil(new Date('2026-01-01T00:00:00.000Z'), 3, now).toISOString()).toBe(
      '2026-09-29T12:00:00.000Z',
    );
  });
});
