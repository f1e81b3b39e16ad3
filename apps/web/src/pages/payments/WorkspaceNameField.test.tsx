import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeOrder, makeSelectedPlan, ORDER_ID } from '../../payments/payment-fixtures.ts';
import { providerNavigation } from '../../payments/payments-api.ts';
import { storeSelectedPlan } from '../../plans/selected-plan-store.ts';
import { makeUser } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';

const PROVIDER_URL = '/payments-sandbox/sessions/ps_test_session_0001';

/** Records the bodies of POST /orders/ and /process. */
function checkoutHandlers() {
  const calls = { created: [] as unknown[], processed: [] as unknown[] };
  server.use(
    ...catalogueHandlers(),
    http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(makeOrder())),
    http.post('/api/v1/orders/', async ({ request }) => {
      calls.created.push(await request.json());
      return HttpResponse.json(makeOrder(), { status: 201 });
    }),
    http.post(`/api/v1/orders/${ORDER_ID}/process`, async ({ request }) => {
      calls.processed.push(await request.json());
      return HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL });
    }),
  );
  return calls;
}

beforeEach(() => {
  signIn({ user: makeUser({ country: 'LT' }) });
  vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
});

describe('naming the workspace at checkout', () => {
  it('sends the name given on the order’s payment page, and shows the default otherwise', async () => {
    const calls = checkoutHandlers();
    const user = userEvent.setup();
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);

    const field = await screen.findByTestId('payment-workspace-name');
    expect(
      screen.getByText(`Without one, it is called “MINI ${ORDER_ID.slice(0, 8)}”.`, { exact: false }),
    ).toBeTruthy();
    await user.type(field, ' Komandos diskas ');
    await user.click(screen.getByTestId('payment-pay'));

    await waitFor(() =>
      expect(calls.processed).toEqual([{ name: 'Komandos diskas', save_payment_method: false }]),
    );
  });

  it('sends nothing when the name is left empty', async () => {
    const calls = checkoutHandlers();
    const user = userEvent.setup();
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);

    await screen.findByTestId('payment-workspace-name');
    await user.click(screen.getByTestId('payment-pay'));

    await waitFor(() => expect(calls.processed).toEqual([{ save_payment_method: false }]));
  });

  it('asks to keep the card only when “Keep this card for renewals” is ticked', async () => {
    const calls = checkoutHandlers();
    const user = userEvent.setup();
    renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);

    const keep = await screen.findByLabelText('Keep this card for renewals');
    expect((keep as HTMLInputElement).checked).toBe(false);
    await user.click(keep);
    await user.click(screen.getByTestId('payment-pay'));

    await waitFor(() => expect(calls.processed).toEqual([{ save_payment_method: true }]));
  });

  it('orders the selected plan under the name given', async () => {
    storeSelectedPlan(makeSelectedPlan());
    const calls = checkoutHandlers();
    const user = userEvent.setup();
    renderApp('/dashboard/payments/new/payment');

    await user.type(await screen.findByTestId('payment-workspace-name'), 'Archyvas');
    await user.click(screen.getByTestId('payment-pay'));

    await waitFor(() => expect(calls.created).toMatchObject([{ product_id: 'mini', name: 'Archyvas' }]));
  });
});
