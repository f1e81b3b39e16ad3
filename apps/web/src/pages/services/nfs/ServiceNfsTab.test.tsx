import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../i18n/language.ts';
import {
  makeNfsClient,
  makeNfsExport,
  makeNfsStatus,
  nfsHandlers,
  nfsPath,
  statsOf,
} from '../../../test/nfs-fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, inTurn, makeWorkspaceUser, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';
import { openDialog, pressWhenReady, retype } from '../../../test/press.ts';

// NFS may not have shipped in this build (SHIPPED_FEATURES): this file ships it for itself, so the
// real routes and tab bar carry the tab.
vi.mock('@debesis/contract', async (importOriginal) =>
  (await import('../../../test/ship-features.ts')).withShipped(await importOriginal(), ['nfs']),
);

const NFS_TAB = `/dashboard/services/${SERVICE_ID}/nfs`;
const USERS = [makeWorkspaceUser({ name: 'alice' }), makeWorkspaceUser({ name: 'bob', active: false })];

loadServicePages(() => import('./ServiceNfsTab.tsx'));

beforeEach(() => signIn({ handlers: workspaceHandlers({ users: USERS }) }));

async function openCreate() {
  return openDialog('nfs-exports-add', 'nfs-export-dialog');
}

describe('the NFS tab', () => {
  it('is in the tab bar once shipped, and shows the server, the exports, the clients and what is known per export', async () => {
    const readOnly = makeNfsExport({
      path: 'archive',
      client: 'nas.example.com',
      access: 'read_only',
      owner: null,
      mount: '127.0.10.7:/archive',
      description: 'Old projects',
      apply_status: 'failed',
      apply_error: 'owner bob is deactivated',
    });
    server.use(
      ...nfsHandlers({
        exports: [readOnly, makeNfsExport()],
        status: makeNfsStatus({ exports: 2, clients: 2, connected: 1 }),
        clients: [
          makeNfsClient(),
          makeNfsClient({
            address: '192.168.1.20',
            version: '4.1',
            connected: false,
            client_name: 'Linux NFSv4.1 nas',
          }),
        ],
      }),
    );
    renderApp(NFS_TAB);
    expect((await screen.findByTestId('service-tab-nfs')).textContent).toBe('NFS');
    expect((await screen.findByTestId('nfs-address')).textContent).toBe('127.0.10.7:2049');
    expect(screen.getByTestId('nfs-live').textContent).toBe('Yes: the exports are served at this address');
    expect(screen.getByTestId('nfs-exports-count').textContent).toBe('2 of 100');

    expect((await screen.findByTestId('nfs-export-shares/projects-mount')).textContent).toBe(
      '127.0.10.7:/shares/projects',
    );
    expect(screen.getByTestId('nfs-export-shares/projects-access').textContent).toBe('Read-write');
    expect(screen.getByTestId('nfs-export-shares/projects-client').textContent).toBe('192.168.1.0/24');
    expect(screen.getByTestId('nfs-export-shares/projects-owner').textContent).toBe('alice');
    expect(screen.getByTestId('nfs-export-archive-access').textContent).toBe('Read-only');
    expect(screen.getByTestId('nfs-export-archive-owner').textContent).toBe('The workspace (no user)');
    expect(screen.getByTestId('nfs-export-archive').textContent).toContain('Old projects');
    expect(screen.getByTestId('nfs-export-archive-apply-error').textContent).toBe('owner bob is deactivated');

    const laptop = await screen.findByTestId('nfs-client-192.168.1.10');
    // ganesha never reports a client's mount point: no column of empty or "unknown" cells.
    expect(screen.getByTestId('nfs-clients-table').textContent).not.toContain('Mount point');
    expect([...laptop.querySelectorAll('th, td')].map((cell) => cell.textContent)).toEqual([
      '192.168.1.10',
      'NFSv4.2',
      'Connected',
      'Linux NFSv4.2 laptop',
      'shares/projects',
      'Disconnect 192.168.1.10',
    ]);
    expect(screen.getByTestId('nfs-client-192.168.1.20').textContent).toContain('Idle');
    expect(screen.getByTestId('nfs-clients').textContent).toContain(
      'to keep it out for good, change its export’s client or delete the export',
    );

    expect((await screen.findByTestId('nfs-stats-counters')).textContent).toContain('not reported');
    const stats = screen.getByTestId('nfs-stats-shares/projects');
    expect([...stats.querySelectorAll('th, td')].map((cell) => cell.textContent)).toEqual([
      'shares/projects',
      '192.168.1.0/24',
      '2',
      '1',
      '—',
      '—',
      '—',
    ]);
  });

  it('shows the mount point column only when the server reports one, and says where it did not', async () => {
    server.use(
      ...nfsHandlers({
        clients: [
          makeNfsClient({ address: '192.168.1.10', mount_point: '/shares/projects' }),
          makeNfsClient({ address: '192.168.1.20', client_name: 'Linux NFSv4.1 nas' }),
        ],
      }),
    );
    renderApp(NFS_TAB);
    expect((await screen.findByTestId('nfs-client-192.168.1.10-mount-point')).textContent).toBe(
      '/shares/projects',
    );
    expect(screen.getByTestId('nfs-client-192.168.1.20-mount-point').textContent).toBe('Not reported by NFS');
    try {
      await changeLanguage('lt', 'storage');
      await waitFor(() =>
        expect(screen.getByTestId('nfs-client-192.168.1.20-mount-point').textContent).toBe(
          'NFS apie tai nepraneša',
        ),
      );
    } finally {
      await changeLanguage('en', 'storage');
    }
  });

  it('disconnects a client after confirming, and says until when the server refuses it', async () => {
    const asked: string[] = [];
    let refuse = true;
    server.use(
      http.post(nfsPath('/clients/:client/disconnect'), ({ params }) => {
        asked.push(String(params.client));
        if (refuse) {
          refuse = false;
          return apiError(
            501,
            'nfs_disconnect_unsupported',
            'The storage node cannot disconnect NFS clients yet.',
          );
        }
        return HttpResponse.json({ address: params.client, blocked_until: '2026-12-06T16:01:30.000Z' });
      }),
      ...nfsHandlers({ exports: [makeNfsExport()], clients: [makeNfsClient()] }),
    );
    renderApp(NFS_TAB);
    await userEvent.click(await screen.findByTestId('nfs-client-192.168.1.10-disconnect'));
    let dialog = await screen.findByTestId('nfs-disconnect-dialog');
    expect(dialog.textContent).toContain('Disconnect 192.168.1.10?');
    expect(dialog.textContent).toContain('about a minute and a half');
    await userEvent.click(within(dialog).getByTestId('nfs-disconnect-dialog-confirm'));
    // A refusal stays in the dialog with the API's code in words.
    expect((await within(dialog).findByTestId('nfs-disconnect-dialog-error')).textContent).toContain(
      'cannot disconnect NFS clients',
    );
    await userEvent.click(within(dialog).getByTestId('nfs-disconnect-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('nfs-disconnect-dialog')).toBeNull());
    expect(asked).toEqual(['192.168.1.10', '192.168.1.10']);
    expect((await screen.findByTestId('nfs-client-disconnected')).textContent).toMatch(
      /^192\.168\.1\.10 is disconnected: the NFS server refuses it until .+\.$/,
    );
    // Cancelled: nothing asked.
    await userEvent.click(screen.getByTestId('nfs-client-192.168.1.10-disconnect'));
    dialog = await screen.findByTestId('nfs-disconnect-dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(asked).toHaveLength(2);
  });

  it("shows each export's operations and bytes once the node reports them, bytes as people read them", async () => {
    const exports = [makeNfsExport()];
    const known = statsOf(exports, []);
    // The first handler of a path answers: the counters before the plain NFS routes.
    server.use(
      http.get(nfsPath('/stats'), () =>
        HttpResponse.json({
          ...known,
          counters: 'available',
          exports: known.exports.map((entry) => ({
            ...entry,
            operations: 1234,
            bytes_read: 1536,
            bytes_written: 15,
          })),
        }),
      ),
      ...nfsHandlers({ exports }),
    );
    renderApp(NFS_TAB);
    const row = await screen.findByTestId('nfs-stats-shares/projects');
    await waitFor(() =>
      expect([...row.querySelectorAll('td')].slice(-3).map((cell) => cell.textContent)).toEqual([
        '1,234',
        '1.5 KB',
        '15 B',
      ]),
    );
    expect(screen.queryByTestId('nfs-stats-counters')).toBeNull();
  });

  it('says the server is not needed until the first export, and offers no export form before users load', async () => {
    server.use(
      ...nfsHandlers({
        exports: [],
        status: makeNfsStatus({
          exports: 0,
          serving: null,
          reason: 'not needed: the workspace has no NFS exports',
        }),
      }),
    );
    renderApp(NFS_TAB);
    expect((await screen.findByTestId('nfs-live')).textContent).toBe(
      'Not needed: no exports yet — NFS starts with the first export',
    );
    expect((await screen.findByTestId('nfs-exports')).textContent).toContain('No exports yet.');
    expect((await screen.findByTestId('nfs-clients-empty')).textContent).toBe('No client is connected.');
  });

  it('checks a new export against the contract first: outside the storage, a network with host bits, not a client', async () => {
    let posted = 0;
    server.use(
      ...nfsHandlers({ exports: [] }),
      http.post(nfsPath('/shares'), () => {
        posted += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderApp(NFS_TAB);
    const dialog = await openCreate();
    expect(within(dialog).getByTestId('nfs-export-client').closest('.field')?.textContent).toContain(
      'one IP address (192.168.1.10), a network (192.168.1.0/24',
    );
    await userEvent.type(within(dialog).getByTestId('nfs-export-path'), 'shares/../../etc');
    await userEvent.type(within(dialog).getByTestId('nfs-export-client'), '192.168.1.7/24');
    await userEvent.click(within(dialog).getByTestId('nfs-export-submit'));
    expect((await within(dialog).findByTestId('nfs-export-path-error')).textContent).toBe(
      'The folder must be inside the service’s storage: “..” and “.” are not allowed',
    );
    expect(within(dialog).getByTestId('nfs-export-client-error').textContent).toBe(
      'Use the network’s first address, such as 192.168.1.0/24',
    );
    await retype(dialog, 'nfs-export-client', '*.example.com');
    await userEvent.click(within(dialog).getByTestId('nfs-export-submit'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('nfs-export-client-error').textContent).toBe(
        'Use an IP address (192.168.1.10), a network (192.168.1.0/24) or a hostname',
      ),
    );
    expect(posted).toBe(0);
  }, 15_000);

  it('creates an export, puts the server’s field refusal on its field, and shows it applying until the node has it', async () => {
    const bodies: unknown[] = [];
    let refuse = true;
    const created = makeNfsExport({ path: 'media', client: '10.0.0.5', owner: null, access: 'read_only' });
    server.use(...nfsHandlers({ exports: [] }));
    server.use(
      http.get(
        nfsPath('/shares'),
        inTurn([
          { exports: [], limit: 100 },
          { exports: [{ ...created, apply_status: 'applying' }], limit: 100 },
          { exports: [created], limit: 100 },
        ]),
      ),
      http.post(nfsPath('/shares'), async ({ request }) => {
        bodies.push(await request.json());
        if (refuse) {
          return apiError(422, 'validation_error', 'Some fields are not valid.', [
            {
              field: 'path',
              code: 'nfs_path_exported',
              message: 'This folder is already exported. Edit its export instead',
            },
          ]);
        }
        return HttpResponse.json({ ...created, apply_status: 'applying' }, { status: 201 });
      }),
    );
    renderApp(NFS_TAB);
    const dialog = await openCreate();
    // Deactivated users cannot own an export: bob is not offered.
    const owners = [...within(dialog).getByTestId<HTMLSelectElement>('nfs-export-owner').options].map(
      (option) => option.value,
    );
    expect(owners).toEqual(['', 'alice']);
    await userEvent.type(within(dialog).getByTestId('nfs-export-path'), '/media/');
    await userEvent.type(within(dialog).getByTestId('nfs-export-client'), '10.0.0.5');
    await userEvent.click(within(dialog).getByTestId('nfs-export-submit'));
    expect((await within(dialog).findByTestId('nfs-export-path-error')).textContent).toBe(
      'This folder is already exported. Edit its export instead',
    );
    expect(within(dialog).getByTestId('nfs-export-save-error').textContent).toContain(
      'Failed to create NFS export',
    );

    refuse = false;
    await userEvent.selectOptions(within(dialog).getByTestId('nfs-export-owner'), 'alice');
    await userEvent.selectOptions(within(dialog).getByTestId('nfs-export-access'), 'read_write');
    await userEvent.click(within(dialog).getByTestId('nfs-export-submit'));
    await waitFor(() => expect(screen.queryByTestId('nfs-export-dialog')).toBeNull());
    expect(bodies).toEqual([
      { path: 'media', client: '10.0.0.5', access: 'read_only', description: '', owner: null },
      { path: 'media', client: '10.0.0.5', access: 'read_write', description: '', owner: 'alice' },
    ]);
    expect((await screen.findByTestId('nfs-export-media-apply')).dataset.applyStatus).toBe('applying');
    await waitFor(
      () => expect(screen.getByTestId('nfs-export-media-apply').dataset.applyStatus).toBe('applied'),
      {
        timeout: 8000,
      },
    );
  }, 15_000);

  it('edits an export by its encoded path and deletes it, each failure with its own words', async () => {
    const patched: Array<{ url: string; body: unknown }> = [];
    const deleted: string[] = [];
    server.use(
      ...nfsHandlers(),
      http.patch(nfsPath('/shares/:path'), async ({ request }) => {
        patched.push({ url: new URL(request.url).pathname, body: await request.json() });
        return HttpResponse.json(makeNfsExport({ client: 'laptop', apply_status: 'applying' }));
      }),
      http.delete(nfsPath('/shares/:path'), ({ request }) => {
        deleted.push(new URL(request.url).pathname);
        return deleted.length === 1
          ? apiError(409, 'workspace_not_changeable', 'This service is not running')
          : new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(NFS_TAB);
    const dialog = await openDialog('nfs-export-shares/projects-edit', 'nfs-export-dialog');
    expect(within(dialog).queryByTestId('nfs-export-path')).toBeNull();
    const client = within(dialog).getByTestId<HTMLInputElement>('nfs-export-client');
    expect(client.value).toBe('192.168.1.0/24');
    await userEvent.clear(client);
    await userEvent.type(client, 'laptop');
    await userEvent.selectOptions(within(dialog).getByTestId('nfs-export-owner'), '');
    await userEvent.click(within(dialog).getByTestId('nfs-export-submit'));
    await waitFor(() => expect(screen.queryByTestId('nfs-export-dialog')).toBeNull());
    expect(patched).toEqual([
      {
        url: `/api/v1/nfs/${SERVICE_ID}/shares/shares%2Fprojects`,
        body: { client: 'laptop', access: 'read_write', description: '', owner: null },
      },
    ]);

    await userEvent.click(screen.getByTestId('nfs-export-shares/projects-delete'));
    const confirm = await screen.findByTestId('nfs-export-delete-dialog');
    expect(confirm.textContent).toContain('Stop exporting shares/projects?');
    await userEvent.click(within(confirm).getByRole('button', { name: /delete/i }));
    expect((await within(confirm).findByRole('alert')).textContent).toContain('Failed to delete NFS export');
    await userEvent.click(within(confirm).getByRole('button', { name: /delete/i }));
    await waitFor(() => expect(screen.queryByTestId('nfs-export-delete-dialog')).toBeNull());
    expect(deleted).toEqual([
      `/api/v1/nfs/${SERVICE_ID}/shares/shares%2Fprojects`,
      `/api/v1/nfs/${SERVICE_ID}/shares/shares%2Fprojects`,
    ]);
  }, 15_000);

  it('syncs and reloads the server, each saying what it did', async () => {
    let synced = 0;
    let reloaded = 0;
    server.use(
      ...nfsHandlers(),
      http.post(nfsPath('/sync'), () => {
        synced += 1;
        return synced === 1
          ? apiError(503, 'node_unreachable', 'The storage node did not answer in time.')
          : HttpResponse.json({ generation: 9 }, { status: 202 });
      }),
      http.post(nfsPath('/reload'), () => {
        reloaded += 1;
        return HttpResponse.json({ generation: 10 }, { status: 202 });
      }),
    );
    renderApp(NFS_TAB);
    const sync = await pressWhenReady('nfs-sync');
    expect((await screen.findByTestId('nfs-sync-error')).textContent).toContain('Failed to sync NFS');
    await userEvent.click(sync);
    expect((await screen.findByTestId('nfs-sync-done')).textContent).toBe(
      'The NFS configuration was sent to the storage node again.',
    );
    await userEvent.click(screen.getByTestId('nfs-reload'));
    await screen.findByTestId('nfs-reload-done');
    expect([synced, reloaded]).toEqual([2, 1]);
  });
});
