import { SERVICE_STATUSES, type ServiceSummary } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, storeSession, userHandler } from '../test/fixtures.ts';
import { makeService, overviewHandler } from '../test/service-fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';

const overview = (services: ServiceSummary[]) => server.use(overviewHandler(services));

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()));
});

describe('services list', () => {
  it('lists the services with name, plan, status, validity and price', async () => {
    overview([makeService({ id: 'svc-1' }), makeService({ id: 'svc-2', name: 'Archive', status: 'active' })]);
    renderApp('/dashboard/services');

    const row = await screen.findByTestId('service-row-svc-1');
    expect(row.textContent).toContain('Team drive');
    expect(row.textContent).toContain('MINI');
    expect(row.textContent).toContain('Jan 15, 2027');
    expect(row.textContent).toContain(`${formatMoney(1499, 'en-US')} / month`);
    expect(screen.getByTestId('service-status-svc-1').textContent).toBe('Being set up');
    expect(screen.getByTestId('service-status-svc-2').textContent).toBe('Active');
    expect(screen.queryByTestId('services-empty')).toBeNull();
  });

  it('names every status in both languages', async () => {
    overview(SERVICE_STATUSES.map((status) => makeService({ id: status, status })));
    const view = renderApp('/dashboard/services');
    await screen.findByTestId('service-row-active');
    const english = SERVICE_STATUSES.map(
      (status) => screen.getByTestId(`service-status-${status}`).textContent,
    );
    view.unmount();
    // An account in Lithuanian: the session applies its language.
    server.use(userHandler(makeUser({ language: 'lt' })));
    renderApp('/dashboard/services');
    await screen.findByText('Laukiama apmokėjimo');
    const lithuanian = SERVICE_STATUSES.map(
      (status) => screen.getByTestId(`service-status-${status}`).textContent,
    );
    expect(new Set(english).size).toBe(SERVICE_STATUSES.length);
    expect(new Set(lithuanian).size).toBe(SERVICE_STATUSES.length);
    expect(lithuanian[0]).toBe('Laukiama apmokėjimo');
  });

  it('keeps the empty state when there are none, and says when loading fails', async () => {
    overview([]);
    const view = renderApp('/dashboard/services');
    expect((await screen.findByTestId('services-empty')).textContent).toContain('You have no services yet');
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
