import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { dashboardHandler, makeDashboardSummary } from '../../test/activity-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { makeService, overviewHandler } from '../../test/service-fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

const SOON = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a02';
const CRITICAL = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a03';

const SUMMARY = makeDashboardSummary({
  services: {
    total: 4,
    by_status: { ...makeDashboardSummary().services.by_status, active: 3, expired: 1 },
  },
  expiring_soon: {
    within_days: 7,
    services: [
      {
        id: CRITICAL,
        name: 'Archive',
        status: 'active',
        valid_until: '2026-03-12T09:00:00.000Z',
        days_left: 1,
        expiry_warning: 'critical',
      },
      {
        id: SOON,
        name: 'Team drive',
        status: 'active',
        valid_until: '2026-03-16T09:00:00.000Z',
        days_left: 6,
        expiry_warning: 'expiring_soon',
      },
    ],
  },
  unpaid_orders: {
    count: 2,
    amount: 36_276,
    currency: 'EUR',
    orders: [],
  },
  credit: { balance: 1250, currency: 'EUR' },
});

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()), overviewHandler([makeService({ status: 'active' })]));
});

describe('account summary on the services page', () => {
  it('shows services by status, those expiring soon with the days left, unpaid orders and credit', async () => {
    server.use(dashboardHandler(SUMMARY));
    renderApp('/dashboard/services');

    const summary = await screen.findByTestId('dashboard-summary', {}, { timeout: 5000 });
    expect(within(summary).getByTestId('summary-services-total').textContent).toBe('4');
    const statuses = within(summary).getByTestId('summary-by-status');
    expect(statuses.textContent).toContain('Active: 3');
    expect(statuses.textContent).toContain('Expired: 1');
    expect(within(summary).getByTestId('summary-expiring-count').textContent).toBe('2');
    expect(within(summary).getByRole('link', { name: 'Archive: 1 day left' }).getAttribute('href')).toBe(
      `/dashboard/services/${CRITICAL}`,
    );
    expect(within(summary).getByRole('link', { name: 'Team drive: 6 days left' })).toBeTruthy();
    expect(within(summary).getByTestId('summary-unpaid-count').textContent).toBe('2');
    expect(within(summary).getByRole('link', { name: '2 orders, €362.76' }).getAttribute('href')).toBe(
      '/dashboard/billing',
    );
    expect(within(summary).getByTestId('summary-credit').textContent).toBe('€12.50');
    // The list is still there below it.
    expect(await screen.findByTestId('service-list')).toBeTruthy();
  });

  it('says when nothing expires and nothing waits for payment', async () => {
    renderApp('/dashboard/services');
    const summary = await screen.findByTestId('dashboard-summary');
    expect(within(summary).getByText('None in the next 7 days')).toBeTruthy();
    expect(within(summary).getByText('Nothing to pay')).toBeTruthy();
    expect(within(summary).getByTestId('summary-services-total').textContent).toBe('0');
  });

  it('speaks Lithuanian, plural forms included', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })), dashboardHandler(SUMMARY));
    renderApp('/dashboard/services');
    const summary = await screen.findByTestId('dashboard-summary');
    expect(await within(summary).findByRole('link', { name: 'Archive: liko 1 diena' })).toBeTruthy();
    expect(within(summary).getByRole('link', { name: 'Team drive: liko 6 dienos' })).toBeTruthy();
    expect(within(summary).getByText('Paskyros kreditas')).toBeTruthy();
  });

  it('shows the dashboard load failure without hiding the services list', async () => {
    server.use(
      http.get('/api/v1/dashboard/', () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    renderApp('/dashboard/services');
    const alert = await screen.findByTestId('dashboard-summary-error', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Failed to load the dashboard');
    expect(screen.getByTestId('service-list')).toBeTruthy();
  });
});
