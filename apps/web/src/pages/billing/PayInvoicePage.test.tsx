import { CSRF_COOKIE, type Invoice } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { providerNavigation } from '../../payments/payments-api.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { makeInvoice } from './billing-fixtures.ts';

const PARTY = {
  name: 'Ona',
  company_code: null,
  vat_number: null,
  address: { street: 'Gedimino 1', city: 'Vilnius', state: '', postal_code: '01103', country: 'LT' },
  email: 'ona@example.lt',
};

function makeFullInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    ...makeInvoice({ type: 'RENEWAL', status: 'unpaid', number: 'DEB-2026-000042', total: 1210 }),
    supply_date: '2026-11-21',
    seller: PARTY,
    buyer: PARTY,
    lines: [],
    period_subtotal: 1000,
    discount_rate: 0,
    period_discount: 0,
    subtotal: 1000,
    credit_applied: 0,
    reverse_charge: false,
    outside_scope: false,
    legal_note_key: null,
    seller_bank_account: null,
    payment_method: 'sandbox',
    ...overrides,
  };
}

const ID = makeInvoice().id;
const PAGE = `/dashboard/billing/invoices/${ID}/pay`;

beforeEach(() => {
  storeSession();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  server.use(userHandler(makeUser()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('paying an unpaid invoice from the mail’s link', () => {
  it('opens the provider’s page for the invoice (POST /payments/session { invoice_id })', async () => {
    const bodies: unknown[] = [];
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    server.use(
      http.get(`/api/v1/billing/invoices/${ID}`, () => HttpResponse.json(makeFullInvoice())),
      http.post('/api/v1/payments/session', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ session_id: 'ps_1', url: 'https://pay.example/ps_1' });
      }),
    );
    renderApp(PAGE);
    const summary = await screen.findByTestId('pay-invoice-summary');
    expect(summary.textContent).toContain('DEB-2026-000042');
    expect(summary.textContent).toContain('Team drive');
    await userEvent.click(screen.getByTestId('pay-invoice-submit'));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://pay.example/ps_1'));
    expect(bodies).toEqual([{ invoice_id: ID }]);
  });

  it('says when the invoice is paid already, and offers no payment', async () => {
    server.use(
      http.get(`/api/v1/billing/invoices/${ID}`, () =>
        HttpResponse.json(makeFullInvoice({ status: 'paid' })),
      ),
    );
    renderApp(PAGE);
    expect((await screen.findByTestId('pay-invoice-settled')).textContent).toContain('This invoice is paid');
    expect(screen.queryByTestId('pay-invoice-submit')).toBeNull();
  });
});
