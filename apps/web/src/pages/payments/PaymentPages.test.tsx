import { formatMoney, vatFor } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import {
  capacityHandler,
  makeOrder,
  makeSelectedPlan,
  miniBreakdown,
  ORDER_ID,
} from '../../payments/payment-fixtures.ts';
import { providerNavigation } from '../../payments/payments-api.ts';
import { storeSelectedPlan } from '../../plans/selected-plan-store.ts';
import { makeUser, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';

const PROVIDER_URL = '/payments-sandbox/sessions/ps_test_session_0001';
const euro = (minor: number) => formatMoney(minor, 'en-US');

function openProvider() {
  return vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
}

beforeEach(() => {
  // Room for the workspace unless a test says the nodes are full.
  signIn({ user: makeUser({ country: 'LT' }), handlers: [capacityHandler()] });
});

describe('paying for the selected plan (/dashboard/payments/new/payment)', () => {
  it('shows the plan and its price, creates the order, opens the payment and goes to the provider', async () => {
    storeSelectedPlan(makeSelectedPlan());
    const created: unknown[] = [];
    server.use(
      ...catalogueHandlers(),
      http.post('/api/v1/orders/', async ({ request }) => {
        created.push(await request.json());
        return HttpResponse.json(makeOrder(), { status: 201 });
      }),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL }),
      ),
    );
    const open = openProvider();
    renderApp('/dashboard/payments/new/payment');

    await waitFor(() => expect(screen.getByTestId('payment-fact-plan').textContent).toBe('MINI'));
    await waitFor(() =>
      expect(screen.getByTestId('payment-total').textContent).toBe(euro(miniBreakdown().total)),
    );
    // The whole configuration, not only the plan's name, before any money moves.
    expect(screen.getByTestId('payment-fact-disk').textContent).toBe('50 GB');
    expect(screen.getByTestId('payment-fact-users').textContent).toBe('5');
    expect(screen.getByTestId('payment-fact-period').textContent).toBe('12 months');
    expect(screen.getByTestId('breakdown-vat-amount').textContent).toBe(euro(miniBreakdown().vat_amount));

    await userEvent.click(screen.getByTestId('payment-pay'));

    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
    expect(created).toEqual([
      { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m', selected_options: [] },
    ]);
  });

  it('says the payment could not be initialised, and pays the same order on a second try', async () => {
    storeSelectedPlan(makeSelectedPlan());
    let creates = 0;
    let processes = 0;
    server.use(
      ...catalogueHandlers(),
      http.post('/api/v1/orders/', () => {
        creates += 1;
        return HttpResponse.json(makeOrder(), { status: 201 });
      }),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () => {
        processes += 1;
        return processes === 1
          ? HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 })
          : HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL });
      }),
    );
    const open = openProvider();
    renderApp('/dashboard/payments/new/payment');

    await userEvent.click(await screen.findByTestId('payment-pay'));
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      'The payment could not be initialised. Please try again.',
    );
    await userEvent.click(screen.getByTestId('payment-pay'));

    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
    expect(creates).toBe(1);
  });

  it('asks to choose a plan when none is stored', async () => {
    renderApp('/dashboard/payments/new/payment');
    expect((await screen.findByTestId('payment-error')).textContent).toContain('No plan is selected');
  });
});

describe('why the last attempt failed', () => {
  it.each([
    ['en', 'The last payment attempt failed: The card was declined.'],
    ['lt', 'Paskutinis bandymas apmokėti nepavyko: Kortelė atmesta.'],
  ] as const)("names a known decline code in the reader's language (%s)", async (language, text) => {
    await changeLanguage(language);
    server.use(
      userHandler(makeUser({ country: 'LT', language })),
      http.get(`/api/v1/orders/${ORDER_ID}`, () =>
        HttpResponse.json(
          makeOrder({
            status: 'FAILED',
            error_message: 'Payment failed',
            error_details: '{"code":"card_declined","message":"Your card was declined."}',
          }),
        ),
      ),
    );
    renderApp(`/dashboard/payments/retry/${ORDER_ID}/payment`);
    expect((await screen.findByTestId('payment-failure-reason')).textContent).toBe(text);
  });
});

describe('paying for an order (/dashboard/payments/new/{orderId}/payment)', () => {
  it('names the configuration in Lithuanian, the period included', async () => {
    await changeLanguage('lt');
    server.use(
      userHandler(makeUser({ country: 'LT', language: 'lt' })),
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    expect((await screen.findByTestId('payment-fact-period')).textContent).toBe('12 mėnesių');
    expect(screen.getByTestId('payment-summary').textContent).toContain('Disko vieta');
  });

  it('shows the breakdown with VAT, the reverse-charge note and the total, then pays', async () => {
    const breakdown = {
      ...miniBreakdown(vatFor({ country: 'DE', isBusiness: true, vatNumberValid: true })),
      vat_number_valid: true,
    };
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () =>
        HttpResponse.json(makeOrder({ breakdown, amount: breakdown.total })),
      ),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL }),
      ),
    );
    const open = openProvider();
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);

    expect((await screen.findByTestId('payment-total')).textContent).toBe(euro(breakdown.total));
    expect(screen.getByTestId('payment-fact-disk').textContent).toBe('50 GB');
    expect(screen.getByTestId('payment-fact-users').textContent).toBe('5');
    expect(screen.getByTestId('breakdown-reverse-charge').textContent).toContain('Reverse charge');
    expect(screen.getByTestId('breakdown-vat-rate')).toBeTruthy();

    await userEvent.click(screen.getByTestId('payment-pay'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
  });

  it('shows the VAT line for a consumer', async () => {
    server.use(http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())));
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    expect((await screen.findByTestId('breakdown-vat-amount')).textContent).toBe(
      euro(miniBreakdown().vat_amount),
    );
    expect(screen.getByTestId('breakdown-vat-rate').textContent).toBe('21%');
  });

  it('says when the order is not found (another account’s)', async () => {
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () =>
        HttpResponse.json({ detail: 'not_found', message: 'Not found' }, { status: 404 }),
      ),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    expect((await screen.findByTestId('payment-error')).textContent).toBe('The order was not found.');
  });

  it('shows the server’s reason when the order cannot be paid now', async () => {
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json(
          {
            detail: 'order_not_payable',
            message: 'This order cannot be paid now: it is already paid, cancelled or being paid.',
          },
          { status: 409 },
        ),
      ),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    await userEvent.click(await screen.findByTestId('payment-pay'));
    expect((await screen.findByTestId('payment-error')).textContent).toContain('cannot be paid now');
  });
});

describe('retrying a failed order (/dashboard/payments/retry/{orderId}/payment)', () => {
  it('shows why it failed and retries the payment', async () => {
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () =>
        HttpResponse.json(
          makeOrder({
            status: 'FAILED',
            error_message: 'Card declined',
            error_details: '{"message":"Do not honor"}',
            service_name: 'Office files',
          }),
        ),
      ),
      http.post(`/api/v1/orders/${ORDER_ID}/retry-payment`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0002', url: PROVIDER_URL }),
      ),
    );
    const open = openProvider();
    renderApp(`/dashboard/payments/retry/${ORDER_ID}/payment`);

    // The provider's reason once, after the lead: not 'failed: Card declined: …'.
    expect((await screen.findByTestId('payment-failure-reason')).textContent).toBe(
      'The last payment attempt failed: Do not honor',
    );
    // The name given at checkout is still there.
    expect(screen.getByTestId('payment-fact-name').textContent).toBe('Office files');
    await userEvent.click(screen.getByTestId('payment-retry'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
  });

  it('says the retry failed when the server refuses', async () => {
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder({ status: 'FAILED' }))),
      http.post(`/api/v1/orders/${ORDER_ID}/retry-payment`, () => HttpResponse.error()),
    );
    renderApp(`/dashboard/payments/retry/${ORDER_ID}/payment`);
    await userEvent.click(await screen.findByTestId('payment-retry'));
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      'The payment could not be retried. Please try again.',
    );
  });
});

describe('capacity before money: no node has room for the disk now', () => {
  it('tells so before paying for the selected plan, with both choices: pay and wait, or a smaller size', async () => {
    storeSelectedPlan(makeSelectedPlan());
    const asked: number[] = [];
    server.use(
      ...catalogueHandlers(),
      capacityHandler({ largest: 20 }, asked),
      http.post('/api/v1/orders/', () => HttpResponse.json(makeOrder(), { status: 201 })),
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL }),
      ),
    );
    const open = openProvider();
    renderApp('/dashboard/payments/new/payment');

    const notice = await screen.findByTestId('payment-capacity');
    expect(asked).toContain(50);
    expect(notice.textContent).toContain('No storage node has room for 50 GB right now.');
    expect(notice.textContent).toContain('waits for room');
    expect(screen.getByTestId('payment-capacity-smaller').textContent).toBe(
      'A workspace of up to 20 GB can be set up at once.',
    );
    expect(screen.getByTestId('payment-capacity-smaller-link').getAttribute('href')).toBe('/auth/plans');
    // Paying is the other choice, named as what it is.
    const pay = screen.getByTestId('payment-pay');
    expect(pay.textContent).toBe('Pay and wait for room');
    await userEvent.click(pay);
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
  });

  it('warns on an existing order’s page too, in Lithuanian, and says the order stays open', async () => {
    await changeLanguage('lt');
    server.use(
      userHandler(makeUser({ country: 'LT', language: 'lt' })),
      capacityHandler({ largest: 0 }),
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    const notice = await screen.findByTestId('payment-capacity');
    expect(notice.textContent).toContain('nėra vietos 50 GB');
    expect(screen.getByTestId('payment-capacity-smaller').textContent).toContain(
      'Šiuo metu iš karto negalima paruošti jokio dydžio.',
    );
    expect(screen.getByTestId('payment-capacity-smaller').textContent).toContain('liks neapmokėtų užsakymų');
    expect(screen.getByTestId('payment-capacity-smaller-link').textContent).toBe('Pasirinkti mažesnį dydį');
    expect(screen.getByTestId('payment-pay').textContent).toBe('Apmokėti ir laukti vietos');
  });

  it('says nothing when a node has room', async () => {
    const asked: number[] = [];
    server.use(
      capacityHandler({ largest: 16_384 }, asked),
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    await waitFor(() => expect(asked).toEqual([50]));
    await waitFor(() => expect(screen.getByTestId('payment-pay').textContent).toBe('Pay'));
    expect(screen.queryByTestId('payment-capacity')).toBeNull();
  });

  it('asks nothing for an extension: its workspace has its place', async () => {
    const asked: number[] = [];
    server.use(
      capacityHandler({ largest: 0 }, asked),
      http.get(`/api/v1/orders/${ORDER_ID}`, () =>
        HttpResponse.json(
          makeOrder({ kind: 'extension', service_id: '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01' }),
        ),
      ),
    );
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    expect((await screen.findByTestId('payment-pay')).textContent).toBe('Pay');
    expect(asked).toEqual([]);
    expect(screen.queryByTestId('payment-capacity')).toBeNull();
  });
});
