import { CSRF_COOKIE, type SavedPaymentMethod } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { providerNavigation } from '../../payments/payments-api.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { invoicesHandler, summaryHandler } from './billing-fixtures.ts';
import { expiresSoon } from './PaymentMethodPanel.tsx';

const CARD: SavedPaymentMethod = {
  id: 'c0000000-0000-4000-8000-000000000001',
  provider: 'sandbox',
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2040,
  created_at: '2026-11-21T10:00:00.000Z',
};

const PATH = '/api/v1/billing/payment-methods';

beforeEach(() => {
  storeSession();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  server.use(userHandler(makeUser()), summaryHandler(), invoicesHandler([]));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Payment method panel', () => {
  it('shows the kept card by brand, last four and expiry, never more', async () => {
    server.use(http.get(PATH, () => HttpResponse.json({ payment_method: CARD })));
    renderApp('/dashboard/billing');
    const card = await screen.findByTestId('payment-method-card');
    expect(card.textContent).toContain('Visa');
    expect(card.textContent).toContain('•••• 4242');
    expect(screen.getByTestId('payment-method-expiry').textContent).toBe('Expires 12/2040');
    expect(screen.queryByTestId('payment-method-expiring')).toBeNull();
    expect(screen.getByTestId('payment-method-replace').textContent).toBe('Replace');
    expect(screen.getByTestId('payment-method-remove')).toBeTruthy();
  });

  it('has an empty state that opens the card form', async () => {
    let opened = 0;
    server.use(
      http.post(PATH, () => {
        opened += 1;
        return HttpResponse.json({ url: 'http://localhost/payments-sandbox/setups/pms_abcdefghijkl' });
      }),
    );
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/dashboard/billing');
    expect((await screen.findByTestId('payment-method-empty')).textContent).toContain('No card is kept');
    await user.click(screen.getByTestId('payment-method-add'));
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('http://localhost/payments-sandbox/setups/pms_abcdefghijkl'),
    );
    expect(opened).toBe(1);
  });

  it('removes the card only after the confirmation, then shows the empty state', async () => {
    let removed = 0;
    server.use(
      http.get(PATH, () => HttpResponse.json({ payment_method: removed > 0 ? null : CARD })),
      http.delete(PATH, () => {
        removed += 1;
        return HttpResponse.json({ payment_method: null });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/billing');
    await user.click(await screen.findByTestId('payment-method-remove'));
    const dialog = await screen.findByTestId('payment-method-remove-dialog');
    expect(dialog.textContent).toContain('Visa •••• 4242 will no longer be kept');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(removed).toBe(0);
    await user.click(screen.getByTestId('payment-method-remove'));
    await user.click(await screen.findByTestId('payment-method-remove-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('payment-method-remove-dialog')).toBeNull());
    expect(removed).toBe(1);
    expect(await screen.findByTestId('payment-method-empty')).toBeTruthy();
  });

  it('asks again after the card form until the new card is there', async () => {
    let asked = 0;
    server.use(
      http.get(PATH, () => {
        asked += 1;
        return HttpResponse.json({ payment_method: asked >= 2 ? { ...CARD, last4: '0341' } : null });
      }),
    );
    renderApp('/dashboard/billing?payment_method=saved');
    expect((await screen.findByTestId('payment-method-saved')).textContent).toContain('Thank you');
    expect((await screen.findByTestId('payment-method-last4', {}, { timeout: 4_000 })).textContent).toBe(
      '0341',
    );
  });

  it('speaks Lithuanian, and marks a card in its last month', async () => {
    const now = new Date();
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      http.get(PATH, () =>
        HttpResponse.json({
          payment_method: { ...CARD, exp_month: now.getUTCMonth() + 1, exp_year: now.getUTCFullYear() },
        }),
      ),
    );
    renderApp('/dashboard/billing');
    expect(await screen.findByText('Mokėjimo būdas')).toBeTruthy();
    expect((await screen.findByTestId('payment-method-expiring')).textContent).toBe('Galioja tik šį mėnesį');
    expect(screen.getByTestId('payment-method-replace').textContent).toBe('Pakeisti');
  });

  it('knows which cards expire by the end of this month', () => {
    const now = new Date('2026-12-07T00:00:00Z');
    expect(expiresSoon({ exp_month: 12, exp_year: 2026 }, now)).toBe(true);
    expect(expiresSoon({ exp_month: 11, exp_year: 2026 }, now)).toBe(true);
    expect(expiresSoon({ exp_month: 1, exp_year: 2027 }, now)).toBe(false);
  });
});
