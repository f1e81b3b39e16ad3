import { errorMessages } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backupHandlers,
  backupsPath,
  CLIENT_ENDPOINT,
  CLIENT_QUOTA_BYTES,
  clientsUsedBytes,
  CLIENT_ID,
  makeBackupClient,
} from '../../../test/backup-fixtures.ts';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { catchDownloads } from '../../../test/downloads.ts';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

const BACKUPS_TAB = `/dashboard/services/${SERVICE_ID}/backups`;
const IDLE_ID = '5a1d9e6f-7b8c-4d0e-9f4a-6b7c8d9e0f1b';
const REVOKED_ID = '6b2eaf70-8c9d-4e1f-8a5b-7c8d9e0f1a2c';
const NEW_ID = '7c3fb081-9d0e-4f2a-8b6c-8d9e0f1a2b3d';
const PASSWORD = 'Zq3vN8xT1pL6rK0wYb5s-_Aa';

const LAPTOP = makeBackupClient();
const IDLE = makeBackupClient({
  id: IDLE_ID,
  name: 'office-server',
  status: 'disconnected',
  vpn_online: false,
  last_push_at: null,
  off_node_at: null,
  snapshots: 0,
  repository_bytes: null,
});
const REVOKED = makeBackupClient({
  id: REVOKED_ID,
  // Pushed after the last copy: not copied yet.
  last_push_at: new Date(Date.now() - 10 * 60_000).toISOString(),
  off_node_at: new Date(Date.now() - 20 * 60_000).toISOString(),
  name: 'old-desktop',
  status: 'disconnected',
  revoked_at: '2026-01-10T09:00:00.000Z',
  vpn_online: false,
  snapshots: 3,
  repository_bytes: 2 * 1024 * 1024 * 1024,
});

loadServicePages(() => import('./ServiceBackupsTab.tsx'));

beforeEach(() => signIn({ handlers: workspaceHandlers() }));

const text = (testId: string) => screen.getByTestId(testId).textContent;

async function addClient(name: string) {
  const field = await screen.findByTestId('backup-client-name');
  await userEvent.clear(field);
  await userEvent.type(field, name);
  await userEvent.click(screen.getByTestId('backup-client-add-submit'));
}

describe('the backup clients', () => {
  it('lists each client with its status, connection, last push, backups and storage, and how many the plan allows', async () => {
    server.use(...backupHandlers({ clients: [LAPTOP, IDLE, REVOKED], clientLimit: 5 }));
    renderApp(BACKUPS_TAB);
    const laptop = await screen.findByTestId(`backup-client-${CLIENT_ID}`);
    expect(within(laptop).getByRole('rowheader').textContent).toBe('ona-laptop');
    const connected = screen.getByTestId(`backup-client-${CLIENT_ID}-status`);
    expect(connected.textContent).toBe('Connected');
    expect(connected.className).toBe('badge badge--success');
    expect(text(`backup-client-${CLIENT_ID}-vpn`)).toBe('Online');
    expect(text(`backup-client-${CLIENT_ID}-pushing`)).toBe('No');
    expect(text(`backup-client-${CLIENT_ID}-last-push`)).toBe('1 hour ago');
    // Its newest push is on the backup target too; a client never copied says nothing of it.
    expect(text(`backup-client-${CLIENT_ID}-off-node`)).toBe('Copied off the node 59 minutes ago');
    expect(text(`backup-client-${CLIENT_ID}-snapshots`)).toBe('12');
    expect(text(`backup-client-${CLIENT_ID}-size`)).toBe('1.5 GB');
    expect(within(laptop).getByTestId(`backup-client-${CLIENT_ID}-config`).textContent).toBe(
      'VPN config ona-laptop',
    );

    // Idle: disconnected (grey) but not revoked, so it may still connect and push.
    const idle = screen.getByTestId(`backup-client-${IDLE_ID}-status`);
    expect(idle.textContent).toBe('Disconnected');
    expect(idle.className).toBe('badge');
    expect(screen.queryByTestId(`backup-client-${IDLE_ID}-status-revoked`)).toBeNull();
    expect(text(`backup-client-${IDLE_ID}-vpn`)).toBe('Offline');
    expect(text(`backup-client-${IDLE_ID}-last-push`)).toBe('Never');
    expect(screen.queryByTestId(`backup-client-${IDLE_ID}-off-node`)).toBeNull();
    expect(text(`backup-client-${REVOKED_ID}-off-node`)).toBe('Not yet copied off the node');
    expect(text(`backup-client-${IDLE_ID}-size`)).toBe('Not measured yet');
    expect(screen.getByTestId(`backup-client-${IDLE_ID}-disconnect`)).toBeTruthy();

    // Disconnected by the owner: since when; no config, no Disconnect, only Delete.
    expect(text(`backup-client-${REVOKED_ID}-status`)).toBe('Disconnected');
    expect(text(`backup-client-${REVOKED_ID}-status-revoked`)).toBe(
      `on ${formatDateTime(new Date('2026-01-10T09:00:00.000Z'), 'en')}`,
    );
    expect(text(`backup-client-${REVOKED_ID}-size`)).toBe('2 GB');
    expect(screen.queryByTestId(`backup-client-${REVOKED_ID}-config`)).toBeNull();
    expect(screen.queryByTestId(`backup-client-${REVOKED_ID}-disconnect`)).toBeNull();
    expect(screen.queryByTestId(`backup-client-${REVOKED_ID}-help`)).toBeNull();
    expect(screen.getByTestId(`backup-client-${REVOKED_ID}-delete`)).toBeTruthy();

    // A disconnected client still counts against the plan's users.
    expect(text('backup-clients-counter')).toBe('Backup clients: 3 of 5');
    // Their quota together, as the API measures it: "x of y".
    expect(text('backup-clients-quota')).toBe(
      'Their backups take 3.5 GB of 100 GB together; a push past it fails on the client.',
    );
    expect(screen.getByTestId('backup-client-add-submit').matches(':disabled')).toBe(false);
    expect(screen.queryByTestId('backup-clients-full')).toBeNull();
  });

  it('stops adding at the plan’s limit, disconnected clients counted', async () => {
    server.use(...backupHandlers({ clients: [LAPTOP, REVOKED], clientLimit: 2 }));
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('backup-clients-full')).textContent).toBe(
      'Your plan allows as many backup clients as it has users: 2. Delete a client to add another.',
    );
    expect(text('backup-clients-counter')).toBe('Backup clients: 2 of 2');
    // Disabled by their fieldset, as a browser sees them.
    expect(screen.getByTestId('backup-client-name').matches(':disabled')).toBe(true);
    expect(screen.getByTestId('backup-client-add-submit').matches(':disabled')).toBe(true);
  });

  it('shows the empty state before any client is added', async () => {
    server.use(...backupHandlers());
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId('backup-clients-empty')).textContent).toBe('No backup clients yet.');
    expect(text('backup-clients-counter')).toBe('Backup clients: 0 of 5');
  });

  it('adds a client, shows its password once with the set-up steps and the repository URL, and forgets it when closed', async () => {
    const saved = catchDownloads();
    const bodies: unknown[] = [];
    const configs: (string | null)[] = [];
    let list = [LAPTOP];
    const created = makeBackupClient({
      id: NEW_ID,
      name: 'ona-desktop',
      status: 'disconnected',
      vpn_online: false,
      last_push_at: null,
      snapshots: 0,
      repository_bytes: null,
    });
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/clients'), () =>
        HttpResponse.json({
          clients: list,
          limit: 5,
          endpoint: CLIENT_ENDPOINT,
          quota: { bytes: CLIENT_QUOTA_BYTES, used_bytes: clientsUsedBytes(list) },
        }),
      ),
      http.post(backupsPath('/clients'), async ({ request }) => {
        bodies.push(await request.json());
        list = [LAPTOP, created];
        return HttpResponse.json({ ...created, password: PASSWORD }, { status: 201 });
      }),
      http.get(backupsPath('/vpn-config'), ({ request }) => {
        configs.push(new URL(request.url).searchParams.get('client_id'));
        return HttpResponse.json({
          type: 'ovpn',
          filename: 'Team-drive-ona-desktop.ovpn',
          content: 'client\ndev tun\nauth-user-pass\n',
        });
      }),
    );
    renderApp(BACKUPS_TAB);
    await addClient('ona-desktop');

    const panel = await screen.findByTestId('backup-client-setup');
    expect(bodies).toEqual([{ name: 'ona-desktop' }]);
    expect(document.activeElement?.id).toBe('backup-client-setup-title');
    expect(within(panel).getByRole('heading').textContent).toBe('“ona-desktop” is added: set it up now');
    expect(panel.textContent).toContain('Its password is shown only this once.');
    expect(text('backup-client-setup-login')).toBe('ona-desktop');
    expect(text('backup-client-setup-password')).toBe(PASSWORD);
    expect(text('backup-client-setup-auth')).toBe(`ona-desktop\n${PASSWORD}`);
    expect(text('backup-client-setup-repository')).toBe(
      `export RESTIC_REPOSITORY=rest:http://ona-desktop:${PASSWORD}@10.8.0.1:8000/ona-desktop/`,
    );
    expect(text('backup-client-setup-init')).toBe('restic init');
    expect(text('backup-client-setup-backup')).toBe('restic backup <folders>');
    expect(panel.textContent).toContain('the provider never sees it and cannot recover it');
    expect(panel.textContent).toContain('Append-only: the machine can add backups but not delete them.');
    // The form is empty again, and the new client is in the list.
    expect(screen.getByTestId<HTMLInputElement>('backup-client-name').value).toBe('');
    expect(await screen.findByTestId(`backup-client-${NEW_ID}`)).toBeTruthy();

    // The config is fetched and saved under the server's name; the command then names that file.
    expect(text('backup-client-setup-openvpn')).toBe(
      'openvpn --config <config>.ovpn --auth-user-pass ona-desktop.auth',
    );
    await userEvent.click(within(panel).getByTestId('backup-client-setup-download'));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['Team-drive-ona-desktop.ovpn']));
    expect(await saved[0]?.blob?.text()).toBe('client\ndev tun\nauth-user-pass\n');
    expect(configs).toEqual([NEW_ID]);
    expect(text('backup-client-setup-openvpn')).toBe(
      'openvpn --config Team-drive-ona-desktop.ovpn --auth-user-pass ona-desktop.auth',
    );

    await userEvent.click(screen.getByTestId('backup-client-setup-close'));
    await waitFor(() => expect(screen.queryByTestId('backup-client-setup')).toBeNull());
    expect(document.body.textContent).not.toContain(PASSWORD);
    expect(document.activeElement?.id).toBe('backup-client-name');
    // Its steps stay behind a disclosure, the password a placeholder.
    const help = screen.getByTestId(`backup-client-${NEW_ID}-help`);
    expect(within(help).getByText('How to set up ona-desktop').tagName).toBe('SUMMARY');
    expect(text(`backup-client-${NEW_ID}-help-repository`)).toBe(
      'export RESTIC_REPOSITORY=rest:http://ona-desktop:<password>@10.8.0.1:8000/ona-desktop/',
    );
    expect(text(`backup-client-${NEW_ID}-help-auth`)).toBe('ona-desktop\n<password>');
  }, 20_000);

  it('checks the name against the contract first, and shows the API’s refusal in the contract’s words', async () => {
    const bodies: unknown[] = [];
    server.use(
      ...backupHandlers({ clients: [LAPTOP] }),
      http.post(backupsPath('/clients'), async ({ request }) => {
        bodies.push(await request.json());
        return apiError(409, 'backup_client_exists', errorMessages.en.backup_client_exists);
      }),
    );
    renderApp(BACKUPS_TAB);
    await addClient('Bad Name!');
    expect((await screen.findByTestId('backup-client-name-error')).textContent).toMatch(/letters, numbers/i);
    expect(bodies).toEqual([]);

    await addClient('alice');
    expect((await screen.findByTestId('backup-client-add-error')).textContent).toBe(
      `Failed to add backup client: ${errorMessages.en.backup_client_exists}`,
    );
    expect(bodies).toEqual([{ name: 'alice' }]);
    expect(screen.queryByTestId('backup-client-setup')).toBeNull();
    // What was typed stays, to be changed.
    expect(screen.getByTestId<HTMLInputElement>('backup-client-name').value).toBe('alice');
  });

  it('disconnects only after the question that says its backups stay', async () => {
    const disconnected: string[] = [];
    server.use(
      ...backupHandlers({ clients: [LAPTOP] }),
      http.post(backupsPath('/clients/:id/disconnect'), ({ params }) => {
        disconnected.push(String(params.id));
        return disconnected.length === 1
          ? apiError(503, 'node_unreachable', 'The storage node did not answer in time.')
          : HttpResponse.json(
              makeBackupClient({ status: 'disconnected', revoked_at: new Date().toISOString() }),
            );
      }),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-client-${CLIENT_ID}-disconnect`));
    let dialog = await screen.findByTestId('backup-client-disconnect-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Disconnect “ona-laptop”?');
    expect(dialog.textContent).toContain('it can no longer push backups');
    expect(dialog.textContent).toContain('The backups it has pushed stay');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('backup-client-disconnect-dialog')).toBeNull());
    expect(disconnected).toEqual([]);

    await userEvent.click(screen.getByTestId(`backup-client-${CLIENT_ID}-disconnect`));
    dialog = await screen.findByTestId('backup-client-disconnect-dialog');
    await userEvent.click(within(dialog).getByTestId('backup-client-disconnect-dialog-confirm'));
    expect((await within(dialog).findByTestId('backup-client-disconnect-dialog-error')).textContent).toBe(
      'Failed to disconnect backup client: The storage node did not answer in time.',
    );
    await userEvent.click(within(dialog).getByTestId('backup-client-disconnect-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('backup-client-disconnect-dialog')).toBeNull());
    expect(disconnected).toEqual([CLIENT_ID, CLIENT_ID]);
    expect(text('backup-clients-done')).toBe(
      '“ona-laptop” is disconnected: its backups stay, but it can no longer push new ones.',
    );
  });

  it('deletes a client after saying its backups go with it', async () => {
    const deleted: string[] = [];
    server.use(
      ...backupHandlers({ clients: [LAPTOP, REVOKED] }),
      http.delete(backupsPath('/clients/:id'), ({ params }) => {
        deleted.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderApp(BACKUPS_TAB);
    await userEvent.click(await screen.findByTestId(`backup-client-${REVOKED_ID}-delete`));
    const dialog = await screen.findByTestId('backup-client-delete-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Delete “old-desktop” and its backups?');
    expect(dialog.textContent).toContain('every backup it pushed is deleted');
    await userEvent.click(within(dialog).getByTestId('backup-client-delete-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('backup-client-delete-dialog')).toBeNull());
    expect(deleted).toEqual([REVOKED_ID]);
    expect(text('backup-clients-done')).toBe('“old-desktop” and its backups are deleted.');
  });

  it('downloads a client’s VPN config from its row, and says why when it cannot', async () => {
    const saved = catchDownloads();
    let refuse = true;
    server.use(
      ...backupHandlers({ clients: [LAPTOP] }),
      http.get(backupsPath('/vpn-config'), ({ request }) => {
        expect(new URL(request.url).searchParams.get('client_id')).toBe(CLIENT_ID);
        if (refuse) return apiError(409, 'backup_client_revoked', errorMessages.en.backup_client_revoked);
        return HttpResponse.json({
          type: 'ovpn',
          filename: 'Team-drive-ona-laptop.ovpn',
          content: 'client\n',
        });
      }),
    );
    renderApp(BACKUPS_TAB);
    const config = await screen.findByTestId(`backup-client-${CLIENT_ID}-config`);
    await userEvent.click(config);
    expect((await screen.findByTestId('backup-clients-download-error')).textContent).toBe(
      `Failed to download VPN config: ${errorMessages.en.backup_client_revoked}`,
    );
    expect(saved).toEqual([]);
    refuse = false;
    await userEvent.click(config);
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['Team-drive-ona-laptop.ovpn']));
    // The client's own steps now name the file saved.
    expect(text(`backup-client-${CLIENT_ID}-help-openvpn`)).toBe(
      'openvpn --config Team-drive-ona-laptop.ovpn --auth-user-pass ona-laptop.auth',
    );
  });

  it('asks for the clients again every 15 s, but not while the browser hides the tab', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let asked = 0;
    server.use(...backupHandlers());
    server.use(
      http.get(backupsPath('/clients'), () => {
        asked += 1;
        return HttpResponse.json({
          clients: asked === 1 ? [] : [LAPTOP],
          limit: 5,
          endpoint: CLIENT_ENDPOINT,
          quota: { bytes: CLIENT_QUOTA_BYTES, used_bytes: 0 },
        });
      }),
    );
    renderApp(BACKUPS_TAB);
    await screen.findByTestId('backup-clients-empty');
    await vi.advanceTimersByTimeAsync(14_000);
    expect(asked).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    // The machine connected by itself: it shows without anything done on the page.
    expect(await screen.findByTestId(`backup-client-${CLIENT_ID}`)).toBeTruthy();
    expect(asked).toBe(2);

    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    try {
      await vi.advanceTimersByTimeAsync(30_000);
      expect(asked).toBe(2);
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });

  it('speaks Lithuanian', async () => {
    server.use(
      userHandler(makeUser({ language: 'lt' })),
      ...backupHandlers({ clients: [LAPTOP, REVOKED], clientLimit: 5 }),
    );
    renderApp(BACKUPS_TAB);
    expect((await screen.findByTestId(`backup-client-${CLIENT_ID}-status`)).textContent).toBe('Prisijungęs');
    expect(text(`backup-client-${REVOKED_ID}-status`)).toBe('Atjungtas');
    expect(text(`backup-client-${CLIENT_ID}-pushing`)).toBe('Ne');
    expect(text('backup-clients-counter')).toBe('Atsarginių kopijų klientų: 2 iš 5');
    expect(screen.getByTestId('backup-client-add-submit').textContent).toBe('Pridėti klientą');
    expect(text(`backup-client-${CLIENT_ID}-help-repository`)).toBe(
      'export RESTIC_REPOSITORY=rest:http://ona-laptop:<slaptažodis>@10.8.0.1:8000/ona-laptop/',
    );
  });
});
