import {
  ACTIVITY_ACTIONS,
  ACTIVITY_DEFAULT_LIMIT,
  FEATURE_ACTION_SENTENCES,
  type ActivityAction,
  type FeatureSentenceAction,
} from '@debesis/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { activityEn } from '../../i18n/activity.en.ts';
import { activityLt } from '../../i18n/activity.lt.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { activityHandler, makeEntry } from '../../test/activity-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { catalogueHandlers, PRODUCTS } from '../plans/plans-fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { ACTION_KEYS } from './activity-actions.ts';
import { formatDateTime } from './relative-time.ts';

const SERVICE = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const LOG = [
  makeEntry({
    action: 'payment completed',
    tone: 'success',
    ip: null,
    service_id: SERVICE,
    service_name: 'Office drive',
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

/**
 * The details each action is recorded with, as the API's modules write them (typed by the
 * contract's list, so a new action needs its sample here, unless its catalogue gives its sentence:
 * then the sentence names its details, and RECORDED fills them).
 */
const RECORDED_BY_HAND: Record<Exclude<ActivityAction, FeatureSentenceAction>, Record<string, unknown>> = {
  'user logged in': { method: 'oauth:google' },
  'account created': { account_type: 'business', method: 'oauth:github' },
  'email verified': {},
  'password changed': {},
  'settings updated': { fields: ['language'] },
  'account converted to business': { business_name: 'UAB Debesėlis' },
  'company details corrected': { business_name: 'UAB Debesėlis' },
  'OAuth identity linked': {
    provider: 'google',
    email: 'ona@example.lt',
    email_verified_by_provider: true,
    password_removed: true,
  },
  'session revoked: a used refresh token was presented again': { session_id: 'f4c1' },
  'billing info updated': { company: true },
  'order created': { order_id: 'o-1', kind: 'extension', product_id: 'mini', amount: 1210 },
  'order cancelled': { order_id: 'o-1', kind: 'extension', product_id: 'mini', amount: 1210 },
  'email change requested': { new_email: 'ona@example.lt' },
  'email changed': { new_email: 'ona@example.lt' },
  'session signed out': { session_id: 's-9' },
  'payment completed': { order_id: 'o-1', amount: 1210, provider: 'stripe' },
  'payment credited': { order_id: 'o-2', amount: 1814, credit: 4266, provider: 'sandbox' },
  'payment refused': {
    order_id: 'o-3',
    session_id: 's-1',
    event_id: 'ev-1',
    reason: 'amount_mismatch',
    provider: 'stripe',
  },
  'payment method saved': { brand: 'visa', last4: '4242', replaced: false },
  'payment method removed': { brand: 'mastercard', last4: '4444' },
  'renewal failed': {
    order_id: 'o-5',
    invoice_id: 'i-5',
    attempt: 1,
    reason: 'card_declined',
    next_attempt_at: '2026-03-04T10:00:00.000Z',
  },
  'payment refunded': {
    order_id: 'o-4',
    session_id: 's-2',
    amount: 1210,
    provider: 'stripe',
    refund: 're_1',
  },
  'plan change ordered': {
    plan_change_id: 'pc-1',
    direction: 'upgrade',
    from: 'starter',
    to: 'mini',
    disk_space: 50,
    users_count: 5,
    order_id: 'o-5',
  },
  'plan change waiting for room': {
    plan_change_id: 'pc-3',
    direction: 'upgrade',
    from: 'mini',
    to: 'optimized',
    disk_space: 500,
    users_count: 10,
    order_id: 'o-6',
  },
  'plan changed': {
    plan_change_id: 'pc-2',
    direction: 'downgrade',
    from: 'optimized',
    to: 'mini',
    disk_space: 2048,
    users_count: 5,
    credit_pending: 950,
  },
  'plan change credit granted': { plan_change_id: 'pc-2', disk_space: 50, credit: 950 },
  'plan change reverted': {
    plan_change_id: 'pc-3',
    disk_space: 50,
    restored_disk_space: 500,
    restored_plan: 'optimized',
    reason: 'needs 80 GB',
  },
  'service placed': { address: '10.9.0.1' },
  'service waiting for resources': {},
  'service created': { address: '10.9.0.1' },
  'service started': {},
  'service stopped': {},
  'service restarted': { generation: 4 },
  'service cancelled': {},
  'service expired': { valid_until: '2026-03-01T00:00:00.000Z' },
  'service quarantined': { terminates_at: '2026-04-01T00:00:00.000Z' },
  'service terminated': { by: 'lifecycle' },
  'service restored': { from: 'quarantined', valid_until: '2026-05-01T00:00:00.000Z' },
  'service suspended': { by: 'operator', suspended: true, reason: 'abuse report 42' },
  'service reactivated': { by: 'operator' },
  'service failed over': { from: 'node-a', to: 'node-b', replica_taken_at: '2026-01-10T09:52:10.000Z' },
  'service moved': { from: 'node-a', to: 'node-b' },
  'user created': { name: 'ona' },
  'user updated': { name: 'ona', fields: ['password', 'groups'] },
  'user password changed': { name: 'ona' },
  'user deleted': { name: 'ona' },
  'user activated': { name: 'ona' },
  'user deactivated': { name: 'ona' },
  'group created': { name: 'staff' },
  'group updated': { name: 'staff', fields: ['description', 'members'] },
  'group deleted': { name: 'staff' },
  'group member added': { group: 'staff', user: 'ona', primary: true },
  'group member removed': { group: 'staff', user: 'ona' },
  'group primary member unset': { group: 'staff', user: 'ona' },
  'users and groups synced': {},
  'Samba share created': { name: 'projects' },
  'Samba share updated': { name: 'projects', fields: ['guestOk', 'users'] },
  'Samba share deleted': { name: 'projects' },
  'Samba share user added': {
    share: 'projects',
    user: 'ona',
    read: true,
    write: true,
    execute: false,
    admin: false,
  },
  'Samba share user removed': { share: 'projects', user: 'ona' },
  'Samba share permissions updated': {
    share: 'projects',
    user: 'ona',
    read: true,
    write: false,
    execute: false,
    admin: false,
  },
  'Samba reloaded': {},
  'Samba settings updated': { fields: ['workgroup', 'minProtocol'] },
  'VPN user created': { name: 'ona-phone' },
  'VPN user updated': { name: 'ona-phone', fields: ['full_name', 'traffic_limit_bytes'] },
  'VPN user enabled': { name: 'ona-phone' },
  'VPN user disabled': { name: 'ona-phone' },
  'VPN user password changed': { name: 'ona-phone' },
  'VPN user revoked': { name: 'ona-phone' },
  'VPN user deleted': { name: 'ona-phone' },
  'VPN server restarted': {},
  'VPN reloaded': {},
  'NFS export created': { name: 'shares/projektai', client: '192.168.1.0/24', access: 'read_write' },
  'NFS export updated': { name: 'shares/projektai', fields: ['client', 'owner'] },
  'NFS export deleted': { name: 'shares/projektai' },
  'NFS client disconnected': { address: '192.168.1.20' },
  'NFS reloaded': {},
  'NFS synced': {},
  'FTP user enabled': { name: 'ona' },
  'FTP user disabled': { name: 'ona' },
  'FTP permissions updated': { name: 'ona', permissions: 'read_only' },
  'FTP settings updated': { fields: ['passive_port_min', 'tls_required'] },
  'FTP reloaded': {},
  'LDAP bind settings updated': { fields: ['bind_password'], anonymous_read: false },
  'LDAP users updated': { operation: 'suspend', names: ['ona'], count: 1 },
  'LDAP alias changed': { from: 'biuras', to: 'failai' },
  'Backup schedule created': { name: 'Projektai' },
  'Backup schedule updated': { name: 'Projektai', fields: ['keep_full', 'state'] },
  'Backup schedule deleted': { name: 'Projektai' },
  'Backup started': { name: 'Projektai' },
  'Backup failed': { name: 'Projektai', code: 'no_space' },
  'Backup restore started': { path: '/shares/projektai/a.txt', target: 'folder', backup: 'Projektai' },
  'Backup restore failed': { path: '/shares/projektai/a.txt', code: 'target_exists' },
  'Backup client added': { name: 'ona-laptop' },
  'Backup client disconnected': { name: 'ona-laptop' },
  'Backup client deleted': { name: 'ona-laptop' },
  'Snapshot taken': { name: '@GMT-2026.01.10-09.52.10' },
  'Share link created': { name: 'Projects', type: 'samba', expiry: '7d' },
  'Share link revoked': { name: 'Projects' },
  'Share link deleted': { name: 'Projects' },
  'Subuser created': { name: 'subuser-anna' },
  'Subuser password changed': { name: 'subuser-anna' },
  'Subuser enabled': { name: 'subuser-anna' },
  'Subuser disabled': { name: 'subuser-anna' },
  'Subuser deleted': { name: 'subuser-anna' },
  'Subuser 2FA enabled': { name: 'subuser-anna' },
  'Subuser 2FA disabled': { name: 'subuser-anna' },
  'Subuser backup codes renewed': { name: 'subuser-anna' },
  'Subuser sessions revoked': { name: 'subuser-anna' },
  'Subuser logged in': { name: 'subuser-anna' },
  'Linux user logged in': { name: 'ona' },
  'Linux user password changed': { name: 'ona' },
};

const RECORDED: Record<ActivityAction, Record<string, unknown>> = {
  ...RECORDED_BY_HAND,
  ...(Object.fromEntries(
    Object.entries(FEATURE_ACTION_SENTENCES).map(([action, sentence]) => [
      action,
      Object.fromEntries(sentence.details.map((name) => [name, `sample-${name}`])),
    ]),
  ) as Record<FeatureSentenceAction, Record<string, unknown>>),
};

const RECORDED_LOG = ACTIVITY_ACTIONS.filter((action) => action !== 'user logged in').map((action) =>
  makeEntry({ action, details: RECORDED[action], created_at: minutesAgo(10) }),
);

const BACKUP_CLIENT_LOG = RECORDED_LOG.filter((entry) => entry.action.startsWith('Backup client'));

/** The recorded entries of these actions only, for a test that reads them on one page. */
const recorded = (...actions: ActivityAction[]) =>
  RECORDED_LOG.filter((entry) => actions.includes(entry.action as ActivityAction));

/**
 * Every recorded action's row, a page of the list at a time (the log is longer than a page): none
 * lists its details as "name: value" or shows an unfilled placeholder.
 */
async function expectEveryActionSaidAsASentence() {
  for (let start = 0; start < RECORDED_LOG.length; start += ACTIVITY_DEFAULT_LIMIT) {
    const entries = RECORDED_LOG.slice(start, start + ACTIVITY_DEFAULT_LIMIT);
    cleanup();
    server.use(activityHandler(entries));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    await waitFor(() => row(entries[0]!.action));
    for (const entry of entries) {
      const text = rowElement(entry.action).textContent ?? '';
      expect(rawDetails(text), entry.action).toEqual([]);
      expect(text, entry.action).not.toContain('{{');
    }
  }
}

/** Text a row would show if it listed a detail as "name: value" (in either language). */
function rawDetails(text: string): string[] {
  const names = new Set([
    ...Object.values(RECORDED).flatMap((details) => Object.keys(details)),
    ...Object.values(activityEn.details),
    ...Object.values(activityLt.details),
  ]);
  return [...names].filter((name) => text.includes(`${name}:`));
}

function rowElement(action: string): HTMLElement {
  const found = document.querySelector(`[data-action="${action}"]`);
  if (!(found instanceof HTMLElement)) throw new Error(`no row for ${action}`);
  return found;
}
const row = (action: string) => within(rowElement(action));

beforeEach(() => {
  storeSession();
  server.use(userHandler(makeUser()), ...catalogueHandlers());
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
    expect(paid.getByText('€1,813.80 paid by test card')).toBeTruthy();
    // The service by its name, not its id.
    expect(paid.getByRole('link', { name: 'Service: Office drive' }).getAttribute('href')).toBe(
      `/dashboard/services/${SERVICE}`,
    );
    const deleted = row('Samba share deleted');
    expect(deleted.getByText('Samba share deleted').closest('.badge')?.className).toContain('badge--warning');
    expect(deleted.getByText('203.0.113.7')).toBeTruthy();
    expect(deleted.getByText('5 minutes ago')).toBeTruthy();
    expect(deleted.getByText('Share old')).toBeTruthy();
    expect(row('service terminated').getByText('Service terminated').closest('.badge')?.className).toContain(
      'badge--danger',
    );
    expect(row('service terminated').getByText('3 hours ago')).toBeTruthy();
    const settings = row('settings updated');
    expect(settings.getByText('Settings updated').closest('.badge')?.className).toContain('badge--info');
    expect(settings.getByText('2 days ago')).toBeTruthy();
    expect(settings.getByText('Changed: theme and language')).toBeTruthy();
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
    expect(login.getByText('With a password')).toBeTruthy();
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
    expect(screen.getByText('User user10')).toBeTruthy();
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

  it('says what each recorded action did as a sentence, in English and Lithuanian, never "key: value"', async () => {
    server.use(
      activityHandler(
        recorded(
          'order created',
          'payment credited',
          'settings updated',
          'plan changed',
          'user deactivated',
          'Samba share user added',
        ),
      ),
    );
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    // The list waits for the catalogue's plan names: it never shows a plan's id ("mini") first.
    expect(row('order created').getByText('Extension: MINI, €12.10')).toBeTruthy();
    expect(
      row('payment credited').getByText('€18.14 paid; €42.66 added to your account credit'),
    ).toBeTruthy();
    expect(row('settings updated').getByText('Changed: language')).toBeTruthy();
    expect(row('plan changed').getByText(/OPTIMIZED → MINI: 2 TB disk, 5 users/)).toBeTruthy();
    expect(row('user deactivated').getByText('User deactivated')).toBeTruthy();
    expect(row('Samba share user added').getByText('ona on share projects may read and write')).toBeTruthy();
    expect(document.querySelector('.activity-details')).toBeNull();
    await expectEveryActionSaidAsASentence();
  });

  it('waits for the plan names of a slow catalogue rather than show a plan by its id', async () => {
    let answer: () => void = () => undefined;
    const catalogue = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      activityHandler(RECORDED_LOG),
      http.get('/api/v1/products/', async () => {
        await catalogue;
        return HttpResponse.json(PRODUCTS);
      }),
    );
    renderApp('/dashboard/activity');
    await screen.findByText(activityEn.page.loading, {}, { timeout: 5000 });
    await delay(300);
    expect(screen.queryByTestId('activity-list-management')).toBeNull();
    answer();
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('order created').getByText('Extension: MINI, €12.10')).toBeTruthy();
  });

  it('says it in Lithuanian too', async () => {
    await changeLanguage('lt');
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      activityHandler(recorded('order created', 'settings updated', 'payment credited', 'user deactivated')),
    );
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    await waitFor(() => expect(row('order created').getByText('Pratęsimas: MINI, 12,10 €')).toBeTruthy());
    expect(row('settings updated').getByText('Pakeista: kalba')).toBeTruthy();
    expect(
      row('payment credited').getByText('Sumokėta 18,14 €; 42,66 € pridėta prie paskyros kredito'),
    ).toBeTruthy();
    expect(row('user deactivated').getByText('Naudotojas išjungtas')).toBeTruthy();
    const page = document.querySelector('[data-testid="activity-list-management"] tbody')?.textContent ?? '';
    expect(page).not.toMatch(/Laukai|Rūšis|credit:|fields|extension/);
    await expectEveryActionSaidAsASentence();
  });

  it('names the backup client an entry is about', async () => {
    // The recorded log is longer than a page: these are listed on their own.
    server.use(activityHandler(BACKUP_CLIENT_LOG));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('Backup client added').getByText('Backup client added')).toBeTruthy();
    expect(row('Backup client disconnected').getByText('Backup client disconnected')).toBeTruthy();
    for (const entry of BACKUP_CLIENT_LOG) {
      expect(row(entry.action).getByText('Backup client ona-laptop')).toBeTruthy();
    }
  });

  it("says support suspended a service, with support's reason, and that it was reactivated", async () => {
    server.use(
      activityHandler(
        RECORDED_LOG.filter((entry) => ['service suspended', 'service reactivated'].includes(entry.action)),
      ),
    );
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('service suspended').getByText('Suspended by support: abuse report 42')).toBeTruthy();
    expect(row('service reactivated').getByText('Service reactivated')).toBeTruthy();
  });

  it('says a service switched to its second copy, with the nodes and how fresh its data is, and a move', async () => {
    const log = RECORDED_LOG.filter((entry) =>
      ['service failed over', 'service moved'].includes(entry.action),
    );
    server.use(activityHandler(log));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    const takenAt = formatDateTime(new Date('2026-01-10T09:52:10.000Z'), 'en');
    expect(row('service failed over').getByText('Service switched to its second copy')).toBeTruthy();
    expect(
      row('service failed over').getByText(
        `Node node-a failed: the service now runs on node node-b. Its data is as it was at ${takenAt}`,
      ),
    ).toBeTruthy();
    expect(row('service moved').getByText('Service moved to another storage node')).toBeTruthy();
    expect(row('service moved').getByText('From node node-a to node node-b')).toBeTruthy();
  });

  it('says a failover and a move in Lithuanian too', async () => {
    await changeLanguage('lt');
    const log = RECORDED_LOG.filter((entry) =>
      ['service failed over', 'service moved'].includes(entry.action),
    );
    server.use(userHandler(makeUser({ language: 'lt' })), activityHandler(log));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    const takenAt = formatDateTime(new Date('2026-01-10T09:52:10.000Z'), 'lt');
    await waitFor(() =>
      expect(row('service failed over').getByText('Paslauga perjungta į antrąją kopiją')).toBeTruthy(),
    );
    expect(
      row('service failed over').getByText(
        `Mazgas node-a sutriko: paslauga dabar veikia mazge node-b. Duomenys tokie, kokie buvo ${takenAt}`,
      ),
    ).toBeTruthy();
    expect(row('service moved').getByText('Paslauga perkelta į kitą saugyklos mazgą')).toBeTruthy();
    expect(row('service moved').getByText('Iš mazgo node-a į mazgą node-b')).toBeTruthy();
  });

  it('names a failover without the nodes by its action alone', async () => {
    server.use(activityHandler([makeEntry({ action: 'service failed over', details: {} })]));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    const entry = document.querySelector('[data-action="service failed over"]')?.textContent ?? '';
    expect(entry).toContain('Service switched to its second copy');
    expect(entry).not.toMatch(/Node|\{\{/);
  });

  it('names a snapshot taken on demand, in both languages', async () => {
    const log = RECORDED_LOG.filter((entry) => entry.action === 'Snapshot taken');
    server.use(activityHandler(log));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('Snapshot taken').getByText('Snapshot @GMT-2026.01.10-09.52.10')).toBeTruthy();
  });

  it('names a snapshot taken on demand in Lithuanian too', async () => {
    await changeLanguage('lt');
    const log = RECORDED_LOG.filter((entry) => entry.action === 'Snapshot taken');
    server.use(userHandler(makeUser({ language: 'lt' })), activityHandler(log));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('Snapshot taken').getByText('Padaryta momentinė kopija')).toBeTruthy();
    expect(row('Snapshot taken').getByText('Momentinė kopija @GMT-2026.01.10-09.52.10')).toBeTruthy();
  });

  it('names the backup client in Lithuanian too', async () => {
    await changeLanguage('lt');
    server.use(userHandler(makeUser({ language: 'lt' })), activityHandler(BACKUP_CLIENT_LOG));
    renderApp('/dashboard/activity');
    await screen.findByTestId('activity-list-management', {}, { timeout: 5000 });
    expect(row('Backup client deleted').getByText('Ištrintas atsarginių kopijų klientas')).toBeTruthy();
    expect(row('Backup client deleted').getByText('Atsarginių kopijų klientas ona-laptop')).toBeTruthy();
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
