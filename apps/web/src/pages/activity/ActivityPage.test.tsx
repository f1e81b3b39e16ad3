import { ACTIVITY_ACTIONS } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityEn } from '../../i18n/activity.en.ts';
import { activityLt } from '../../i18n/activity.lt.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { activityHandler, makeEntry } from '../../test/activity-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { ACTION_KEYS } from './activity-actions.ts';

const SERVICE = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const LOG = [
  makeEntry({
    action: 'payment completed',
    tone: 'success',
    ip: null,
    service_id: SERVICE,
    created_at: minutesAgo(0),
    details: { order_id: 'ord-1', amount: 181_380, provider: 'sandbox' },
  }),
  makeEntry({
    action: 'Samba share deleted',
    tone: 'warning',
    created_at: minutesAgo(5),
    details: { name: 'old' },
  }),
  makeEntry({ action: 'service terminated', tone: 'error', created_at: minutesAgo(3 * 60), details: {} }),
  makeEntry({
    action: 'settings updated',
    tone: 'info',
    created_at: minutesAgo(2 * 24 * 60),
    details: { fields: ['theme', 'language'] },
  }),
  makeEntry({ action: 'something new', tone: 'info', created_at: '2025-01-15T10:00:00Z' }),
  makeEntry({
    action: 'user logged in',
    tone: 'info',
    ip: '192.0.2.44',
    created_at: minutesAgo(1),
    details: { method: 'password' },
  }),
];

const row = (action: string) => {
  const found = document.querySelector(`[data-action="${action}"]`);
  if (!(found instanceof HTMLElement)) throw new Error(`no row for ${action}`);
  return within(found);
};

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()));
});

describe('activity page', () => {
  it('shows the management history: action in words coloured by tone, IP, relative date and details', async () => {
    const seen: URLSearchParams[] = [];
    server.use(activityHandler(LOG, seen));
    renderApp('/dashboard/activity');

    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(document.title).toContain('Activity');
    const paid = row('payment completed');
    const action = paid.getByText('Payment completed');
    expect(action.closest('.badge')?.className).toContain('badge--success');
    expect(paid.getByText('Unknown')).toBeTruthy();
    expect(paid.getByText('just now')).toBeTruthy();
    expect(paid.getByText('€1,813.80')).toBeTruthy();
    expect(paid.getByText('ord-1')).toBeTruthy();
    expect(paid.getByRole('link', { name: 'Service 7d1f0a52' }).getAttribute('href')).toBe(
      `/dashboard/services/${SERVICE}`,
    );
    const deleted = row('Samba share deleted');
    expect(deleted.getByText('Samba share deleted').closest('.badge')?.className).toContain('badge--warning');
    expect(deleted.getByText('203.0.113.7')).toBeTruthy();
    expect(deleted.getByText('5 minutes ago')).toBeTruthy();
    expect(deleted.getByText('old')).toBeTruthy();
    expect(row('service terminated').getByText('Service terminated').closest('.badge')?.className).toContain(
      'badge--danger',
    );
    expect(row('service terminated').getByText('3 hours ago')).toBeTruthy();
    const settings = row('settings updated');
    expect(settings.getByText('Settings updated').closest('.badge')?.className).toContain('badge--info');
    expect(settings.getByText('2 days ago')).toBeTruthy();
    expect(settings.getByText('theme, language')).toBeTruthy();
    // An action this version does not know is shown as recorded; an old one by its date.
    const unknown = row('something new');
    expect(unknown.getByText('something new')).toBeTruthy();
    expect(unknown.getByText(/Jan 15, 2025/)).toBeTruthy();
    // No sign-ins here; the request asked for the management kind, with no blank filters.
    expect(document.querySelector('[data-action="user logged in"]')).toBeNull();
    const query = seen.at(-1);
    expect(Object.fromEntries(query ?? [])).toEqual({ kind: 'management', skip: '0', limit: '50' });
    expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 1 (5 total)');
  });

  it('shows the login history with the address of each sign-in', async () => {
    const seen: URLSearchParams[] = [];
    server.use(activityHandler(LOG, seen));
    const user = userEvent.setup();
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });

    await user.click(screen.getByTestId('activity-view-login'));
    await screen.findByTestId('activity-list-login');
    expect(screen.getByTestId('activity-view-login').getAttribute('aria-pressed')).toBe('true');
    const login = row('user logged in');
    expect(login.getByText('Signed in')).toBeTruthy();
    expect(login.getByText('192.0.2.44')).toBeTruthy();
    expect(login.getByText('1 minute ago')).toBeTruthy();
    expect(login.getByText('password')).toBeTruthy();
    expect(seen.at(-1)?.get('kind')).toBe('login');
    expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 1 (1 total)');
  });

  it('pages through the log with the chosen page size', async () => {
    const many = Array.from({ length: 23 }, (_, index) =>
      makeEntry({
        action: 'user created',
        details: { name: `user${index}` },
        created_at: minutesAgo(index + 1),
      }),
    );
    const seen: URLSearchParams[] = [];
    server.use(activityHandler(many, seen));
    const user = userEvent.setup();
    renderApp('/dashboard/activity');

    expect((await screen.findByTestId('activity-page', {}, { timeout: 5000 })).textContent).toBe(
      'Page 1 of 1 (23 total)',
    );
    expect(screen.getByTestId('activity-previous')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('activity-next')).toHaveProperty('disabled', true);
    await user.selectOptions(screen.getByLabelText('Per page'), '10');
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 3 (23 total)'),
    );
    expect(screen.getAllByText('User created')).toHaveLength(10);
    await user.click(screen.getByTestId('activity-next'));
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 2 of 3 (23 total)'),
    );
    expect(seen.at(-1)?.get('skip')).toBe('10');
    expect(seen.at(-1)?.get('limit')).toBe('10');
    expect(screen.getByText('user10')).toBeTruthy();
    await user.click(screen.getByTestId('activity-next'));
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 3 of 3 (23 total)'),
    );
    expect(screen.getAllByText('User created')).toHaveLength(3);
    expect(screen.getByTestId('activity-next')).toHaveProperty('disabled', true);
    await user.click(screen.getByTestId('activity-previous'));
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 2 of 3 (23 total)'),
    );
  });

  it('filters by type and dates, sending only the filters that have a value', async () => {
    const seen: URLSearchParams[] = [];
    server.use(activityHandler(LOG, seen));
    const user = userEvent.setup();
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });

    await user.selectOptions(screen.getByLabelText('Type'), 'warning');
    await user.click(screen.getByTestId('activity-filters-apply'));
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 1 (1 total)'),
    );
    expect(Object.fromEntries(seen.at(-1) ?? [])).toEqual({
      kind: 'management',
      tone: 'warning',
      skip: '0',
      limit: '50',
    });

    await user.type(screen.getByLabelText('From'), '2026-01-01');
    await user.click(screen.getByTestId('activity-filters-apply'));
    await waitFor(() => expect(seen.at(-1)?.get('start_date')).toBe('2026-01-01'));
    expect(seen.at(-1)?.has('end_date')).toBe(false);

    // An end before the start is refused in the form.
    await user.type(screen.getByLabelText('To'), '2025-12-01');
    const requests = seen.length;
    await user.click(screen.getByTestId('activity-filters-apply'));
    expect(await screen.findByText('The end date must not be before the start date.')).toBeTruthy();
    expect(seen).toHaveLength(requests);

    await user.click(screen.getByTestId('activity-filters-clear'));
    await waitFor(() =>
      expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 1 (5 total)'),
    );
    expect(screen.getByLabelText('Type')).toHaveProperty('value', '');
  });

  it('says when nothing matches', async () => {
    server.use(activityHandler([]));
    renderApp('/dashboard/activity');
    expect((await screen.findByTestId('activity-empty', {}, { timeout: 5000 })).textContent).toBe(
      'Nothing has happened here yet.',
    );
    expect(screen.getByTestId('activity-page').textContent).toBe('Page 1 of 1 (0 total)');
  });

  it('shows the activity-log load failure and tries again', async () => {
    let fail = true;
    server.use(
      http.get('/api/v1/activity/filtered', () =>
        fail
          ? HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 })
          : HttpResponse.json({ items: [makeEntry()], total: 1, skip: 0, limit: 50 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/activity');
    const alert = await screen.findByTestId('activity-error', {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Failed to load the activity log');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
  });

  it('speaks Lithuanian', async () => {
    await changeLanguage('lt');
    server.use(userHandler(makeUser({ language: 'lt' })), activityHandler(LOG));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Veikla');
    expect(row('payment completed').getByText('Mokėjimas atliktas')).toBeTruthy();
    expect(row('payment completed').getByText('ką tik')).toBeTruthy();
    expect(row('Samba share deleted').getByText('prieš 5 minutes')).toBeTruthy();
    expect(screen.getByTestId('activity-view-login').textContent).toBe('Prisijungimų istorija');
  });

  it('has a text for every action the API records, in both languages', () => {
    for (const action of ACTIVITY_ACTIONS) {
      const key = ACTION_KEYS[action];
      expect(activityEn.actions[key], action).toBeTruthy();
      expect(activityLt.actions[key], action).toBeTruthy();
    }
    expect(new Set(Object.values(ACTION_KEYS)).size).toBe(Object.keys(activityEn.actions).length);
  });
});
