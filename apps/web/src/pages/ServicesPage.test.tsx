import { SERVICE_DISPLAY_STATES, type ServiceSummary } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { providerNavigation } from '../payments/payments-api.ts';
import { makeUser, storeSession, userHandler } from '../test/fixtures.ts';
import { makeService, overviewHandler } from '../test/service-fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { inTurn, makeOverviewItem, setCsrfCookie } from '../test/workspace-fixtures.ts';

const overview = (services: ServiceSummary[]) => server.use(overviewHandler(services));

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()));
});

describe('services list', () => {
  it('lists the services with name, plan, status, validity and price', async () => {
    overview([makeService({ id: 'svc-1' }), makeOverviewItem({ id: 'svc-2', name: 'Archive' })]);
    renderApp('/dashboard/services');

    const row = await screen.findByTestId('service-row-svc-1');
    expect(row.textContent).toContain('Team drive');
    expect(row.textContent).toContain('MINI');
    expect(row.textContent).toContain('Jan 15, 2027');
    expect(screen.getByTestId('service-price-svc-1').textContent).toBe(
      `${formatMoney(1499, 'en-US')} / month excl. VAT`,
    );
    // The plan is labelled, as the date is.
    expect(screen.getByTestId('service-plan-svc-1').previousElementSibling?.textContent).toBe('Plan');
    expect(screen.getByTestId('service-plan-svc-1').previousElementSibling?.className).not.toContain(
      'visually-hidden',
    );
    expect(screen.getByTestId('service-status-svc-1').textContent).toBe('Being set up');
    expect(screen.getByTestId('service-status-svc-2').textContent).toBe('Running');
    expect(screen.queryByTestId('services-empty')).toBeNull();
  });

  it('names every display state in both languages', async () => {
    overview(SERVICE_DISPLAY_STATES.map((state) => makeOverviewItem({ id: state, display_state: state })));
    const view = renderApp('/dashboard/services');
    await screen.findByTestId('service-row-running');
    const english = SERVICE_DISPLAY_STATES.map(
      (state) => screen.getByTestId(`service-status-${state}`).textContent,
    );
    view.unmount();
    // An account in Lithuanian: the session applies its language.
    server.use(userHandler(makeUser({ language: 'lt' })));
    renderApp('/dashboard/services');
    await screen.findByText('Laukiama apmokėjimo');
    const lithuanian = SERVICE_DISPLAY_STATES.map(
      (state) => screen.getByTestId(`service-status-${state}`).textContent,
    );
    expect(new Set(english).size).toBe(SERVICE_DISPLAY_STATES.length);
    expect(new Set(lithuanian).size).toBe(SERVICE_DISPLAY_STATES.length);
    expect(lithuanian[0]).toBe('Laukiama apmokėjimo');
  });

  it('keeps the empty state when there are none, and says when loading fails', async () => {
    overview([]);
    const view = renderApp('/dashboard/services');
    expect((await screen.findByTestId('services-empty')).textContent).toContain('You have no services yet');
    // Setting up takes seconds: the promise is the truthful one.
    expect(screen.getByTestId('services-empty').textContent).toContain('usually ready within a minute');
    view.unmount();

    server.use(
      http.get('/api/v1/services/overview', () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    renderApp('/dashboard/services');
    expect((await screen.findByTestId('services-error', {}, { timeout: 4000 })).textContent).toContain(
      'Failed to load services',
    );
  });
});

describe('services list: warnings and ways forward', () => {
  it('warns of an expiry with the days left: expiring soon, then critical', async () => {
    overview([
      makeOverviewItem({ id: 'soon', expiry_warning: 'expiring_soon', days_left: 6 }),
      makeOverviewItem({ id: 'critical', expiry_warning: 'critical', days_left: 1 }),
      makeOverviewItem({ id: 'fine' }),
    ]);
    renderApp('/dashboard/services');
    expect((await screen.findByTestId('service-expiry-soon')).textContent).toContain(
      'This service expires in 6 days.',
    );
    const critical = screen.getByTestId('service-expiry-critical');
    expect(critical.textContent).toContain('This service expires in 1 day. Extend it now');
    expect(critical.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('service-extend-critical').getAttribute('href')).toBe(
      '/dashboard/payments/extend/critical/payment',
    );
    expect(screen.queryByTestId('service-expiry-fine')).toBeNull();
  });

  it('asks to extend an expired or quarantined service, and links every service to its page', async () => {
    overview([
      makeOverviewItem({ id: 'expired', status: 'expired', terminates_at: '2027-02-05T09:00:00.000Z' }),
      makeOverviewItem({ id: 'quarantined', status: 'quarantined' }),
    ]);
    renderApp('/dashboard/services');
    for (const id of ['expired', 'quarantined']) {
      expect((await screen.findByTestId(`service-lapsed-${id}`)).textContent).toContain(
        'This service has expired or is quarantined. Please extend your service to regain access.',
      );
      expect(screen.getByTestId(`service-extend-${id}`).getAttribute('href')).toBe(
        `/dashboard/payments/extend/${id}/payment`,
      );
      expect(screen.getByTestId(`service-link-${id}`).getAttribute('href')).toBe(`/dashboard/services/${id}`);
    }
    expect(screen.getByTestId('service-lapsed-expired').textContent).toContain('Feb 5, 2027');
  });

  it('retries the payment of an unpaid or failed service at the provider, and says when it cannot', async () => {
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    setCsrfCookie();
    overview([
      makeOverviewItem({ id: 'unpaid', status: 'awaitingPayment' }),
      makeOverviewItem({ id: 'declined', status: 'failed' }),
    ]);
    server.use(
      http.post('/api/v1/services/unpaid/retry-payment', () =>
        HttpResponse.json({ session_id: 'cs_1', url: 'https://pay.example/cs_1' }),
      ),
      http.post('/api/v1/services/declined/retry-payment', () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    renderApp('/dashboard/services');
    expect((await screen.findByTestId('service-unpaid-declined')).textContent).toContain(
      'The payment for this service failed.',
    );
    await userEvent.click(screen.getByTestId('service-retry-payment-unpaid'));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://pay.example/cs_1'));

    await userEvent.click(screen.getByTestId('service-retry-payment-declined'));
    expect((await screen.findByTestId('service-retry-error-declined')).textContent).toBe(
      'Failed to retry payment',
    );
  });

  it('asks again while a service is being set up, until it is active', async () => {
    server.use(
      http.get(
        '/api/v1/services/overview',
        inTurn([
          {
            services: [
              makeOverviewItem({
                id: 'new',
                status: 'processing',
                display_state: 'preparing',
                apply_status: 'applying',
              }),
            ],
          },
          { services: [makeOverviewItem({ id: 'new' })] },
        ]),
      ),
    );
    renderApp('/dashboard/services');
    expect((await screen.findByTestId('service-status-new')).textContent).toBe('Being set up');
    expect(screen.getByTestId('service-preparing-new').textContent).toContain(
      'usually ready within a minute',
    );
    await waitFor(() => expect(screen.getByTestId('service-status-new').textContent).toBe('Running'), {
      timeout: 5000,
    });
    expect(screen.queryByTestId('service-preparing-new')).toBeNull();
  });
});
