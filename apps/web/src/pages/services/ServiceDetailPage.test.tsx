import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { apiError, makeOverviewItem, servicePath, workspaceHandlers } from '../../test/workspace-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';
import { loadServicePages } from '../../test/service-pages.ts';

const DETAIL = `/dashboard/services/${SERVICE_ID}`;

loadServicePages(() => import('./overview/ServiceOverviewTab.tsx'));

beforeEach(() => signIn());

describe('service detail: overview', () => {
  it('shows every fact of the service, its status and whether the node has applied it', async () => {
    server.use(...workspaceHandlers());
    renderApp(DETAIL);

    const facts = await screen.findByTestId('service-facts');
    const fact = (key: string) => within(facts).getByTestId(`service-fact-${key}`).textContent;
    expect(screen.getByTestId('service-name').textContent).toBe('Team drive');
    expect(fact('plan')).toBe('MINI');
    expect(fact('status')).toBe('Running');
    expect(fact('valid-until')).toBe('Jan 15, 2027');
    expect(fact('ip')).toBe('127.0.10.7');
    expect(fact('disk')).toBe('1.5 GB of 50 GB');
    expect(fact('files')).toBe('1,234');
    expect(fact('users')).toBe('2 / 5');
    expect(fact('groups')).toBe('1');
    expect(fact('shares')).toBe('1');
    expect(fact('price')).toBe('€14.99 / month excl. VAT');
    expect(fact('uptime')).toBe('3 d 4 h');
    expect((await screen.findByTestId('service-apply')).dataset.applyStatus).toBe('applied');
    expect(screen.getByTestId('service-node-state').textContent).toBe('Online');
    // The index tab is the current one; the others are links.
    expect(screen.getByTestId('service-tab-overview').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('service-tab-users').getAttribute('href')).toBe(`${DETAIL}/users`);
  });

  it('says what is not known yet for a service still being set up', async () => {
    server.use(
      ...workspaceHandlers({
        service: makeOverviewItem({
          status: 'processing',
          display_state: 'preparing',
          ip_address: null,
          disk_usage: null,
          file_usage: null,
          uptime: null,
          apply_status: 'applying',
        }),
      }),
    );
    renderApp(DETAIL);
    expect((await screen.findByTestId('service-fact-ip')).textContent).toBe('Not assigned yet');
    expect(screen.getByTestId('service-fact-disk').textContent).toBe('Not measured yet (of 50 GB)');
    expect(screen.getByTestId('service-fact-uptime').textContent).toBe('Not running');
    expect(screen.getByTestId(`service-preparing-${SERVICE_ID}`).textContent).toContain(
      'usually ready within a minute',
    );
    // Not placed: no node to ask about.
    expect(screen.queryByTestId('service-node')).toBeNull();
  });

  it("says 'Service not found' for an id that is not the account's", async () => {
    server.use(...workspaceHandlers());
    renderApp('/dashboard/services/2b5c8d7e-0000-4e8a-9f61-7d1f0a523c4b');
    expect((await screen.findByTestId('service-not-found')).textContent).toBe('Service not found');
    expect(screen.getByTestId('service-back').getAttribute('href')).toBe('/dashboard/services');
  });

  it("says 'Failed to load service details' when the list cannot be loaded, and tries again", async () => {
    let failing = true;
    server.use(...workspaceHandlers());
    server.use(
      http.get('/api/v1/services/overview', () =>
        failing
          ? apiError(500, 'server_error', 'Server error')
          : HttpResponse.json({ services: [makeOverviewItem()] }),
      ),
    );
    renderApp(DETAIL);
    const error = await screen.findByTestId('service-load-error', {}, { timeout: 4000 });
    expect(error.textContent).toBe('Failed to load service details');
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('service-facts')).toBeTruthy();
  });

  it('keeps the page as it was when a refetch fails while a change applies, and goes on polling', async () => {
    let calls = 0;
    server.use(...workspaceHandlers());
    server.use(
      http.get('/api/v1/services/overview', () => {
        calls += 1;
        // The first answer polls (a change applying); the next two fail (its one retry too).
        return calls === 2 || calls === 3
          ? apiError(500, 'server_error', 'Server error')
          : HttpResponse.json({ services: [makeOverviewItem({ apply_status: 'applying' })] });
      }),
    );
    renderApp(DETAIL);
    await screen.findByTestId('service-facts');
    // Watched throughout: the page must never have given way to the error.
    let sawError = false;
    await waitFor(
      () => {
        if (screen.queryByTestId('service-load-error')) sawError = true;
        expect(calls).toBeGreaterThanOrEqual(4);
      },
      { timeout: 12_000, interval: 50 },
    );
    expect(sawError).toBe(false);
    expect(screen.getByTestId('service-facts')).toBeTruthy();
  }, 20_000);

  it('shows the not-found page with the spec’s links for any other tab path', async () => {
    server.use(...workspaceHandlers());
    renderApp(`${DETAIL}/vpn-nope`);
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    for (const link of ['dashboard', 'services', 'plans', 'home', 'sign-in']) {
      expect(screen.getByTestId(`not-found-${link}`)).toBeTruthy();
    }
  });

  it('shows a lifecycle refusal as the spec’s failure with the server’s words', async () => {
    server.use(...workspaceHandlers());
    server.use(
      http.post(servicePath('/restart'), () =>
        apiError(
          409,
          'service_expired',
          'This service has expired or is quarantined. Please extend your service to regain access.',
        ),
      ),
    );
    renderApp(DETAIL);
    // Running: start is pointless, stop and restart are offered.
    expect((await screen.findByTestId<HTMLButtonElement>('service-start')).disabled).toBe(true);
    await userEvent.click(screen.getByTestId('service-restart'));
    await userEvent.click(await screen.findByTestId('service-restart-dialog-confirm'));
    expect((await screen.findByTestId('service-control-error')).textContent).toBe(
      'Failed to restart service: This service has expired or is quarantined. Please extend your service to regain access.',
    );
  });

  it('asks an expired service’s owner to extend it, with the way to do it', async () => {
    server.use(
      ...workspaceHandlers({
        service: makeOverviewItem({
          status: 'expired',
          display_state: 'locked',
          days_left: 0,
          terminates_at: '2027-02-05T09:00:00.000Z',
        }),
      }),
    );
    renderApp(DETAIL);
    const notice = await screen.findByTestId(`service-lapsed-${SERVICE_ID}`);
    expect(notice.textContent).toContain(
      'This service has expired or is quarantined. Please extend your service to regain access.',
    );
    expect(notice.textContent).toContain('Feb 5, 2027');
    expect(screen.getByTestId(`service-extend-${SERVICE_ID}`).getAttribute('href')).toBe(
      `/dashboard/payments/extend/${SERVICE_ID}/payment`,
    );
  });

  it('speaks Lithuanian to a Lithuanian account', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })), ...workspaceHandlers());
    renderApp(DETAIL);
    expect(await screen.findByText('Paleidimas ir sustabdymas')).toBeTruthy();
    expect(screen.getByTestId('service-tab-users').textContent).toBe('Naudotojai ir grupės');
    expect(screen.getByTestId('service-fact-status').textContent).toBe('Veikia');
  });
});
