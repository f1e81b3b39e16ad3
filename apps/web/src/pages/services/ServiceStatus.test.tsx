// Issue 13, Major 1: the status tells the truth. The services list, the service page's header and
// its overview show one display state, the API's; a stopped, offline, degraded or waiting
// workspace says so in plain words with what to do; start, stop and restart are offered as the
// API's `actions` say; stop and restart ask first, naming what disconnects; "Stop requested…"
// goes once the stop is done.
import type { SambaStatus, ServiceOverviewItem } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import {
  makeOverviewItem,
  makeSambaStatus,
  makeStatus,
  servicePath,
  workspaceHandlers,
} from '../../test/workspace-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';
import { loadServicePages } from '../../test/service-pages.ts';

const DETAIL = `/dashboard/services/${SERVICE_ID}`;
const SLOW = 20_000;

loadServicePages(
  () => import('./samba/ServiceSambaTab.tsx'),
  () => import('../ServicesPage.tsx'),
  () => import('./overview/ServiceOverviewTab.tsx'),
);

beforeEach(() => signIn());

const STOPPED = makeOverviewItem({
  run_state: 'stopped',
  display_state: 'stopped',
  uptime: null,
  actions: ['start', 'extend', 'cancel', 'terminate'],
});
const OFFLINE = makeOverviewItem({ display_state: 'offline', display_reason: 'not_serving', uptime: null });
const SILENT = makeOverviewItem({ display_state: 'degraded', display_reason: 'node_silent', uptime: null });
const DEGRADED = makeOverviewItem({ display_state: 'degraded', display_reason: 'change_not_applied' });
const WAITING = makeOverviewItem({
  status: 'resourcePending',
  display_state: 'waitingForResources',
  ip_address: null,
  uptime: null,
  disk_usage: null,
  file_usage: null,
  apply_status: 'applying',
  actions: ['extend', 'cancel', 'terminate'],
});

/** The badge text of the list, of the page's header and of its overview. */
async function shownEverywhere(service: ServiceOverviewItem): Promise<string[]> {
  server.use(...workspaceHandlers({ service }));
  const list = renderApp('/dashboard/services');
  const inList = (await screen.findByTestId(`service-status-${SERVICE_ID}`)).textContent;
  list.unmount();
  renderApp(DETAIL);
  const header = (await screen.findByTestId('service-status')).textContent;
  const overview = within(await screen.findByTestId('service-facts')).getByTestId(
    'overview-status-badge',
  ).textContent;
  return [inList ?? '', header ?? '', overview ?? ''];
}

describe('one display state in the list, the header and the overview', () => {
  it.each([
    ['Stopped', STOPPED],
    ['Offline', OFFLINE],
    ['Degraded', DEGRADED],
    ['Waiting for resources', WAITING],
    ['Running', makeOverviewItem()],
    [
      'Restarting…',
      makeOverviewItem({ display_state: 'restarting', uptime: null, apply_status: 'applying' }),
    ],
  ])(
    'shows %s alike everywhere',
    async (label, service) => {
      expect(await shownEverywhere(service)).toEqual([label, label, label]);
    },
    SLOW,
  );
});

// Issue: "Active" with "Uptime: Not running" on the overview and "Serving: Yes" in the Samba tab
// at one moment. Each tab's serving line and the uptime follow the workspace's one state.
describe('every tab and the uptime follow the workspace state', () => {
  /** The Samba tab's serving line while its node last said smbd serves. */
  async function sambaLine(service: ServiceOverviewItem, samba = makeSambaStatus()) {
    server.use(...workspaceHandlers({ service, samba }));
    renderApp(`${DETAIL}/samba`);
    return screen.findByTestId('samba-live');
  }

  it.each([
    [STOPPED, 'workspaceDown', 'No: the workspace is not running (Stopped)', undefined],
    [
      makeOverviewItem({ display_state: 'restarting', uptime: null, apply_status: 'applying' }),
      'restarting',
      'Not right now: the workspace is restarting',
      undefined,
    ],
    // No share: smbd does not run, on purpose (the node says "not needed"); no alarm, no "No".
    [
      makeOverviewItem({ shares: 0 }),
      'notNeeded',
      'Not needed: no shares yet — Samba starts with the first share',
      makeSambaStatus({ shares: 0, reason: 'not needed: the workspace has no shares' }),
    ],
    // The first share was just added: the node still says "not needed" until it starts smbd.
    [
      makeOverviewItem({ shares: 1 }),
      'waiting',
      'Waiting for the storage node’s report',
      makeSambaStatus({ shares: 1, reason: 'not needed: the workspace has no shares' }),
    ],
  ])(
    'the Samba tab says what the workspace does, not its driver’s last "Yes" (%#)',
    async (service, kind, text, samba: SambaStatus | undefined) => {
      const line = await sambaLine(service, samba);
      expect(line.dataset.state).toBe(kind);
      expect(line.textContent).toBe(text);
    },
    SLOW,
  );

  it(
    'an Active workspace’s uptime is not confirmed yet, not "Not running"',
    async () => {
      server.use(
        ...workspaceHandlers({ service: makeOverviewItem({ display_state: 'active', uptime: null }) }),
      );
      renderApp(DETAIL);
      expect((await screen.findByTestId('service-fact-uptime')).textContent).toBe(
        'Not confirmed yet by its storage node',
      );
      expect(screen.getByTestId('service-status').textContent).toBe('Active');
    },
    SLOW,
  );
});

describe('plain words and what to do', () => {
  it('a stopped workspace is Stopped, says nothing is served, and offers only Start', async () => {
    server.use(...workspaceHandlers({ service: STOPPED }));
    renderApp(DETAIL);
    expect((await screen.findByTestId(`service-stopped-${SERVICE_ID}`)).textContent).toContain(
      'nothing is served',
    );
    expect(screen.getByTestId<HTMLButtonElement>('service-start').disabled).toBe(false);
    expect(screen.getByTestId<HTMLButtonElement>('service-stop').disabled).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('service-restart').disabled).toBe(true);
  });

  it('an offline workspace says its shares are not served and to restart it; a silent node degrades it, and a restart cannot help', async () => {
    server.use(...workspaceHandlers({ service: OFFLINE }));
    const view = renderApp('/dashboard/services');
    const notice = await screen.findByTestId(`service-offline-${SERVICE_ID}`);
    expect(notice.textContent).toContain('not being served');
    expect(notice.textContent).toContain('Restart the workspace');
    view.unmount();

    server.use(...workspaceHandlers({ service: SILENT }));
    renderApp('/dashboard/services');
    const silent = await screen.findByTestId(`service-degraded-${SERVICE_ID}`);
    expect(silent.textContent).toContain('stopped answering');
    expect(silent.textContent).toContain('a restart cannot help until then');
  });

  it('a degraded workspace says it is served but the latest change is not applied, and to restart', async () => {
    server.use(...workspaceHandlers({ service: DEGRADED }));
    renderApp(DETAIL);
    const notice = await screen.findByTestId(`service-degraded-${SERVICE_ID}`);
    expect(notice.textContent).toContain('could not be applied');
    expect(notice.textContent).toContain('Restart the workspace');
    expect(screen.getByTestId<HTMLButtonElement>('service-restart').disabled).toBe(false);
  });

  it('a workspace waiting for room has its controls disabled and never says its shares are served', async () => {
    server.use(...workspaceHandlers({ service: WAITING }));
    renderApp(DETAIL);
    expect((await screen.findByTestId(`service-preparing-${SERVICE_ID}`)).textContent).toContain(
      'every 2 minutes',
    );
    for (const control of ['start', 'stop', 'restart']) {
      expect(screen.getByTestId<HTMLButtonElement>(`service-${control}`).disabled).toBe(true);
    }
    expect(screen.getByTestId('service-run-state').textContent).toBe(
      'Start, stop and restart are only available for an active workspace.',
    );
    expect(screen.getByTestId('service-detail').textContent).not.toMatch(/served/);
  });
});

describe('stop and restart ask first', () => {
  it(
    'stop names what disconnects; keeping it sends nothing; the notice goes once the stop is done',
    async () => {
      let service = makeOverviewItem({ vpn_users: 4, vpn_online: 3, nfs_exports: 2 });
      const calls: string[] = [];
      server.use(...workspaceHandlers());
      server.use(
        http.get('/api/v1/services/overview', () => HttpResponse.json({ services: [service] })),
        http.post(servicePath('/stop'), () => {
          calls.push('stop');
          service = { ...STOPPED, apply_status: 'applying' };
          return HttpResponse.json(makeStatus({ run_state: 'stopped', display_state: 'stopped' }));
        }),
      );
      renderApp(DETAIL);
      await userEvent.click(await screen.findByTestId('service-stop'));
      const dialog = await screen.findByTestId('service-stop-dialog');
      expect(dialog.textContent).toContain('Stop Team drive?');
      // Every server that goes down, with the overview's counts: not only Samba.
      expect(
        within(dialog)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        'Samba: everyone connected to its 1 share at 127.0.10.7 is disconnected',
        'VPN: the 3 sessions connected now end',
        'NFS: clients that mount its 2 exports lose them',
        'FTP and SFTP: open sessions end and transfers under way stop',
        'LDAP: its directory stops answering, so sign-ins that use it fail',
      ]);
      expect(dialog.textContent).toContain('Nobody can connect until you start it again.');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByTestId('service-stop-dialog')).toBeNull();
      expect(calls).toEqual([]);

      await userEvent.click(screen.getByTestId('service-stop'));
      await userEvent.click(await screen.findByTestId('service-stop-dialog-confirm'));
      expect((await screen.findByTestId('service-control-done')).textContent).toContain('Stop requested');
      expect(calls).toEqual(['stop']);
      expect(screen.getByTestId('service-status').textContent).toBe('Stopped');

      // The node has stopped it: the page, asking again, drops the notice.
      service = STOPPED;
      await waitFor(() => expect(screen.queryByTestId('service-control-done')).toBeNull());
      expect(screen.getByTestId('service-status').textContent).toBe('Stopped');
    },
    SLOW,
  );

  it(
    'restart names what disconnects for a moment, then asks the node',
    async () => {
      const calls: string[] = [];
      let service = OFFLINE;
      server.use(...workspaceHandlers());
      server.use(
        http.get('/api/v1/services/overview', () => HttpResponse.json({ services: [service] })),
        http.post(servicePath('/restart'), () => {
          calls.push('restart');
          service = { ...OFFLINE, apply_status: 'applying' };
          return HttpResponse.json(makeStatus({ apply_status: 'applying' }));
        }),
      );
      renderApp(DETAIL);
      await userEvent.click(await screen.findByTestId('service-restart'));
      const dialog = await screen.findByTestId('service-restart-dialog');
      expect(dialog.textContent).toContain('Restart Team drive?');
      expect(within(dialog).getByTestId('service-restart-goes-down-samba').textContent).toBe(
        'Samba: everyone connected to its 1 share at 127.0.10.7 is disconnected',
      );
      expect(dialog.textContent).toContain('It is back after a moment');
      expect(calls).toEqual([]);
      await userEvent.click(within(dialog).getByTestId('service-restart-dialog-confirm'));
      expect((await screen.findByTestId('service-control-done')).textContent).toContain('Restart requested');
      expect(calls).toEqual(['restart']);
    },
    SLOW,
  );
});
