// Backups through the whole product, as issue 18 asks (acceptance 1 and 4): a file
// written over SMB is in the next run's snapshot and browsable through the API; deleted over SMB,
// downloaded through the API, restored through the API (back in its place, and beside it) and read back over SMB with the
// same bytes; retention forgets what it should and restic's own list of snapshots agrees with the
// history; a run whose repository was deleted fails with why, is mailed once, and the next run
// starts a new repository. Then in the browser (acceptance 4): a schedule made from a preset, run
// now, browsed, and a file restored into a new folder, read over SMB. And a backup client
// (acceptance 2): made in the API, it connects from a client namespace of its own to the
// workspace's VPN with its config and password, pushes a restic backup to its repository in the
// tunnel, and the owner sees it connected with its snapshot; disconnected, it can push no more.
// The scheduler's choices (presets, time zones, paused schedules, missed runs, two workers) are
// the API tests' (modules/backups/backups.test.ts).
//
// Needs root, samba, smbclient, restic, rclone and openvpn (CI has them); elsewhere it is skipped with the reason
// printed. It terminates its workspace through the API and checks that nothing is left, the
// backup repository included.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  BackupClient,
  BackupClientCreated,
  BackupClientsResponse,
  BackupBrowseResponse,
  BackupRestore,
  BackupSchedule,
  BackupSession,
  BackupUsage,
  SambaShare,
  WorkspaceUser,
} from '@debesis/contract';
import { testClient } from '@debesis/agent/testing/network';
import { connectVpnClient } from '@debesis/agent/testing/vpn-client';
import { liveWorkspacesUnavailable } from '../scripts/lib/live-workspaces.ts';
import { readAll } from '../scripts/lib/mail.ts';
import { buyWorkspace, type BoughtWorkspace } from '../scripts/lib/workspace-api.ts';
import { waitForTakeOver } from './support/browser.ts';
import { signedInAs } from './support/checkout.ts';
import {
  planNamed,
  programsMissing,
  useClientMachine,
  useLiveBrowser,
  useLiveProduct,
  vpnUnavailable,
  waitFor,
} from './support/live.ts';
import { useScratchDir } from './support/scratch-dir.ts';

const SHARE = 'projects';
const USER = { name: 'alice', password: 'Alice-Share-Pass-7' };

const unavailable = liveWorkspacesUnavailable() ?? programsMissing(['restic', 'rclone']) ?? vpnUnavailable();
if (unavailable) {
  console.warn(
    `[e2e] live backups skipped: ${unavailable} (CI runs it as root with samba, restic, rclone and openvpn)`,
  );
}

describe.skipIf(unavailable !== undefined)(
  'backups through the product (root, real smbd and restic)',
  { shuffle: false, timeout: 240_000 },
  () => {
    /** The customer's own machine: a client namespace beyond the node (the pool's third octet is 12). */
    const machine = testClient(12);
    /** The node's copy of a workspace's repository (the agent's data folder is the product's nodes/local). */
    const backupDirOf = (serviceId: string) =>
      join(live.product.dataDir, 'nodes', 'local', 'backups', serviceId);
    const live = useLiveProduct({
      env: { AGENT_CLIENT_ROUTES: machine.block },
      // Terminated means its data is gone: the backups too.
      afterEnd: (bought) => {
        for (const id of bought) expect(existsSync(backupDirOf(id))).toBe(false);
      },
    });
    const { get, send } = live;
    const machineSetUp = useClientMachine(machine);
    const dir = useScratchDir('backups-live-e2e');
    const browser = useLiveBrowser(live);
    let email = '';
    let workspace: BoughtWorkspace;
    let schedule: BackupSchedule;
    const original = randomBytes(300_000);

    const base = () => `/backups/${workspace.id}`;
    const backupDir = () => backupDirOf(workspace.id);

    const smbclient = (command: string) => {
      const result = spawnSync(
        'smbclient',
        [
          `//${workspace.address}/${SHARE}`,
          '-U',
          `${USER.name}%${USER.password}`,
          '-m',
          'SMB3',
          '-c',
          command,
        ],
        { encoding: 'utf8', timeout: 60_000, cwd: dir },
      );
      return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
    };

    const finished = (sessionId: string) =>
      waitFor(`backup ${sessionId} finished`, 120_000, async () => {
        const { sessions } = await get<{ sessions: BackupSession[] }>(`${base()}/sessions`);
        const session = sessions.find((each) => each.id === sessionId);
        return session && (session.status === 'completed' || session.status === 'failed')
          ? session
          : undefined;
      });
    const runNow = async () => {
      const queued = await send<BackupSession>('POST', `${base()}/schedules/${schedule.id}/trigger`);
      return finished(queued.id);
    };
    const restored = (restoreId: string) =>
      waitFor(`restore ${restoreId} finished`, 120_000, async () => {
        const { restores } = await get<{ restores: BackupRestore[] }>(`${base()}/restores`);
        const restore = restores.find((each) => each.id === restoreId);
        return restore && (restore.status === 'completed' || restore.status === 'failed')
          ? restore
          : undefined;
      });
    /** restic's own list of the schedule's snapshots, read with the key the node keeps. */
    const resticSnapshots = () => {
      const output = execFileSync('restic', ['snapshots', '--json', '--tag', `schedule:${schedule.id}`], {
        encoding: 'utf8',
        env: {
          ...process.env,
          RESTIC_REPOSITORY: join(backupDir(), 'repository'),
          RESTIC_PASSWORD_FILE: join(backupDir(), 'password'),
          RESTIC_CACHE_DIR: join(dir, 'restic-cache'),
        },
      });
      return JSON.parse(output) as Array<{ id: string; tags: string[] }>;
    };

    beforeAll(async () => {
      email = await live.signUp();
      // A plan with an address of its own: the node's smbclient reaches the share there (a NAT
      // plan's Samba answers inside its VPN only).
      const plan = await planNamed(live.product.url, 'MINI');
      workspace = await buyWorkspace(live.customer(), plan, 'backups-live', {
        withinMs: 120_000,
        onService: live.bought,
      });
      await send<WorkspaceUser>('POST', `/user-groups/${workspace.id}/users`, USER);
      await send<SambaShare>('POST', `/samba/${workspace.id}/shares`, {
        name: SHARE,
        users: [{ name: USER.name, read: true, write: true }],
      });
      await waitFor('the share served', 60_000, async () => {
        const { shares } = await get<{ shares: SambaShare[] }>(`/samba/${workspace.id}/shares`);
        return shares.find((share) => share.name === SHARE)?.apply_status === 'applied' ? true : undefined;
      });
    }, 300_000);

    it('a file written over SMB is in the next snapshot, browsable; deleted, it comes back with the same bytes', async () => {
      writeFileSync(join(dir, 'report.bin'), original);
      const put = smbclient('put report.bin report.bin');
      expect(put.ok, put.output).toBe(true);

      schedule = await send<BackupSchedule>('POST', `${base()}/schedules`, {
        name: 'Projects',
        frequency: 'daily',
        hour: 2,
        minute: 0,
        paths: [{ kind: 'share', name: SHARE }],
        keep_full: 1,
        keep_incremental: 1,
        full_every_days: 7,
      });
      const first = await runNow();
      expect(first, JSON.stringify(first)).toMatchObject({
        status: 'completed',
        type: 'full',
        browsable: true,
      });
      expect(first.files).toBeGreaterThanOrEqual(1);
      expect(first.size_added).toBeGreaterThan(0);

      const listing = await get<BackupBrowseResponse>(
        `${base()}/sessions/${first.id}/browse?path=${encodeURIComponent(`/shares/${SHARE}`)}`,
      );
      expect(listing.entries).toContainEqual(
        expect.objectContaining({ name: 'report.bin', type: 'file', size: original.length }),
      );
      // One file of it, downloaded: the node's `restic dump` piped through the API, byte for byte.
      const downloaded = await live
        .customer()
        .get(
          `${base()}/sessions/${first.id}/download?path=${encodeURIComponent(`/shares/${SHARE}/report.bin`)}`,
        );
      expect(downloaded.status).toBe(200);
      expect(downloaded.headers.get('content-disposition')).toContain('filename="report.bin"');
      expect(downloaded.headers.get('content-length')).toBe(String(original.length));
      expect(Buffer.from(await downloaded.arrayBuffer()).equals(original)).toBe(true);

      expect(smbclient('del report.bin').ok).toBe(true);
      expect(smbclient('ls').output).not.toContain('report.bin');
      const back = await send<BackupRestore>('POST', `${base()}/sessions/${first.id}/restore`, {
        path: `/shares/${SHARE}/report.bin`,
        target: 'original',
      });
      expect(await restored(back.id)).toMatchObject({ status: 'completed', files_restored: 1 });
      rmSync(join(dir, 'report.bin'));
      const got = smbclient('get report.bin report.bin');
      expect(got.ok, got.output).toBe(true);
      expect(readFileSync(join(dir, 'report.bin')).equals(original)).toBe(true);

      // Beside it, in a new folder of its own name: the original stays as it is.
      const beside = await restored(
        (
          await send<BackupRestore>('POST', `${base()}/sessions/${first.id}/restore`, {
            path: `/shares/${SHARE}/report.bin`,
            target: 'folder',
          })
        ).id,
      );
      expect(beside.status, JSON.stringify(beside)).toBe('completed');
      expect(beside.restored_to).toMatch(
        new RegExp(`^/shares/${SHARE}/report\\.bin \\(restored \\d{4}-\\d{2}-\\d{2}\\)`),
      );
      const name = (beside.restored_to ?? '').split('/').at(-1) ?? '';
      expect(smbclient('ls').output).toContain(name);
    });

    it('retention forgets what it should, and restic agrees with the history', async () => {
      const second = await runNow();
      const third = await runNow();
      expect([second.type, third.type]).toEqual(['incremental', 'incremental']);
      const { sessions } = await get<{ sessions: BackupSession[] }>(
        `${base()}/sessions?schedule_id=${schedule.id}`,
      );
      const kept = sessions.filter((session) => session.status === 'completed' && !session.pruned);
      // One full and one incremental kept: the first (full) and the third.
      expect(sessions.find((session) => session.id === second.id)).toMatchObject({
        pruned: true,
        browsable: false,
      });
      expect(kept.map((session) => session.type).sort()).toEqual(['full', 'incremental']);
      const snapshots = resticSnapshots();
      expect(snapshots).toHaveLength(kept.length);
      expect(
        snapshots.map((snapshot) => (snapshot.tags.includes('full') ? 'full' : 'incremental')).sort(),
      ).toEqual(['full', 'incremental']);
      const usage = await get<BackupUsage>(`${base()}/usage`);
      expect(usage.snapshots).toBe(snapshots.length);
      expect(usage.repository_bytes).toBeGreaterThan(0);
      expect(usage.last_success_at).not.toBeNull();
    });

    it('a run whose repository is gone fails and says why, mails once, and the next run starts a new one', async () => {
      rmSync(join(backupDir(), 'repository'), { recursive: true, force: true });
      const failed = await runNow();
      expect(failed).toMatchObject({ status: 'failed', error_code: 'repository_missing' });
      expect(failed.error).toBeTruthy();
      const again = await runNow();
      expect(again.status, JSON.stringify(again)).toBe('completed');
      // The failed run's report asks the worker to mail at once, not at its next minute (the API
      // tests check it is once per run of failures).
      const mails = await waitFor('the failure mail', 20_000, async () => {
        const all = (await readAll(live.product.dataDir, email)).filter((mail) =>
          mail.subject.includes('Projects'),
        );
        return all.length > 0 ? all : undefined;
      });
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain('earlier backups are lost');
    });

    it('a backup client pushes over the VPN from its own machine and the owner sees it; disconnected, it cannot', async () => {
      await machineSetUp.make([workspace.address]);
      const created = await send<BackupClientCreated>('POST', `${base()}/clients`, { name: 'office-pc' });
      // Its config once the node has applied its VPN login (until then: vpn_user_not_applied).
      const config = await waitFor('the client’s VPN config', 60_000, async () => {
        const response = await live.customer().get(`${base()}/vpn-config?client_id=${created.id}`);
        return response.ok ? ((await response.json()) as { content: string }) : undefined;
      });
      const vpn = await connectVpnClient(config.content, created.name, created.password, {
        netns: machine.netns,
        dir,
        timeoutMs: 60_000,
      });
      expect(vpn.outcome, vpn.log).toBe('connected');

      // restic on the machine, with the repository URL the owner was given and the password.
      const [scheme, rest] = created.repository_url.split('://') as [string, string];
      const url = `${scheme}://${created.name}:${created.password}@${rest.slice(created.name.length + 1)}`;
      writeFileSync(join(dir, 'ledger.txt'), 'the office PC’s own files\n');
      const restic = (...args: string[]) =>
        spawnSync('ip', ['netns', 'exec', machine.netns, 'restic', '--no-cache', '-r', url, ...args], {
          encoding: 'utf8',
          timeout: 120_000,
          env: { ...process.env, RESTIC_PASSWORD: 'the customer’s own repository key' },
        });
      // The REST server starts once the client is applied: the first try may find it not up yet.
      const init = await waitFor('the repository made through the tunnel', 60_000, async () => {
        const result = restic('init');
        return result.status === 0 ? result : undefined;
      });
      expect(init.status).toBe(0);
      const pushed = restic('backup', join(dir, 'ledger.txt'));
      expect(pushed.status, `${pushed.stdout}${pushed.stderr}`).toBe(0);

      const seen = await waitFor('the push seen by the owner', 60_000, async () => {
        const { clients } = await get<BackupClientsResponse>(`${base()}/clients`);
        const client = clients.find((each) => each.id === created.id);
        return client?.snapshots === 1 ? client : undefined;
      });
      expect(seen).toMatchObject({ name: 'office-pc', status: 'connected', vpn_online: true });
      expect(seen.last_push_at).not.toBeNull();
      expect(seen.repository_bytes).toBeGreaterThan(0);

      const disconnected = await send<BackupClient>('POST', `${base()}/clients/${created.id}/disconnect`);
      expect(disconnected.revoked_at).not.toBeNull();
      // Its session ends: the node revokes its certificate and disables its login. (That its REST
      // login is refused too is the agent's live test's, backup-clients.live.test.ts: without the
      // tunnel this machine no longer reaches the server at all.)
      expect(await vpn.ended(60_000)).toBe(true);
      const { clients } = await get<BackupClientsResponse>(`${base()}/clients`);
      expect(clients.find((each) => each.id === created.id)).toMatchObject({
        status: 'disconnected',
        snapshots: 1,
      });
    });

    it('in the browser: a schedule from a preset, run now, browsed, a file restored into a new folder', async () => {
      writeFileSync(join(dir, 'notes.txt'), 'notes kept in the projects share\n');
      expect(smbclient('put notes.txt notes.txt').ok).toBe(true);
      const page = await signedInAs(browser, email);
      await page.goto(`/dashboard/services/${workspace.id}/backups`);
      await waitForTakeOver(page);

      // A weekly schedule from its preset, of the projects share.
      await page.getByTestId('backup-schedules-add').click();
      const dialog = page.getByTestId('backup-schedule-dialog');
      await dialog.getByTestId('backup-schedule-name').fill('Weekly projects');
      await dialog.getByTestId('backup-schedule-preset-weekly').check();
      await dialog.getByTestId(`backup-path-share-${SHARE}`).check();
      await dialog.getByTestId('backup-schedule-submit').click();
      await dialog.waitFor({ state: 'detached' });
      const { schedules } = await get<{ schedules: BackupSchedule[] }>(`${base()}/schedules`);
      const weekly = schedules.find((each) => each.name === 'Weekly projects');
      expect(weekly).toMatchObject({ frequency: 'weekly', weekday: 0, hour: 2, minute: 0 });
      expect(await page.getByTestId(`backup-schedule-${weekly?.id}-when`).innerText()).toContain('Sunday');

      // Run now: the history shows it until it completes, by itself.
      await page.getByTestId(`backup-schedule-${weekly?.id}-run`).click();
      // The click's request may still be on its way.
      const run = await waitFor('the run queued', 15_000, async () => {
        const { sessions } = await get<{ sessions: BackupSession[] }>(
          `${base()}/sessions?schedule_id=${weekly?.id}`,
        );
        return sessions[0];
      });
      await page
        .locator(`[data-testid="backup-session-${run?.id}-status"][data-status="completed"]`)
        .waitFor({ timeout: 120_000 });

      // Browse it down to the share, and restore the notes beside the original.
      await page.getByTestId(`backup-session-${run?.id}-browse`).click();
      const view = page.getByTestId('backup-browser');
      await view.getByTestId('backup-entry-shares-open').click();
      await view.getByTestId(`backup-entry-${SHARE}-open`).click();
      await view.getByTestId('backup-entry-notes.txt-restore').click();
      const restore = page.getByTestId('backup-restore-dialog');
      await restore.getByTestId('backup-restore-target-folder').check();
      await restore.getByTestId('backup-restore-submit').click();
      await restore.waitFor({ state: 'detached' });
      const { restores } = await get<{ restores: BackupRestore[] }>(`${base()}/restores`);
      const asked = restores.find((each) => each.path === `/shares/${SHARE}/notes.txt`);
      await page
        .locator(`[data-testid="backup-restore-${asked?.id}-status"][data-status="completed"]`)
        .waitFor({ timeout: 120_000 });
      const where = await page.getByTestId(`backup-restore-${asked?.id}-where`).innerText();
      expect(where).toContain('notes.txt (restored');
      const folder = (await restored(asked?.id ?? '')).restored_to?.split('/').at(-1) ?? '';
      const copy = smbclient(`cd "${folder}"; get notes.txt restored-notes.txt`);
      expect(copy.ok, copy.output).toBe(true);
      expect(readFileSync(join(dir, 'restored-notes.txt'), 'utf8')).toBe(
        'notes kept in the projects share\n',
      );
    });
  },
);
