import { NODE_LOG_CODES, type NodeLogCode, type ServiceLogLine } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeEntry } from '../../test/activity-fixtures.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { servicePath, workspaceHandlers } from '../../test/workspace-fixtures.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import { formatDateTime } from './relative-time.ts';
import { loadServicePages } from '../../test/service-pages.ts';

const TAB = `/dashboard/services/${SERVICE_ID}/activity`;
const REPLICA_TAKEN_AT = '2026-01-05T09:59:41.000Z';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString();

/** One line of each code the node's lines can have, with the params the API stores. */
const NODE_LINES: Record<NodeLogCode, Pick<ServiceLogLine, 'level' | 'params' | 'message'>> = {
  generation_applied: {
    level: 'info',
    params: { generation: 3, failures: 2, not_live: ['samba'] },
    message: 'applied generation 3',
  },
  recovered: {
    level: 'success',
    params: { generation: 4, failures: 0 },
    message: 'recovered: applied generation 4',
  },
  apply_failed: {
    level: 'error',
    params: { detail: 'samba: smb.conf did not validate', generation: 5, observed_generation: 4 },
    message: 'samba: smb.conf did not validate',
  },
  driver_failed: {
    level: 'error',
    params: { driver: 'storage', detail: 'storage: e2fsck exited 8', generation: 5, observed_generation: 4 },
    message: 'storage: e2fsck exited 8',
  },
  driver_incomplete: {
    level: 'error',
    params: { driver: 'storage', detail: 'storage: resize2fs failed', generation: 5, observed_generation: 4 },
    message: 'storage: resize2fs failed',
  },
  resize_refused: {
    level: 'error',
    params: { driver: 'storage', bytes: 50 * 1024 ** 3, detail: 'storage: needs 80 GB' },
    message: 'storage: needs 80 GB',
  },
  workspace_invalid: {
    level: 'error',
    params: { detail: 'invalid service id' },
    message: 'invalid service id',
  },
  data_deleted: { level: 'warning', params: { address: '10.9.0.1' }, message: 'data deleted from the node' },
  failed_over: {
    level: 'warning',
    params: { from: 'node-a', to: 'node-b', replica_taken_at: REPLICA_TAKEN_AT },
    message: 'failed over from node-a to node-b',
  },
  moved: { level: 'info', params: { from: 'node-a', to: 'node-b' }, message: 'moved from node-a to node-b' },
  standby_placed: { level: 'info', params: { node: 'node-b' }, message: 'standby placed on node-b' },
};

const EXPECTED: Record<'en' | 'lt', Record<NodeLogCode, string>> = {
  en: {
    generation_applied:
      'The storage node applied the settings (version 3). 2 users, groups or shares could not be applied. Checked but not running on this node: Samba file sharing',
    recovered: 'The storage node works again and applied the settings (version 4)',
    apply_failed: 'The storage node could not apply the settings; it keeps trying',
    driver_failed: 'The storage node could not set up the storage; it keeps trying',
    driver_incomplete: 'The storage node set up the storage only in part',
    resize_refused: 'The disk was not made smaller (50 GB): the data does not fit',
    workspace_invalid: 'The storage node could not find the service’s folder',
    data_deleted: 'The service’s data was deleted from the storage node',
    failed_over: `The storage node node-a failed: the service now runs from its second copy on node-b. Its data is as it was at ${formatDateTime(new Date(REPLICA_TAKEN_AT), 'en')}`,
    moved: 'The service moved from the storage node node-a to node-b',
    standby_placed: 'The storage node node-b will keep a second copy of the data',
  },
  lt: {
    generation_applied:
      'Saugyklos mazgas pritaikė nustatymus (versija 3). 2 naudotojų, grupių ar bendrinamų aplankų nepavyko pritaikyti. Patikrinta, bet šiame mazge neveikia: Samba failų bendrinimas',
    recovered: 'Saugyklos mazgas vėl veikia ir pritaikė nustatymus (versija 4)',
    apply_failed: 'Saugyklos mazgui nepavyko pritaikyti nustatymų; jis bando toliau',
    driver_failed: 'Saugyklos mazgui nepavyko paruošti: saugykla; jis bando toliau',
    driver_incomplete: 'Saugyklos mazgas tik iš dalies paruošė: saugykla',
    resize_refused: 'Diskas nesumažintas (50 GB): duomenys netelpa',
    workspace_invalid: 'Saugyklos mazgas nerado paslaugos aplanko',
    data_deleted: 'Paslaugos duomenys ištrinti iš saugyklos mazgo',
    failed_over: `Saugyklos mazgas node-a sutriko: paslauga dabar veikia iš antrosios kopijos mazge node-b. Duomenys tokie, kokie buvo ${formatDateTime(new Date(REPLICA_TAKEN_AT), 'lt')}`,
    moved: 'Paslauga perkelta iš saugyklos mazgo node-a į mazgą node-b',
    standby_placed: 'Saugyklos mazgas node-b laikys antrąją duomenų kopiją',
  },
};

const LOG: ServiceLogLine[] = [
  // A line written before codes: its text.
  {
    at: at(0),
    source: 'agent',
    level: 'info',
    code: null,
    params: { generation: 1 },
    message: 'applied generation 1',
  },
  ...NODE_LOG_CODES.map((code, index) => ({
    at: at(index + 1),
    source: 'agent' as const,
    code,
    ...NODE_LINES[code],
  })),
  {
    at: at(30),
    source: 'management',
    level: 'info',
    code: 'settings updated',
    params: { fields: ['expiry_reminders'], ip: '203.0.113.9' },
    message: 'settings updated',
  },
];

const lineOf = (code: string) => {
  const found = document.querySelector(`[data-testid="service-log"] [data-code="${code}"]`);
  if (!(found instanceof HTMLElement)) throw new Error(`no line ${code}`);
  return found;
};

loadServicePages(() => import('./ServiceActivityTab.tsx'));

beforeEach(() => {
  storeSession();
  server.use(
    userHandler(makeUser()),
    ...workspaceHandlers(),
    ...catalogueHandlers(),
    http.get(`/api/v1/activity/audit/${SERVICE_ID}`, () =>
      HttpResponse.json({
        items: [
          makeEntry({
            action: 'user activated',
            tone: 'info',
            service_id: SERVICE_ID,
            service_name: 'Team drive',
            details: { name: 'ona' },
          }),
        ],
        total: 1,
        skip: 0,
        limit: 50,
      }),
    ),
    http.get(servicePath('/logs'), () => HttpResponse.json({ lines: LOG })),
  );
});

async function openLog() {
  const user = userEvent.setup();
  renderApp(TAB);
  await user.click(await screen.findByTestId('service-activity-view-log'));
  return screen.findByTestId('service-log');
}

describe('service activity tab', () => {
  it('is a tab of the service page, showing the service’s changes as sentences', async () => {
    renderApp(TAB);
    const tab = await screen.findByTestId('service-tab-activity');
    expect(tab.getAttribute('href')).toBe(TAB);
    const changes = await screen.findByTestId('service-activity-changes');
    const entry = changes.querySelector('[data-action="user activated"]') as HTMLElement;
    expect(within(entry).getByText('User activated')).toBeTruthy();
    expect(within(entry).getByText('User ona')).toBeTruthy();
    // Every entry is of this service: no link to it on its own page.
    expect(within(changes).queryByRole('link')).toBeNull();
  });

  it('shows every code of the node’s log lines in English, the node’s own words apart', async () => {
    const log = await openLog();
    const lines = log.querySelectorAll('li');
    // Newest first.
    expect(lines[0]?.getAttribute('data-code')).toBe('settings updated');
    expect(lines[lines.length - 1]?.getAttribute('data-code')).toBe('');
    for (const code of NODE_LOG_CODES) {
      const line = lineOf(code);
      expect(line.querySelector('.badge')?.textContent, code).toContain(EXPECTED.en[code]);
      // The line is ours, not the English message stored beside the code.
      expect(line.querySelector('.badge')?.textContent, code).not.toContain(NODE_LINES[code].message);
    }
    // A failure keeps what the node said, behind a disclosure, not as the line itself.
    const failed = lineOf('driver_failed');
    expect(within(failed).getByText('What the node reported')).toBeTruthy();
    expect(failed.querySelector('code')?.textContent).toBe('storage: e2fsck exited 8');
    expect(lineOf('generation_applied').querySelector('details')).toBeNull();
    // A line written before codes reads as it was written.
    expect(lineOf('').textContent).toContain('applied generation 1');
    // A change made by the owner reads as on the activity page.
    const change = lineOf('settings updated');
    expect(within(change).getByText('Settings updated')).toBeTruthy();
    expect(within(change).getByText('Changed: expiry reminders')).toBeTruthy();
    expect(change.textContent).not.toContain('203.0.113.9');
  });

  it('shows every code in Lithuanian', async () => {
    await changeLanguage('lt');
    server.use(userHandler(makeUser({ language: 'lt' })));
    const log = await openLog();
    await waitFor(() => expect(screen.getByTestId('service-tab-activity').textContent).toBe('Veikla'));
    for (const code of NODE_LOG_CODES) {
      expect(lineOf(code).querySelector('.badge')?.textContent, code).toContain(EXPECTED.lt[code]);
    }
    expect(within(lineOf('driver_failed')).getByText('Ką pranešė mazgas')).toBeTruthy();
    expect(
      within(lineOf('settings updated')).getByText('Pakeista: priminimai apie galiojimo pabaigą'),
    ).toBeTruthy();
    expect(log.textContent).not.toMatch(/applied generation [2-9]|The storage node/);
  });

  it('says when the log cannot be loaded', async () => {
    server.use(
      http.get(servicePath('/logs'), () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp(TAB);
    await user.click(await screen.findByTestId('service-activity-view-log'));
    expect((await screen.findByTestId('service-log-error')).textContent).toContain(
      'Failed to load the service log',
    );
  });
});
