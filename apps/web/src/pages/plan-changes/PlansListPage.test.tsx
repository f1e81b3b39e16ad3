import { formatMoney } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { makeService, overviewHandler, SERVICE_ID } from '../../test/service-fixtures.ts';
import { makeOverviewItem } from '../../test/workspace-fixtures.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import { creditHandler } from './plan-change-fixtures.ts';

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()), ...catalogueHandlers());
});

describe('plans list (/dashboard/plans)', () => {
  it('shows each service’s plan with its facts and the ways to change or extend it', async () => {
    server.use(overviewHandler([makeOverviewItem({ display_state: 'active' })]), creditHandler(0));
    renderApp('/dashboard/plans');

    const row = await screen.findByTestId(`plans-service-${SERVICE_ID}`);
    expect(row.textContent).toContain('Team drive');
    const fact = (key: string) => screen.getByTestId(`plans-${key}-${SERVICE_ID}`).textContent;
    expect(fact('plan')).toBe('MINI');
    expect(fact('disk')).toBe('50 GB');
    expect(fact('bandwidth')).toBe('100 GB');
    expect(fact('users')).toBe('5');
    expect(await screen.findByText('12 months')).toBeTruthy();
    expect(fact('valid-until')).toBe('Jan 15, 2027');
    expect(fact('price')).toBe(`${formatMoney(1499, 'en-US')} / month excl. VAT`);
    expect(screen.getByTestId(`plans-status-${SERVICE_ID}`).textContent).toBe('Active');
    expect(screen.getByTestId(`plans-change-${SERVICE_ID}`).getAttribute('href')).toBe(
      `/dashboard/plans/change?service=${SERVICE_ID}`,
    );
    expect(screen.getByTestId(`plans-extend-${SERVICE_ID}`).getAttribute('href')).toBe(
      `/dashboard/payments/extend/${SERVICE_ID}/payment`,
    );
    // No credit, no credit card.
    expect(screen.queryByTestId('plans-credit')).toBeNull();
  });

  // Issue 36 point 2: not the lifecycle's "Active" for a workspace the services list calls stopped.
  it.each([
    ['stopped', 'Stopped', 'Sustabdyta'],
    ['restarting', 'Restarting…', 'Paleidžiama iš naujo…'],
  ] as const)('shows a %s workspace as the services list does, in both languages', async (state, en, lt) => {
    server.use(overviewHandler([makeOverviewItem({ display_state: state })]), creditHandler(0));
    const list = renderApp('/dashboard/services');
    const listed = await screen.findByTestId(`service-status-${SERVICE_ID}`);
    const fromList = { text: listed.textContent, className: listed.className };
    list.unmount();
    renderApp('/dashboard/plans');
    const badge = await screen.findByTestId(`plans-status-${SERVICE_ID}`);
    expect({ text: badge.textContent, className: badge.className }).toEqual(fromList);
    expect(badge.textContent).toBe(en);
    // As the owner's profile would set it: a choice here would be sent to the server.
    await changeLanguage('lt', 'server');
    await waitFor(() => expect(screen.getByTestId(`plans-status-${SERVICE_ID}`).textContent).toBe(lt));
  });

  it('shows the account credit when there is some, and what is set aside', async () => {
    server.use(overviewHandler([makeService()]), creditHandler(3500, 1000));
    renderApp('/dashboard/plans');
    expect((await screen.findByTestId('plans-credit-balance')).textContent).toBe(formatMoney(3500, 'en-US'));
    expect(screen.getByTestId('plans-credit-reserved').textContent).toContain(formatMoney(1000, 'en-US'));
  });

  it('offers a first purchase when there are no services', async () => {
    server.use(overviewHandler([]), creditHandler(0));
    renderApp('/dashboard/plans');
    expect((await screen.findByTestId('plans-empty')).textContent).toContain('You have no services yet');
    expect(screen.getByTestId('plans-choose').getAttribute('href')).toBe('/auth/plans');
  });

  it('is in the dashboard menu, and opens the plan change of a service', async () => {
    server.use(overviewHandler([makeService()]), creditHandler(0));
    const { router } = renderApp('/dashboard/services');
    await userEvent.click(await screen.findByRole('link', { name: 'Plans' }));
    await userEvent.click(await screen.findByTestId(`plans-change-${SERVICE_ID}`));
    expect(await screen.findByTestId('plan-change-current')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/plans/change');
  });
});
