// Monitoring from the real daemons, as issue 21's first acceptance point asks, through the API:
// on a live MINI workspace a file written, renamed and deleted over SMB (smbclient), a file
// uploaded over FTP (curl) and a VPN session (openvpn) from the customer's own machine (a client
// namespace beyond the node) each appear in the service's and the user's activity within 10 s
// of the client's command returning; and on a live Starter workspace (3 GB), its disk filled past
// 80 % (a file allocated on the node) raises one disk alert and one mail, and freeing it clears
// the alert. The time each took is printed. In a browser (acceptance 3), the service's monitoring
// tab shows the SMB write in its real-time activity and the disk alert in its overview.
//
// Needs root with samba, smbclient, pure-ftpd and curl (openvpn for the VPN part); elsewhere it is
// skipped with the reason printed. It terminates its workspaces and checks nothing is left.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MONITORING_BASE_PATH,
  SNAPSHOT_INTERVAL_MINUTES,
  type ActivityEvent,
  type ActivityResponse,
  type AlertsResponse,
  type SambaShare,
  type VpnUser,
  type WorkspaceUser,
} from '@debesis/contract';
import { testClient } from '@debesis/agent/testing/network';
import { connectVpnClient } from '@debesis/agent/testing/vpn-client';
import { readAll } from '../scripts/lib/mail.ts';
import { liveWorkspacesUnavailable } from '../scripts/lib/live-workspaces.ts';
import { buyWorkspace, type BoughtWorkspace } from '../scripts/lib/workspace-api.ts';
import {
  nodeApplied,
  planNamed,
  useClientMachine,
  useLiveBrowser,
  useLiveProduct,
  vpnUnavailable,
  waitFor,
} from './support/live.ts';
import { useScratchDir } from './support/scratch-dir.ts';

const SHARE = 'projects';
const USER = 'ona';
const PASSWORD = 'Ona-Monitor-Pass-1';
/** The acceptance's bound, from the client's command returning to the event in the API. */
const WITHIN_MS = 10_000;

const unavailable = liveWorkspacesUnavailable();
if (unavailable) {
  console.warn(`[e2e] live monitoring skipped: ${unavailable} (CI runs it as root with samba and smbclient)`);
}
const noVpn = unavailable ?? vpnUnavailable();
if (noVpn && !unavailable) console.warn(`[e2e] the VPN session's activity is not tried: ${noVpn}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(unavailable !== undefined)(
  'monitoring from the real daemons (root, live workspaces)',
  { shuffle: false, timeout: 300_000 },
  () => {
    /** The customer's own machine: a client namespace beyond the node (the pool's third octet is 12). */
    const machine = testClient(12);
    const live = useLiveProduct({ env: { AGENT_CLIENT_ROUTES: machine.block } });
    const { get, send } = live;
    const machineSetUp = useClientMachine(machine);
    const dir = useScratchDir('monitoring-live-e2e');
    const browser = useLiveBrowser(live);
    let workspace: BoughtWorkspace;
    let userId = '';
    let email = '';
    /** The owner's dashboard in a browser, signed in with the API's token. */
    const ownerPage = async (path: string) => {
      const page = await browser.newPage();
      await page.goto('/');
      await page.evaluate(
        (token) => localStorage.setItem('token', token),
        live.customer().authorization.slice(7),
      );
      await page.goto(path);
      return page;
    };
    const applied = (serviceId: string) => nodeApplied(live, serviceId, 120_000);
    const monitoring = (path: string) =>
      get<ActivityResponse>(`${MONITORING_BASE_PATH.replace('/api/v1', '')}${path}`);

    /**
     * Waits until both the service's and the user's activity list an event `match` finds; answers
     * it and how long after `since` it was there.
     */
    async function seen(what: string, since: number, match: (event: ActivityEvent) => boolean) {
      const event = await waitFor(what, WITHIN_MS, async () => {
        const service = await monitoring(`/services/${workspace.id}/activity?minutes=100`);
        const found = service.events.find(match);
        if (!found) return undefined;
        const user = await monitoring(`/users/${userId}/activity?minutes=100`);
        return user.events.some((event) => event.id === found.id) ? found : undefined;
      });
      const ms = Math.round(performance.now() - since);
      console.warn(`[e2e] monitoring: ${what} in the service's and the user's activity after ${ms} ms`);
      return event;
    }

    const inMachine = (command: string, args: string[]) => {
      const result = spawnSync('ip', ['netns', 'exec', machine.netns, command, ...args], {
        encoding: 'utf8',
        timeout: 30_000,
        cwd: dir,
      });
      return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
    };
    const smbclient = (command: string) =>
      inMachine('smbclient', [
        `//${workspace.address}/${SHARE}`,
        '-U',
        `${USER}%${PASSWORD}`,
        '-m',
        'SMB3',
        '-c',
        command,
      ]);

    beforeAll(async () => {
      email = await live.signUp();
      const plan = await planNamed(live.product.url, 'MINI');
      workspace = await buyWorkspace(live.customer(), plan, 'monitoring-live', {
        withinMs: 120_000,
        onService: live.bought,
      });
      userId = (
        await send<WorkspaceUser>('POST', `/user-groups/${workspace.id}/users`, {
          name: USER,
          password: PASSWORD,
        })
      ).id;
      await send<SambaShare>('POST', `/samba/${workspace.id}/shares`, {
        name: SHARE,
        bind_public_ip: true,
        users: [{ name: USER, read: true, write: true }],
      });
      if (!noVpn)
        await send<VpnUser>('POST', `/vpn/${workspace.id}/users`, { username: USER, password: PASSWORD });
      await applied(workspace.id);
      await machineSetUp.make([workspace.address]);
    }, 300_000);

    it('a file written, renamed and deleted over SMB is in the service’s and the user’s activity within 10 s', async () => {
      writeFileSync(join(dir, 'plan.txt'), 'the first drawing\n'.repeat(100));
      // smbd may still be starting: the first put is retried until it lands.
      await waitFor('smbclient put', 30_000, async () =>
        smbclient('put plan.txt plan.txt').ok ? true : undefined,
      );
      let since = performance.now();
      const written = await seen(
        'a file written over SMB',
        since,
        (e) => e.kind === 'file_written' && e.path === `/shares/${SHARE}/plan.txt`,
      );
      expect(written).toMatchObject({
        source: 'smb',
        user: USER,
        bytes: 1800,
        remote_address: machine.address,
      });

      const renamed = smbclient('rename plan.txt final.txt');
      expect(renamed.ok, renamed.output).toBe(true);
      since = performance.now();
      expect(
        await seen(
          'a file renamed over SMB',
          since,
          (e) => e.kind === 'file_renamed' && e.target === `/shares/${SHARE}/final.txt`,
        ),
      ).toMatchObject({ source: 'smb', user: USER, path: `/shares/${SHARE}/plan.txt` });

      // The monitoring tab shows it: the real-time view, which asks again by itself.
      const page = await ownerPage(
        `/dashboard/services/${workspace.id}/monitoring?view=activity&window=realtime`,
      );
      await page.getByTestId('monitoring-live').waitFor();
      const row = page.getByTestId(`monitoring-event-${written.id}`);
      await row.waitFor();
      expect(await row.innerText()).toContain(`/shares/${SHARE}/plan.txt`);
      expect(await row.innerText()).toContain(USER);

      const deleted = smbclient('del final.txt');
      expect(deleted.ok, deleted.output).toBe(true);
      since = performance.now();
      expect(
        await seen(
          'a file deleted over SMB',
          since,
          (e) => e.kind === 'file_deleted' && e.path === `/shares/${SHARE}/final.txt`,
        ),
      ).toMatchObject({ source: 'smb', user: USER });
    });

    it('a file uploaded over FTP is in the activity within 10 s, with the sign-in', async () => {
      writeFileSync(join(dir, 'upload.bin'), Buffer.alloc(64 * 1024, 7));
      const upload = inMachine('curl', [
        '-sS',
        '--max-time',
        '20',
        '-T',
        'upload.bin',
        '-u',
        `${USER}:${PASSWORD}`,
        `ftp://${workspace.address}/upload.bin`,
      ]);
      expect(upload.ok, upload.output).toBe(true);
      const since = performance.now();
      const event = await seen(
        'a file uploaded over FTP',
        since,
        (e) => e.kind === 'file_written' && e.source === 'ftp',
      );
      expect(event).toMatchObject({
        user: USER,
        bytes: 64 * 1024,
        path: `/home/${USER}/upload.bin`,
        remote_address: machine.address,
      });
    });

    it.skipIf(noVpn !== undefined)(
      'a VPN session is in the activity within 10 s of connecting and of ending',
      async () => {
        const ovpn = await live
          .customer()
          .get(`/vpn/${workspace.id}/users`)
          .then(async (response) => {
            const { users } = (await response.json()) as { users: VpnUser[] };
            const user = users.find((candidate) => candidate.username === USER);
            if (!user) throw new Error('no VPN user');
            const config = await live.customer().get(`/vpn/${workspace.id}/users/${user.id}/config`);
            return ((await config.json()) as { content: string }).content;
          });
        const connection = await connectVpnClient(ovpn, USER, PASSWORD, {
          netns: machine.netns,
          dir,
          timeoutMs: 60_000,
        });
        expect(connection.outcome, connection.log).toBe('connected');
        let since = performance.now();
        await seen('a VPN session connected', since, (e) => e.kind === 'vpn_connected' && e.user === USER);
        await connection.stop();
        since = performance.now();
        const ended = await seen(
          'a VPN session ended',
          since,
          (e) => e.kind === 'vpn_disconnected' && e.user === USER,
        );
        expect(ended.source).toBe('vpn');
      },
    );

    it(
      'filling the disk past 80 % raises one alert and one mail; freeing it clears the alert',
      { timeout: 480_000 },
      async () => {
        const starter = await buyWorkspace(
          live.customer(),
          await planNamed(live.product.url, 'Starter'),
          'monitoring-disk',
          {
            withinMs: 120_000,
            onService: live.bought,
          },
        );
        const storage = join(live.product.dataDir, 'nodes', 'local', 'workspaces', starter.id, 'data');
        const filler = join(storage, 'filler.bin');
        const alerts = () => get<AlertsResponse>(`/monitoring/alerts?service_id=${starter.id}&hours=1`);
        // A scheduled snapshot taken while the filler is there holds its blocks after the delete
        // (a Previous Version of it, as it should), and the disk would rightly stay full: the fill
        // and the delete keep to one snapshot slot of the clock, waiting for the next when this
        // one ends in less than the three minutes between them at worst.
        const slot = SNAPSHOT_INTERVAL_MINUTES * 60_000;
        const left = slot - (Date.now() % slot);
        if (left < 180_000) await sleep(left + 5_000);
        // 2.6 GiB of its 3 GiB, allocated at once (no bytes written): past 80 %, short of 90 %.
        const fill = spawnSync('fallocate', ['-l', `${Math.round(2.6 * 1024 ** 3)}`, filler], {
          encoding: 'utf8',
        });
        expect(fill.status, fill.stderr).toBe(0);
        let since = performance.now();
        const raised = await waitFor('the disk alert', 30_000, async () => {
          const { alerts: list } = await alerts();
          return list.find((alert) => alert.kind === 'disk_warning' && alert.cleared_at === null);
        });
        console.warn(
          `[e2e] monitoring: the disk alert raised ${Math.round(performance.now() - since)} ms after filling`,
        );
        expect(raised.level).toBe('warning');
        expect(Number(raised.params.percent)).toBeGreaterThanOrEqual(80);

        // The monitoring tab's overview shows it among the service's alerts.
        const page = await ownerPage(`/dashboard/services/${starter.id}/monitoring`);
        const shown = page.getByTestId(`monitoring-alert-${raised.id}`);
        await shown.waitFor();
        expect(await shown.innerText()).toMatch(/Disk filling up/);

        // The worker's minute mails it, once.
        const alertMails = async () =>
          (await readAll(live.product.dataDir, email)).filter((mail) =>
            mail.file.includes(`--alert-${raised.id}`),
          );
        const [mail] = await waitFor('the alert mail', 90_000, async () => {
          const mails = await alertMails();
          return mails.length > 0 ? mails : undefined;
        });
        expect(mail?.subject).toMatch(/Disk \d+% full/);
        expect(mail?.text).toContain(`/dashboard/services/${starter.id}/monitoring`);
        // Still full a while later: still one alert, still one mail.
        await sleep(7_000);
        expect((await alerts()).alerts.filter((alert) => alert.kind === 'disk_warning')).toHaveLength(1);
        expect(await alertMails()).toHaveLength(1);

        rmSync(filler);
        since = performance.now();
        await waitFor('the disk alert cleared', 30_000, async () => {
          const { alerts: list } = await alerts();
          return list.find((alert) => alert.id === raised.id && alert.cleared_at !== null);
        });
        console.warn(
          `[e2e] monitoring: the disk alert cleared ${Math.round(performance.now() - since)} ms after freeing`,
        );
        expect((await alerts()).alerts.filter((alert) => alert.cleared_at === null)).toEqual([]);
      },
    );
  },
);
