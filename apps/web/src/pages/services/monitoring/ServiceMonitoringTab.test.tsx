import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import {
  GB,
  makeActivity,
  makeAlert,
  makeEvent,
  makeMonitoringStatus,
  makeQuota,
  makeTask,
  MB,
  monitoringHandlers,
  servicePath,
} from './monitoring-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

// Monitoring has not shipped in this build (SHIPPED_FEATURES): this file ships it for itself, so
// the real routes and tab bar carry the tab.
vi.mock('@debesis/contract', async (importOriginal) =>
  (await import('../../../test/ship-features.ts')).withShipped(await importOriginal(), ['monitoring']),
);

const TAB = `/dashboard/services/${SERVICE_ID}/monitoring`;

loadServicePages(() => import('./ServiceMonitoringTab.tsx'));

beforeEach(() => {
  signIn({ handlers: workspaceHandlers() });
  // jsdom draws nothing (its getContext is "not implemented"): the chart keeps to its sentence.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null);
});

const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);
const activityAsked = (seen: URL[]) => seen.filter((url) => url.pathname.endsWith('/activity'));

describe('the monitoring tab', () => {
  it('is in the tab bar once shipped; its overview shows the node and daemons, the disk and the active alerts', async () => {
    const cleared = makeAlert({
      id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      kind: 'backup_failed',
      subject: 'nightly',
      cleared_at: new Date().toISOString(),
    });
    const seen: URL[] = [];
    server.use(
      ...monitoringHandlers({
        seen,
        alerts: [
          makeAlert(),
          makeAlert({
            id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            kind: 'daemon_restarting',
            level: 'critical',
            subject: 'backup-clients',
            params: { starts: 4 },
          }),
          cleared,
        ],
      }),
    );
    renderApp(TAB);
    expect((await screen.findByTestId('service-tab-monitoring')).textContent).toBe('Monitoring');
    expect(screen.getByTestId('monitoring-view-overview')).toBeTruthy();
    expect((await screen.findByTestId('monitoring-node')).textContent).toBe('node-1: online');
    expect(screen.getByTestId('monitoring-daemon-state-samba').textContent).toBe('Running');
    expect(screen.getByTestId('monitoring-daemon-state-backup-clients').dataset.state).toBe('down');
    // Daemons by name in words, never the node's ids (`samba`, `backup-clients`).
    expect(
      within(screen.getByTestId('monitoring-status'))
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Storage node', 'Samba file sharing', 'Device backups', 'Active alerts']);

    const meter = await screen.findByRole('meter', { name: 'Disk used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('12 GB of 50 GB (24%)');
    expect(meter.getAttribute('aria-valuenow')).toBe(String(12 * GB));
    expect(screen.getByTestId('monitoring-disk-facts').textContent).toContain('38 GB free, 1,234 files.');

    const alerts = await screen.findByTestId('monitoring-alerts');
    const items = within(alerts).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Warning');
    expect(items[0]?.textContent).toContain('Disk filling up · 83% used');
    expect(items[0]?.textContent).toContain('raised 2 hours ago');
    expect(items[1]?.textContent).toContain('Critical');
    expect(items[1]?.textContent).toContain(
      'Service program restarting repeatedly · Device backups · started 4 times',
    );
    expect(screen.queryByTestId(`monitoring-alert-${cleared.id}`)).toBeNull();

    const alertsAsked = seen.find((url) => url.pathname.endsWith('/alerts'));
    expect(alertsAsked?.searchParams.get('service_id')).toBe(SERVICE_ID);
    expect(alertsAsked?.searchParams.get('hours')).toBe('24');
  });

  it('shows the activity of the default 24 hours: the chart’s sentence, totals, top users and the newest events', async () => {
    const seen: URL[] = [];
    const activity = makeActivity(
      {
        users: [
          { user: 'alice', events: 30, bytes: 300 * MB },
          { user: 'bob', events: 6, bytes: 6 * MB },
        ],
        events: [
          makeEvent(),
          makeEvent({
            id: 'ftp:2:1',
            source: 'ftp',
            kind: 'file_renamed',
            user: 'bob',
            path: '/shares/docs/a.txt',
            target: '/shares/docs/b.txt',
            bytes: null,
            remote_address: '127.0.20.6',
          }),
        ],
      },
      24,
      (hour) => ({ smb: hour === 20 ? 30 : 0, ftp: hour === 3 ? 6 : 0 }),
    );
    server.use(...monitoringHandlers({ seen, activity }));
    renderApp(`${TAB}?view=activity`);
    expect(await screen.findByTestId('monitoring-view-activity')).toBeTruthy();
    const summary = await screen.findByTestId('monitoring-activity-chart-summary');
    expect(summary.textContent).toMatch(
      /^In the last 24 hours: 36 events, 36 MB moved\. The busiest was \d\d:\d\d( [AP]M)?, with 30\.$/,
    );
    expect(
      screen.getByRole('img', { name: 'Events in the last 24 hours, by where they came from' }),
    ).toBeTruthy();
    expect(screen.getByTestId('monitoring-total-events').textContent).toBe('36');
    expect(screen.getByTestId('monitoring-total-file_written').textContent).toBe('File written36');

    const users = screen.getByTestId('monitoring-top-users');
    expect(cells(within(users).getAllByRole('row')[1] as HTMLElement)).toEqual(['alice', '30', '300 MB']);

    const renamed = within(screen.getByTestId('monitoring-events')).getByTestId('monitoring-event-ftp:2:1');
    expect(cells(renamed).slice(1)).toEqual([
      'bob',
      'File renamed (FTP)',
      '/shares/docs/a.txt → /shares/docs/b.txt',
      '',
      '127.0.20.6',
    ]);
    expect(cells(screen.getByTestId('monitoring-event-smb:1:1')).slice(1, 5)).toEqual([
      'alice',
      'File written (Samba)',
      '/shares/docs/report.pdf',
      '2 MB',
    ]);
    expect(screen.queryByTestId('monitoring-events-more')).toBeNull();
    expect(screen.queryByTestId('monitoring-live')).toBeNull();
    expect(activityAsked(seen)[0]?.searchParams.get('hours')).toBe('24');
    expect(activityAsked(seen)[0]?.searchParams.has('minutes')).toBe(false);
  });

  it('loads older events with next_before, until there are none', async () => {
    const seen: URL[] = [];
    server.use(...monitoringHandlers({ seen }));
    server.use(
      http.get(servicePath('/activity'), ({ request }) => {
        const url = new URL(request.url);
        seen.push(url);
        return HttpResponse.json(
          url.searchParams.get('before') === '41'
            ? makeActivity({ events: [makeEvent({ id: 'smb:old', path: '/shares/old.txt' })] })
            : makeActivity({ events: [makeEvent()], next_before: '41' }),
        );
      }),
    );
    renderApp(`${TAB}?view=activity`);
    await screen.findByTestId('monitoring-event-smb:1:1');
    await userEvent.click(screen.getByTestId('monitoring-events-more'));
    expect(await screen.findByTestId('monitoring-event-smb:old')).toBeTruthy();
    expect(within(screen.getByTestId('monitoring-events')).getAllByRole('row')).toHaveLength(3);
    await waitFor(() => expect(screen.queryByTestId('monitoring-events-more')).toBeNull());
    expect(activityAsked(seen).map((url) => url.searchParams.get('before'))).toEqual([null, '41']);
  });

  it('asks for the window chosen and keeps it in the address', async () => {
    const seen: URL[] = [];
    server.use(...monitoringHandlers({ seen }));
    const { router } = renderApp(`${TAB}?view=activity`);
    expect((await screen.findByTestId('monitoring-activity-chart-summary')).textContent).toBe(
      'No activity in the last 24 hours.',
    );
    expect(screen.getByTestId('monitoring-window-24').getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByTestId('monitoring-window-72'));
    await waitFor(() =>
      expect(screen.getByTestId('monitoring-activity-chart-summary').textContent).toBe(
        'No activity in the last 72 hours.',
      ),
    );
    expect(router.state.location.search).toBe('?view=activity&window=72');
    await userEvent.click(screen.getByTestId('monitoring-window-168'));
    await waitFor(() =>
      expect(activityAsked(seen).map((url) => url.searchParams.get('hours'))).toEqual(['24', '72', '168']),
    );
    expect(screen.getByTestId('monitoring-window-168').textContent).toBe('1 week');
  });

  it('in real time asks for the last 100 minutes, says it updates live, and asks again every 10 s by itself', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const seen: URL[] = [];
    server.use(...monitoringHandlers({ seen }));
    renderApp(`${TAB}?view=activity&window=realtime`);
    expect((await screen.findByTestId('monitoring-live')).textContent).toBe(
      'Updates live: asked again every 10 seconds.',
    );
    await screen.findByTestId('monitoring-activity-chart-summary');
    expect(screen.getByTestId('monitoring-window-realtime').getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(activityAsked(seen)).toHaveLength(1));
    expect(activityAsked(seen)[0]?.searchParams.get('minutes')).toBe('100');
    expect(activityAsked(seen)[0]?.searchParams.has('hours')).toBe(false);

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(activityAsked(seen)).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(activityAsked(seen)).toHaveLength(3));
    expect(activityAsked(seen).every((url) => url.searchParams.get('minutes') === '100')).toBe(true);
  });

  it('a window of hours is not asked again by itself', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const seen: URL[] = [];
    server.use(...monitoringHandlers({ seen }));
    renderApp(`${TAB}?view=activity&window=48`);
    await screen.findByTestId('monitoring-activity-chart-summary');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(activityAsked(seen)).toHaveLength(1);
  });

  it('shows the storage: use over time, growth and when full, who owns what', async () => {
    const seen: URL[] = [];
    server.use(...monitoringHandlers({ seen }));
    renderApp(`${TAB}?view=storage`);
    expect(await screen.findByTestId('monitoring-view-storage')).toBeTruthy();
    expect((await screen.findByTestId('monitoring-storage-chart-summary')).textContent).toBe(
      'Over the last 24 hours the disk used went from 11 GB to 12 GB, of 50 GB.',
    );
    expect(screen.getByTestId('monitoring-growth').textContent).toBe('1 GB more a day');
    expect(screen.getByTestId('monitoring-full-in').textContent).toBe('In about 38 days at this pace');
    expect(cells(screen.getByTestId('monitoring-owner-alice'))).toEqual(['alice', '9 GB', '1,000', '75%']);
    expect(cells(screen.getByTestId('monitoring-owner-other'))[1]).toBe('1 GB');
    // Real time is activity's: the storage offers the four windows only.
    expect(screen.queryByTestId('monitoring-window-realtime')).toBeNull();
    await userEvent.click(screen.getByTestId('monitoring-window-168'));
    await waitFor(() =>
      expect(
        seen.filter((url) => url.pathname.endsWith('/quota')).map((url) => url.searchParams.get('hours')),
      ).toEqual(['24', '168']),
    );
  });

  it('says when the disk is not growing and the owners are not counted yet', async () => {
    server.use(
      ...monitoringHandlers({
        quota: makeQuota({ growth_bytes_per_day: null, full_in_days: null, users: null, trend: [] }),
      }),
    );
    renderApp(`${TAB}?view=storage`);
    expect((await screen.findByTestId('monitoring-growth')).textContent).toBe('Not enough measurements yet');
    expect(screen.getByTestId('monitoring-full-in').textContent).toBe('Not filling up');
    expect(screen.getByTestId('monitoring-owners-none')).toBeTruthy();
    expect(screen.getByTestId('monitoring-storage-chart-summary').textContent).toBe(
      'No disk measurements in the last 24 hours yet.',
    );
  });

  it('shows the health: daemons, last apply, the node, and the week’s tasks', async () => {
    const seen: URL[] = [];
    server.use(
      ...monitoringHandlers({
        seen,
        tasks: [
          makeTask(),
          makeTask({
            id: 'backup-run-1',
            kind: 'backup',
            state: 'failed',
            subject: 'nightly',
            duration_ms: 4_000,
            error_code: 'backup_failed',
            error: 'repository locked',
          }),
        ],
      }),
    );
    renderApp(`${TAB}?view=health`);
    const daemons = await screen.findByTestId('monitoring-daemons');
    expect(cells(within(daemons).getByTestId('monitoring-daemon-samba'))).toEqual([
      'Samba file sharing',
      'Running',
      '3 d 4 h',
      '1',
      '',
    ]);
    expect(cells(within(daemons).getByTestId('monitoring-daemon-backup-clients'))).toEqual([
      'Device backups',
      'Down',
      '',
      '4',
      'exited with code 1',
    ]);
    expect(screen.getByTestId('monitoring-health-node').textContent).toBe('node-1: online');
    expect(screen.getByTestId('monitoring-health-last-seen').textContent).toBe('just now');
    expect(screen.getByTestId('monitoring-last-apply').textContent).toBe('Change 4 applied · 1 hour ago');

    const tasks = await screen.findByTestId('monitoring-tasks');
    const failed = within(tasks).getByTestId('monitoring-task-backup-run-1');
    expect(cells(failed)[0]).toBe('Backup · nightly');
    expect(cells(failed)[1]).toBe('Failed');
    expect(cells(failed).slice(3)).toEqual(['4 s', 'repository locked']);
    expect(cells(within(tasks).getByTestId(`monitoring-task-apply:${SERVICE_ID}:4`))[3]).toBe('1 min 5 s');
    const asked = seen.find((url) => url.pathname.endsWith('/tasks'));
    expect(asked?.searchParams.get('service_id')).toBe(SERVICE_ID);
    expect(asked?.searchParams.get('hours')).toBe('168');
  });

  it('says a change is still being applied, or failed', async () => {
    server.use(
      ...monitoringHandlers({
        status: makeMonitoringStatus({
          node: { name: 'node-1', online: false, last_seen_at: null },
          last_apply: { generation: 6, observed_generation: 5, applied_at: null, ok: null, error_code: null },
        }),
      }),
    );
    renderApp(`${TAB}?view=health`);
    expect((await screen.findByTestId('monitoring-last-apply')).textContent).toBe(
      'Applying change 6 (the node has 5)',
    );
    expect(screen.getByTestId('monitoring-health-node').textContent).toBe('node-1: not heard from');
    expect(screen.getByTestId('monitoring-health-last-seen').textContent).toBe('Not yet');
  });

  it('shows the load-failure message when monitoring fails to load (500), and loads on retry', async () => {
    let fail = true;
    server.use(...monitoringHandlers());
    server.use(
      http.get(servicePath('/activity'), () =>
        fail
          ? HttpResponse.json({ detail: 'internal_error', message: 'boom' }, { status: 500 })
          : HttpResponse.json(makeActivity()),
      ),
    );
    renderApp(`${TAB}?view=activity`);
    const failure = await screen.findByTestId('monitoring-activity-error', {}, { timeout: 8000 });
    expect(failure.textContent).toContain('Failed to load monitoring data');
    expect(failure.getAttribute('role')).toBe('alert');
    fail = false;
    await userEvent.click(within(failure).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('monitoring-activity-chart-summary')).toBeTruthy();
  }, 15_000);

  it('shows the load-failure message in each view whose data failed', async () => {
    server.use(...monitoringHandlers());
    server.use(
      http.get(servicePath('/status'), () => HttpResponse.json({}, { status: 500 })),
      http.get(servicePath('/quota'), () => HttpResponse.json({}, { status: 500 })),
    );
    renderApp(TAB);
    expect(
      (await screen.findByTestId('monitoring-status-error', {}, { timeout: 8000 })).textContent,
    ).toContain('Failed to load monitoring data');
    expect((await screen.findByTestId('monitoring-disk-error', {}, { timeout: 8000 })).textContent).toContain(
      'Failed to load monitoring data',
    );
    // The alerts loaded: what did is still shown.
    expect(screen.getByTestId('monitoring-alerts')).toBeTruthy();
  }, 15_000);

  it('switches views through the choice, kept in the address', async () => {
    server.use(...monitoringHandlers());
    const { router } = renderApp(TAB);
    await screen.findByTestId('monitoring-view-overview');
    await userEvent.click(screen.getByTestId('monitoring-view-choice-health'));
    expect(await screen.findByTestId('monitoring-view-health')).toBeTruthy();
    expect(router.state.location.search).toBe('?view=health');
    expect(await screen.findByTestId('monitoring-daemons')).toBeTruthy();
    await userEvent.click(screen.getByTestId('monitoring-view-choice-overview'));
    expect(await screen.findByTestId('monitoring-view-overview')).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });

  it('speaks Lithuanian', async () => {
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      ...monitoringHandlers({ activity: makeActivity({ events: [makeEvent()] }) }),
    );
    renderApp(`${TAB}?view=activity`);
    await waitFor(() => expect(screen.getByTestId('service-tab-monitoring').textContent).toBe('Stebėsena'));
    expect((await screen.findByTestId('monitoring-activity-chart-summary')).textContent).toBe(
      'Veiklos per pastarąsias 24 valandas nebuvo.',
    );
    expect(screen.getByTestId('monitoring-window-168').textContent).toBe('1 sav.');
    expect(cells(screen.getByTestId('monitoring-event-smb:1:1'))[2]).toBe('Failas įrašytas (Samba)');
  });
});
