import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BACKUP_SOURCES,
  backupHandlers,
  backupsPath,
  entry,
  listing,
  makeBackupRestore,
  makeBackupSchedule,
  makeBackupSession,
  makeBackupUsage,
  makeProviderSchedule,
  makeSnapshotsList,
  PROVIDER_SCHEDULE_ID,
  SCHEDULE_ID,
  SESSION_ID,
} from '../../../test/backup-fixtures.ts';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { catchDownloads } from '../../../test/downloads.ts';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, inTurn, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';
import { openDialog, pressWhenReady } from '../../../test/press.ts';

const BACKUPS_TAB = `/dashboard/services/${SERVICE_ID}/backups`;
const HOURLY_ID = '4fa0c8d5-6a7b-4c9d-8e3f-5a6b7c8d9e0f';
const MONTHLY_ID = '5ab1d9e6-7b8c-4d0e-9f4a-6b7c8d9e0f1a';

loadServicePages(() => import('./ServiceBackupsTab.tsx'));

beforeEach(() => signIn({ handlers: workspaceHandlers() }));

async function openCreate() {
  return openDialog('backup-schedules-add', 'backup-schedule-dialog');
}

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('the backups tab', () => {
  it('is in the tab bar once shipped, and says each schedule’s time in words, its folders, what it keeps and how it went', async () => {
    server.use(
      ...backupHandlers({
        schedules: [
          makeProviderSchedule(),
          makeBackupSchedule({
            state: 'paused',
            next_run_at: null,
            last_session: { id: SESSION_ID, status: 'failed', at: new Date().toISOString() },
          }),
          makeBackupSchedule({
            id: HOURLY_ID,
            name: 'Media hourly',
            frequency: 'hourly',
            minute: 15,
            time_zone: 'UTC',
            paths: [{ kind: 'export', name: 'shares/projects' }],
          }),
          makeBackupSchedule({ id: MONTHLY_ID, name: 'Archive', frequency: 'monthly', month_day: 1 }),
        ],
      }),
    );
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('service-tab-backups')).textContent).toBe('Backups');

    expect((await screen.findByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-when`)).textContent).toBe(
      'Daily at 02:00 (Europe/Vilnius)',
    );
    expect(text(`backup-schedule-${PROVIDER_SCHEDULE_ID}-retention`)).toBe(
      '1 full, 6 incremental, full every 7 days',
    );
    expect(text(`backup-schedule-${SCHEDULE_ID}-when`)).toBe('Weekly on Sunday at 02:00 (Europe/Vilnius)');
    expect(text(`backup-schedule-${MONTHLY_ID}-when`)).toBe('Monthly on the 1st at 02:00 (Europe/Vilnius)');
    expect(text(`backup-schedule-${HOURLY_ID}-when`)).toBe('Hourly at :15 (UTC)');
    expect(text(`backup-schedule-${SCHEDULE_ID}-retention`)).toBe(
      '4 full, 14 incremental, full every 7 days',
    );
    expect(text(`backup-schedule-${SCHEDULE_ID}-paths`)).toBe('Samba shares: projectsHome folders: alice');
    expect(text(`backup-schedule-${HOURLY_ID}-paths`)).toBe('NFS exports: shares/projects');
    expect(text(`backup-schedule-${PROVIDER_SCHEDULE_ID}-paths`)).toBe('All of the service’s storage');

    // State, next run in the schedule's own zone (00:00 UTC is 02:00 in Vilnius), last backup.
    expect(text(`backup-schedule-${SCHEDULE_ID}-state`)).toBe('Paused');
    expect(text(`backup-schedule-${SCHEDULE_ID}-next`)).toBe('Not while paused');
    expect(text(`backup-schedule-${MONTHLY_ID}-state`)).toBe('Active');
    expect(text(`backup-schedule-${MONTHLY_ID}-next`)).toBe('Jan 11, 2026, 2:00 AM');
    expect(text(`backup-schedule-${SCHEDULE_ID}-last`)).toBe('Failed');
    expect(screen.getByTestId(`backup-schedule-${SCHEDULE_ID}`).textContent).toContain('just now');
    expect(screen.getByTestId(`backup-schedule-${MONTHLY_ID}`).textContent).toContain('None yet');
    expect(screen.getByTestId(`backup-schedule-${SCHEDULE_ID}-toggle`).textContent).toContain('Resume');
    expect(screen.getByTestId(`backup-schedule-${MONTHLY_ID}-toggle`).textContent).toContain('Pause');

    // The repository: its size, what it stores, how many backups, the last good one.
    expect(text('backup-usage-repository')).toBe('3 GB');
    expect(text('backup-usage-stored')).toBe('2 GB');
    expect(text('backup-usage-snapshots')).toBe('9');
  });

  it('says the usage is not measured yet before the node has measured it', async () => {
    server.use(
      ...backupHandlers({
        schedules: [makeProviderSchedule({ last_session: null })],
        sessions: [],
        usage: makeBackupUsage({
          repository_bytes: null,
          stored_bytes: null,
          snapshots: null,
          measured_at: null,
          last_success_at: null,
        }),
      }),
    );
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('backup-usage-repository')).textContent).toBe('Not measured yet');
    expect(text('backup-usage-stored')).toBe('Not measured yet');
    expect(text('backup-usage-snapshots')).toBe('Not measured yet');
    expect(text('backup-usage-last-success')).toBe('None yet');
    expect(screen.queryByTestId('backup-usage-measured')).toBeNull();
    expect((await screen.findByTestId('backup-history-empty')).textContent).toBe('No backups yet.');
    expect((await screen.findByTestId('backup-restores-empty')).textContent).toBe('Nothing restored yet.');
  });

  it('lets the provider’s daily backup be run now but not edited, paused or deleted; Run now posts the trigger', async () => {
    const triggered: string[] = [];
    server.use(
      ...backupHandlers({ schedules: [makeProviderSchedule()] }),
      http.post(backupsPath('/schedules/:id/trigger'), ({ params }) => {
        triggered.push(String(params.id));
        return triggered.length === 1
          ? apiError(503, 'node_unreachable', 'The storage node did not answer in time.')
          : HttpResponse.json(makeBackupSession({ id: 'run-2', status: 'queued', trigger: 'manual' }), {
              status: 202,
            });
      }),
    );
    renderApp(BACKUPS_TAB);
    const row = await screen.findByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}`);
    expect(within(row).getByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-provider`).textContent).toBe(
      'Provider-managed',
    );
    expect(within(row).queryByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-edit`)).toBeNull();
    expect(within(row).queryByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-delete`)).toBeNull();
    expect(within(row).queryByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-toggle`)).toBeNull();
    const run = within(row).getByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-run`);
    expect(run.textContent).toBe('Run now Daily backup');

    await userEvent.click(run);
    expect((await screen.findByTestId('backup-schedules-action-error')).textContent).toBe(
      'Failed to run backup: The storage node did not answer in time.',
    );
    await userEvent.click(run);
    expect((await screen.findByTestId('backup-schedules-action-done')).textContent).toBe(
      'The backup of “Daily backup” is queued: it shows in the history below.',
    );
    expect(triggered).toEqual([PROVIDER_SCHEDULE_ID, PROVIDER_SCHEDULE_ID]);
  });

  it('lets the run-now notice follow the backup: queued, then complete', async () => {
    // After the trigger the list names the run queued once, then complete (it is polled meanwhile).
    let readsAfterRun: number | null = null;
    const lastSession = () => {
      if (readsAfterRun === null) return null;
      readsAfterRun += 1;
      const status = readsAfterRun === 1 ? 'queued' : 'completed';
      return { id: 'run-1', status, at: new Date().toISOString() } as const;
    };
    server.use(
      http.get(backupsPath('/schedules'), () =>
        HttpResponse.json({ schedules: [makeProviderSchedule({ last_session: lastSession() })] }),
      ),
      http.post(backupsPath('/schedules/:id/trigger'), () => {
        readsAfterRun = 0;
        return HttpResponse.json(makeBackupSession({ id: 'run-1', status: 'queued', trigger: 'manual' }), {
          status: 202,
        });
      }),
      ...backupHandlers({ schedules: [makeProviderSchedule()] }),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-schedule-${PROVIDER_SCHEDULE_ID}-run`));
    expect((await screen.findByTestId('backup-schedules-action-done')).textContent).toBe(
      'The backup of “Daily backup” is queued: it shows in the history below.',
    );
    await waitFor(
      () =>
        expect(screen.getByTestId('backup-schedules-action-done').textContent).toBe(
          'The backup of “Daily backup” is complete.',
        ),
      { timeout: 6000 },
    );
  }, 15_000);

  it('creates a schedule from the weekly preset with the folders ticked, checked against the contract first', async () => {
    const bodies: unknown[] = [];
    server.use(
      ...backupHandlers({ schedules: [makeProviderSchedule()] }),
      http.post(backupsPath('/schedules'), async ({ request }) => {
        bodies.push(await request.json());
        return bodies.length === 1
          ? apiError(422, 'validation_error', 'Some fields are not valid.', [
              {
                field: 'paths.1.name',
                code: 'backup_path_unknown',
                message: 'There is no “alice” in this service any more',
              },
            ])
          : HttpResponse.json(makeBackupSchedule(), { status: 201 });
      }),
    );
    renderApp(BACKUPS_TAB);
    const dialog = await openCreate();
    // The folders come from the lists, by kind: never a typed path.
    expect(within(dialog).getByTestId('backup-paths-share').textContent).toContain('projects');
    expect(within(dialog).getByTestId('backup-paths-home').textContent).toContain('bob');
    expect(within(dialog).getByTestId('backup-paths-export').textContent).toContain('shares/projects');
    expect(within(dialog).getByTestId<HTMLInputElement>('backup-schedule-preset-daily').checked).toBe(true);
    expect(within(dialog).getByTestId<HTMLSelectElement>('backup-schedule-time-zone').value).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );

    await userEvent.type(within(dialog).getByTestId('backup-schedule-name'), 'Projects weekly');
    await userEvent.click(within(dialog).getByTestId('backup-schedule-preset-weekly'));
    expect(within(dialog).getByTestId('backup-schedule-presets').textContent).toContain(
      'Weekly on Sunday at 02:00',
    );
    // A preset needs no time fields; none ticked is refused before anything is sent.
    expect(within(dialog).queryByTestId('backup-schedule-hour')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('backup-schedule-submit'));
    expect((await within(dialog).findByTestId('backup-paths-error')).textContent).toBe(
      'Choose at least one folder to back up',
    );
    expect(bodies).toEqual([]);

    await userEvent.click(within(dialog).getByTestId('backup-path-share-projects'));
    await userEvent.click(within(dialog).getByTestId('backup-path-home-alice'));
    await userEvent.click(within(dialog).getByTestId('backup-schedule-submit'));
    // The server's refusal of one folder lands on the list.
    await waitFor(() =>
      expect(within(dialog).getByTestId('backup-paths-error').textContent).toBe(
        'There is no “alice” in this service any more',
      ),
    );
    expect(within(dialog).getByTestId('backup-schedule-save-error').textContent).toContain(
      'Failed to create backup schedule',
    );
    await userEvent.click(within(dialog).getByTestId('backup-schedule-submit'));
    await waitFor(() => expect(screen.queryByTestId('backup-schedule-dialog')).toBeNull());
    const sent = {
      name: 'Projects weekly',
      frequency: 'weekly',
      hour: 2,
      minute: 0,
      weekday: 0,
      month_day: 1,
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      paths: [
        { kind: 'share', name: 'projects' },
        { kind: 'home', name: 'alice' },
      ],
      keep_full: 4,
      keep_incremental: 14,
      full_every_days: 7,
      state: 'active',
    };
    expect(bodies).toEqual([sent, sent]);
  }, 20_000);

  it('makes a custom time (monthly on the 15th at 23:30), and edits a schedule opened on its preset', async () => {
    const posted: unknown[] = [];
    const put: unknown[] = [];
    server.use(
      ...backupHandlers(),
      http.post(backupsPath('/schedules'), async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json(makeBackupSchedule(), { status: 201 });
      }),
      http.put(backupsPath('/schedules/:id'), async ({ request }) => {
        put.push(await request.json());
        return HttpResponse.json(makeBackupSchedule());
      }),
    );
    renderApp(BACKUPS_TAB);
    const dialog = await openCreate();
    await userEvent.type(within(dialog).getByTestId('backup-schedule-name'), 'Month end');
    await userEvent.click(within(dialog).getByTestId('backup-schedule-preset-custom'));
    await userEvent.selectOptions(within(dialog).getByTestId('backup-schedule-frequency'), 'monthly');
    const day = within(dialog).getByTestId('backup-schedule-month-day');
    await userEvent.clear(day);
    await userEvent.type(day, '15');
    const hour = within(dialog).getByTestId('backup-schedule-hour');
    await userEvent.clear(hour);
    await userEvent.type(hour, '23');
    const minute = within(dialog).getByTestId('backup-schedule-minute');
    await userEvent.clear(minute);
    await userEvent.type(minute, '30');
    await userEvent.selectOptions(within(dialog).getByTestId('backup-schedule-time-zone'), 'Europe/Vilnius');
    await userEvent.click(within(dialog).getByTestId('backup-path-export-shares/projects'));
    await userEvent.selectOptions(within(dialog).getByTestId('backup-schedule-state'), 'paused');
    await userEvent.click(within(dialog).getByTestId('backup-schedule-submit'));
    await waitFor(() => expect(screen.queryByTestId('backup-schedule-dialog')).toBeNull());
    expect(posted).toEqual([
      expect.objectContaining({
        name: 'Month end',
        frequency: 'monthly',
        month_day: 15,
        hour: 23,
        minute: 30,
        time_zone: 'Europe/Vilnius',
        paths: [{ kind: 'export', name: 'shares/projects' }],
        state: 'paused',
      }),
    ]);

    await userEvent.click(screen.getByTestId(`backup-schedule-${SCHEDULE_ID}-edit`));
    const edit = await screen.findByTestId('backup-schedule-dialog');
    expect(within(edit).getByTestId<HTMLInputElement>('backup-schedule-preset-weekly').checked).toBe(true);
    expect(within(edit).getByTestId<HTMLInputElement>('backup-path-share-projects').checked).toBe(true);
    expect(within(edit).getByTestId<HTMLInputElement>('backup-path-share-media').checked).toBe(false);
    // Weekly on another day: the custom fields open on the schedule's own time.
    await userEvent.click(within(edit).getByTestId('backup-schedule-preset-custom'));
    await userEvent.selectOptions(within(edit).getByTestId('backup-schedule-weekday'), '5');
    const keep = within(edit).getByTestId('backup-schedule-keep-full');
    await userEvent.clear(keep);
    await userEvent.click(within(edit).getByTestId('backup-schedule-submit'));
    expect((await within(edit).findByTestId('backup-schedule-keep-full-error')).textContent).toBe(
      'This field is required',
    );
    await userEvent.type(keep, '0');
    await userEvent.click(within(edit).getByTestId('backup-schedule-submit'));
    await waitFor(() =>
      expect(within(edit).getByTestId('backup-schedule-keep-full-error').textContent).toBe(
        'Keep at least one full backup',
      ),
    );
    await userEvent.clear(keep);
    await userEvent.type(keep, '2');
    await userEvent.click(within(edit).getByTestId('backup-schedule-submit'));
    await waitFor(() => expect(screen.queryByTestId('backup-schedule-dialog')).toBeNull());
    expect(put).toEqual([
      expect.objectContaining({ frequency: 'weekly', weekday: 5, hour: 2, minute: 0, keep_full: 2 }),
    ]);
  }, 25_000);

  it('pauses and resumes with the state alone, and deletes after saying the history stays', async () => {
    const put: unknown[] = [];
    const deleted: string[] = [];
    server.use(
      ...backupHandlers(),
      http.put(backupsPath('/schedules/:id'), async ({ request }) => {
        put.push(await request.json());
        return put.length === 1
          ? HttpResponse.json(makeBackupSchedule({ state: 'paused' }))
          : apiError(409, 'workspace_not_changeable', 'This service is not running');
      }),
      http.delete(backupsPath('/schedules/:id'), ({ params }) => {
        deleted.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-schedule-${SCHEDULE_ID}-toggle`));
    expect((await screen.findByTestId('backup-schedules-action-done')).textContent).toBe(
      '“Projects weekly” is paused: it does not run until you resume it.',
    );
    await userEvent.click(screen.getByTestId(`backup-schedule-${SCHEDULE_ID}-toggle`));
    expect((await screen.findByTestId('backup-schedules-action-error')).textContent).toBe(
      'Failed to pause backup schedule: This service is not running',
    );
    expect(put).toEqual([{ state: 'paused' }, { state: 'paused' }]);

    await userEvent.click(screen.getByTestId(`backup-schedule-${SCHEDULE_ID}-delete`));
    const confirm = await screen.findByTestId('backup-schedule-delete-dialog');
    expect(confirm.textContent).toContain('Delete the schedule “Projects weekly”?');
    expect(confirm.textContent).toContain('Its history and the backups it made stay');
    await userEvent.click(within(confirm).getByTestId('backup-schedule-delete-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('backup-schedule-delete-dialog')).toBeNull());
    expect(deleted).toEqual([SCHEDULE_ID]);
  });

  it('shows a running backup’s progress, asking again every 2 s only while something is queued or running', async () => {
    let asked = 0;
    const running = (percent: number) =>
      makeBackupSession({
        status: 'running',
        type: 'full',
        trigger: 'manual',
        finished_at: null,
        duration_seconds: null,
        size_added: null,
        files: null,
        files_new: null,
        browsable: false,
        progress: { percent, files_done: percent * 10, bytes_done: percent * 1024 * 1024 },
      });
    const answers = [running(40), running(80), makeBackupSession({ type: 'full', trigger: 'manual' })];
    const failed = makeBackupSession({
      id: '6bc2eaf7-8c9d-4e1f-8a5b-7c8d9e0f1a2b',
      status: 'failed',
      browsable: false,
      size_added: null,
      files: null,
      files_new: null,
      error_code: 'no_space',
      error: 'Fatal: unable to save snapshot: no space left on device',
    });
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/sessions'), () => {
        const answer = answers[Math.min(asked, answers.length - 1)];
        asked += 1;
        return HttpResponse.json({ sessions: [answer, failed] });
      }),
    );
    renderApp(BACKUPS_TAB);
    const progress = await screen.findByTestId(`backup-session-${SESSION_ID}-progress`);
    expect(progress.getAttribute('role')).toBe('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('40');
    expect(text(`backup-session-${SESSION_ID}-progress-text`)).toBe('40% · 400 files · 40 MB');
    expect(text(`backup-session-${SESSION_ID}-status`)).toBe('Running');
    expect(text(`backup-session-${SESSION_ID}-type`)).toBe('Full');

    // The failed one: its code's words, and the program's own behind a fold.
    const failure = screen.getByTestId(`backup-session-${failed.id}-failure`);
    expect(failure.textContent).toContain('There was no space left on the storage.');
    expect(within(failure).getByText('What the backup program said').tagName).toBe('SUMMARY');
    expect(text(`backup-session-${failed.id}-failure-words`)).toBe(
      'Fatal: unable to save snapshot: no space left on device',
    );

    await waitFor(
      () =>
        expect(
          screen.getByTestId(`backup-session-${SESSION_ID}-progress`).getAttribute('aria-valuenow'),
        ).toBe('80'),
      { timeout: 4000 },
    );
    await waitFor(() => expect(text(`backup-session-${SESSION_ID}-status`)).toBe('Completed'), {
      timeout: 4000,
    });
    expect(screen.queryByTestId(`backup-session-${SESSION_ID}-progress`)).toBeNull();
    expect(text(`backup-session-${SESSION_ID}-size`)).toBe('1.5 GB');
    expect(text(`backup-session-${SESSION_ID}-files`)).toBe('1,200 (12 new)');
    expect(screen.getByTestId(`backup-session-${SESSION_ID}`).textContent).toContain('1 min 5 s');
    // Nothing runs any more: the history is not asked again.
    const settled = asked;
    expect(settled).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 2600));
    expect(asked).toBe(settled);
  }, 20_000);

  it('filters the history by schedule, keeping the choice in the address', async () => {
    const asked: (string | null)[] = [];
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/sessions'), ({ request }) => {
        const scheduleId = new URL(request.url).searchParams.get('schedule_id');
        asked.push(scheduleId);
        return HttpResponse.json({
          sessions: scheduleId === PROVIDER_SCHEDULE_ID ? [] : [makeBackupSession()],
        });
      }),
    );
    const { router } = renderApp(BACKUPS_TAB);
    await screen.findByTestId(`backup-session-${SESSION_ID}`);
    const filter = screen.getByTestId<HTMLSelectElement>('backup-history-schedule');
    await waitFor(() => expect(filter.options).toHaveLength(3));
    await userEvent.selectOptions(filter, PROVIDER_SCHEDULE_ID);
    expect((await screen.findByTestId('backup-history-empty')).textContent).toBe('No backups yet.');
    expect(router.state.location.search).toBe(`?history-schedule=${PROVIDER_SCHEDULE_ID}`);
    expect(asked).toEqual([null, PROVIDER_SCHEDULE_ID]);
  });

  it('opens a backup at its root, goes into a folder, and restores a folder into a new folder beside it', async () => {
    const browsed: string[] = [];
    const restored: unknown[] = [];
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/sessions/:id/browse'), ({ request, params }) => {
        expect(params.id).toBe(SESSION_ID);
        const path = new URL(request.url).searchParams.get('path') ?? '';
        browsed.push(path);
        if (path === '/') return HttpResponse.json(listing('/', [entry('shares'), entry('home')]));
        return HttpResponse.json(
          listing(
            path,
            [
              entry('notes.txt', { type: 'file', size: 2048 }),
              entry('projects'),
              entry('latest', { type: 'symlink' }),
            ],
            true,
          ),
        );
      }),
      http.post(backupsPath('/sessions/:id/restore'), async ({ request }) => {
        restored.push(await request.json());
        return restored.length === 1
          ? apiError(503, 'node_unreachable', 'The storage node did not answer in time.')
          : HttpResponse.json(makeBackupRestore({ status: 'queued' }), { status: 202 });
      }),
      http.get(
        backupsPath('/restores'),
        inTurn([
          { restores: [] },
          { restores: [makeBackupRestore({ status: 'running', restored_to: null, files_restored: null })] },
          { restores: [makeBackupRestore()] },
        ]),
      ),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-session-${SESSION_ID}-browse`));
    const browser = await screen.findByTestId('backup-browser');
    expect(await within(browser).findByTestId('backup-entry-shares')).toBeTruthy();
    expect(document.activeElement?.id).toBe('backup-browser-title');
    expect(within(browser).getByTestId('backup-browser-crumbs').textContent).toBe('Backup');

    await userEvent.click(within(browser).getByTestId('backup-entry-shares-open'));
    expect(await within(browser).findByTestId('backup-entry-projects')).toBeTruthy();
    expect(browsed).toEqual(['/', '/shares']);
    // Folders first, then files; a file's size; the folder is too big to list whole.
    const rows = within(browser).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.dataset.testid)).toEqual([
      'backup-entry-projects',
      'backup-entry-latest',
      'backup-entry-notes.txt',
    ]);
    expect(within(browser).getByTestId('backup-entry-notes.txt').textContent).toContain('2 KB');
    expect(within(browser).getByTestId('backup-browser-truncated')).toBeTruthy();
    expect(within(browser).getByTestId('backup-browser-crumbs').textContent).toBe('Backupshares');

    await userEvent.click(within(browser).getByTestId('backup-entry-projects-restore'));
    const dialog = await screen.findByTestId('backup-restore-dialog');
    expect(within(dialog).getByTestId<HTMLInputElement>('backup-restore-target-original').checked).toBe(true);
    expect(dialog.textContent).toContain('Put back in its place (replaces what is there now)');
    await userEvent.click(within(dialog).getByTestId('backup-restore-target-folder'));
    await userEvent.click(within(dialog).getByTestId('backup-restore-submit'));
    expect((await within(dialog).findByTestId('backup-restore-error')).textContent).toBe(
      'Failed to restore: The storage node did not answer in time.',
    );
    await userEvent.click(within(dialog).getByTestId('backup-restore-submit'));
    await waitFor(() => expect(screen.queryByTestId('backup-restore-dialog')).toBeNull());
    expect(restored).toEqual([
      { path: '/shares/projects', target: 'folder' },
      { path: '/shares/projects', target: 'folder' },
    ]);
    expect(within(browser).getByTestId('backup-restore-asked').textContent).toContain('/shares/projects');

    // The restore shows below, and moves by itself until it is done.
    expect((await screen.findByTestId(`backup-restore-${makeBackupRestore().id}-status`)).textContent).toBe(
      'Running',
    );
    await waitFor(() => expect(text(`backup-restore-${makeBackupRestore().id}-status`)).toBe('Completed'), {
      timeout: 4000,
    });
    expect(text(`backup-restore-${makeBackupRestore().id}-where`)).toBe(
      'New folder: /shares/projects (restored 2026-01-10)',
    );
    expect(text(`backup-restore-${makeBackupRestore().id}-files`)).toBe('40');

    // Back to the root by its breadcrumb; the whole backup is not offered for a restore.
    await userEvent.click(within(browser).getByRole('button', { name: 'Backup' }));
    await within(browser).findByTestId('backup-entry-home');
    expect(within(browser).queryByTestId('backup-browser-restore-folder')).toBeNull();
  }, 20_000);

  it('downloads a file of a backup under its own name, and says why when it cannot', async () => {
    const saved = catchDownloads();
    const asked: string[] = [];
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/sessions/:id/browse'), ({ request }) => {
        const path = new URL(request.url).searchParams.get('path') ?? '';
        return HttpResponse.json(
          listing(path, [entry('ataskaita už lapkritį.txt', { type: 'file', size: 11 })]),
        );
      }),
      http.get(backupsPath('/sessions/:id/download'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('path') ?? '');
        return asked.length === 1
          ? apiError(503, 'node_unreachable', 'The storage node did not answer in time.')
          : new HttpResponse('hello world', {
              headers: {
                'content-type': 'application/octet-stream',
                'content-disposition': `attachment; filename="ataskaita uz lapkriti.txt"`,
              },
            });
      }),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-session-${SESSION_ID}-browse`));
    const browser = await screen.findByTestId('backup-browser');
    const download = await within(browser).findByTestId('backup-entry-ataskaita už lapkritį.txt-download');
    await userEvent.click(download);
    expect((await within(browser).findByTestId('backup-download-error')).textContent).toBe(
      'Failed to download the file: The storage node did not answer in time.',
    );
    await userEvent.click(download);
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['ataskaita už lapkritį.txt']));
    expect(await saved[0]?.blob?.text()).toBe('hello world');
    expect(asked).toEqual(['/ataskaita už lapkritį.txt', '/ataskaita už lapkritį.txt']);
    expect(within(browser).queryByTestId('backup-download-error')).toBeNull();
  });

  it('says each load failure in the spec’s words', async () => {
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/sessions'), () => apiError(500, 'server_error', 'Server error')),
      http.get(backupsPath('/usage'), () => apiError(500, 'server_error', 'Server error')),
      http.get(backupsPath('/restores'), () => apiError(500, 'server_error', 'Server error')),
      http.get(backupsPath('/schedules'), () => apiError(500, 'server_error', 'Server error')),
    );
    renderApp(BACKUPS_TAB);
    expect(
      (await screen.findByTestId('backup-history-load-error', {}, { timeout: 6000 })).textContent,
    ).toContain('Failed to load backup history');
    expect((await screen.findByTestId('backup-usage-load-error')).textContent).toContain(
      'Failed to load backup usage',
    );
    expect((await screen.findByTestId('backup-restores-load-error')).textContent).toContain(
      'Failed to load restores',
    );
    expect((await screen.findByTestId('backup-schedules-load-error')).textContent).toContain(
      'Failed to load backup schedules',
    );
  }, 15_000);

  it('speaks Lithuanian', async () => {
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      ...backupHandlers({
        schedules: [
          makeProviderSchedule(),
          makeBackupSchedule(),
          makeBackupSchedule({ id: MONTHLY_ID, name: 'Archive', frequency: 'monthly', month_day: 1 }),
        ],
        sources: BACKUP_SOURCES,
      }),
    );
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('service-tab-backups')).textContent).toBe('Atsarginės kopijos');
    expect((await screen.findByTestId(`backup-schedule-${SCHEDULE_ID}-when`)).textContent).toBe(
      'Kas savaitę, sekmadienį 02:00 (Europe/Vilnius)',
    );
    expect(text(`backup-schedule-${MONTHLY_ID}-when`)).toBe('Kas mėnesį, 1 d. 02:00 (Europe/Vilnius)');
    expect(text(`backup-schedule-${SCHEDULE_ID}-retention`)).toBe(
      'Pilnųjų: 4, prieauginių: 14; pilnoji kas 7 dienas',
    );
    expect(text(`backup-schedule-${PROVIDER_SCHEDULE_ID}-provider`)).toBe('Prižiūri teikėjas');
    expect(text(`backup-session-${SESSION_ID}-status`)).toBe('Baigta');
    expect(text(`backup-session-${SESSION_ID}-type`)).toBe('Prieauginė');
  });
});

describe('the backups tab’s snapshots', () => {
  const SNAPSHOTS = `/api/v1/snapshots/${SERVICE_ID}`;

  it('lists the snapshots, tells Windows users about Previous Versions, and takes one now without asking first', async () => {
    const taken = {
      name: '@GMT-2026.01.10-09.52.10',
      taken_at: '2026-01-10T09:52:10.000Z',
      kind: 'manual',
    } as const;
    const posted: string[] = [];
    server.use(
      ...backupHandlers({
        snapshots: makeSnapshotsList(),
      }),
      http.post(SNAPSHOTS, ({ request }) => {
        posted.push(request.headers.get('x-csrf-token') ?? '');
        return HttpResponse.json({ snapshot: taken }, { status: 202 });
      }),
    );
    renderApp(BACKUPS_TAB);
    const card = await screen.findByTestId('snapshots');
    expect(card.textContent).toContain('Previous Versions');
    expect(card.textContent).toContain('every 15 minutes');
    await screen.findByTestId('snapshots-table');
    expect(screen.getByTestId('snapshot-@GMT-2026.01.10-09.45.00').textContent).toContain('Scheduled');

    const button = screen.getByTestId<HTMLButtonElement>('snapshots-take');
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(button.textContent).toBe('Take a snapshot now');
    await userEvent.click(button);
    const notice = await screen.findByTestId('snapshots-taken');
    expect(notice.textContent).toContain('Snapshot taken');
    expect(posted).toHaveLength(1);
    // No confirmation dialog was in the way.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows why a snapshot was refused, in the reader’s words', async () => {
    server.use(
      ...backupHandlers(),
      http.post(SNAPSHOTS, () =>
        apiError(429, 'snapshot_too_soon', 'A snapshot of this service was taken less than a minute ago.'),
      ),
    );
    renderApp(BACKUPS_TAB);
    await pressWhenReady('snapshots-take');
    expect((await screen.findByTestId('snapshots-take-error')).textContent).toBe(
      'Failed to take a snapshot: A snapshot of this service was taken less than a minute ago.',
    );
  });

  it('browses a snapshot in the backup browser, folders first, and downloads a file; no restore there', async () => {
    const saved = catchDownloads();
    const NAME = '@GMT-2026.01.10-09.30.00';
    const browsed: string[] = [];
    const downloaded: string[] = [];
    server.use(
      ...backupHandlers({ snapshots: makeSnapshotsList() }),
      http.get(`${SNAPSHOTS}/:name/browse`, ({ request, params }) => {
        const path = new URL(request.url).searchParams.get('path') ?? '';
        browsed.push(`${String(params.name)} ${path}`);
        return HttpResponse.json(
          path === '/'
            ? listing(path, [entry('zeta.txt', { type: 'file', size: 2048 }), entry('shares')])
            : listing(path, [entry('ataskaita.txt', { type: 'file', size: 11 })]),
        );
      }),
      http.get(`${SNAPSHOTS}/:name/download`, ({ request, params }) => {
        downloaded.push(`${String(params.name)} ${new URL(request.url).searchParams.get('path') ?? ''}`);
        return new HttpResponse('hello world', { headers: { 'content-type': 'application/octet-stream' } });
      }),
    );
    renderApp(BACKUPS_TAB);
    const card = await screen.findByTestId('snapshots');
    expect(card.textContent).toContain('a file is restored by downloading it');
    await userEvent.click(await screen.findByTestId(`snapshot-${NAME}-browse`));
    const browser = await screen.findByTestId('backup-browser');
    expect(document.activeElement?.id).toBe('backup-browser-title');
    expect(within(browser).getByRole('heading').textContent).toContain('Snapshot of');
    await within(browser).findByTestId('backup-entry-shares');
    expect(
      within(browser)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.getAttribute('data-testid')),
    ).toEqual(['backup-entry-shares', 'backup-entry-zeta.txt']);
    expect(within(browser).getByTestId('backup-entry-zeta.txt').textContent).toContain('2 KB');
    expect(within(browser).queryByTestId('backup-entry-zeta.txt-restore')).toBeNull();

    await userEvent.click(within(browser).getByTestId('backup-entry-shares-open'));
    await within(browser).findByTestId('backup-entry-ataskaita.txt');
    expect(within(browser).getByTestId('backup-browser-crumbs').textContent).toBe('Snapshotshares');
    expect(within(browser).queryByTestId('backup-browser-restore-folder')).toBeNull();
    await userEvent.click(within(browser).getByTestId('backup-entry-ataskaita.txt-download'));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['ataskaita.txt']));
    expect(await saved[0]?.blob?.text()).toBe('hello world');
    expect(browsed).toEqual([`${NAME} /`, `${NAME} /shares`]);
    expect(downloaded).toEqual([`${NAME} /shares/ataskaita.txt`]);

    await userEvent.click(within(browser).getByTestId('backup-browser-close'));
    expect(screen.queryByTestId('backup-browser')).toBeNull();
  });

  it('says an older storage takes no snapshots, and offers no button', async () => {
    server.use(
      ...backupHandlers({
        snapshots: makeSnapshotsList({ supported: false, reason: 'ext4_storage', snapshots: [] }),
      }),
    );
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('snapshots-unsupported')).textContent).toContain(
      'made before snapshots existed',
    );
    expect(screen.queryByTestId('snapshots-take')).toBeNull();
  });
});
