// Backup clients of a workspace against the real programs, as root (issue 18): a customer's
// machine, a client namespace of its own (testing/network.ts), connects to the workspace's VPN
// with its own login and pushes a restic backup to the workspace's REST server (rclone serve
// restic) inside the tunnel; the report counts the snapshot and its push. A wrong password, another
// client's repository and a delete (append-only) are refused; a disconnected client's login stops
// working without a restart of the server; a deleted client's repository is deleted; with no
// client left the server stops. Elsewhere it is skipped with the reason printed.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_CLIENT_PORT,
  VPN_TUNNEL_SERVER_ADDRESS,
  WORKSPACE_ID_FIRST_BASE,
  type BackupClientState,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { bcrypt } from 'hash-wasm';
import { clientRepositoriesRoot } from './backup/client-repositories.ts';
import { BACKUP_CLIENTS_DRIVER } from './drivers/backup-clients.driver.ts';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { daemonFiles } from './daemons/supervisor.ts';
import { exists } from './system/host.ts';
import { forceCleanWorkspace, liveSkipReason, randomTestAddresses, recordedPid } from './testing/live.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { createLivePass } from './testing/live-pass.ts';
import { makeTestClient, removeTestClient, removeTestNetworks, testClient } from './testing/network.ts';
import { connectVpnClient, stopAllVpnClients } from './testing/vpn-client.ts';
import { EASYRSA, issueClientConfig } from './vpn/pki.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = [
  'openvpn',
  'openssl',
  EASYRSA,
  'rclone',
  'restic',
  'curl',
  'ip',
  'nsenter',
  'unshare',
  'losetup',
];
const reason =
  (await liveSkipReason('backup clients test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const SERVICE = `bkc-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];
const CLIENT = testClient(Number(ADDRESS.split('.')[2]));
const PASSWORDS = { office: 'Office-push-pass-31', laptop: 'Laptop-push-pass-47' };
type Name = keyof typeof PASSWORDS;
const hashes: Record<string, { crypt: string; bcrypt: string }> = {};

let dataDir: string;
let clientDir: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));
const rcloneRecord = () => daemonFiles(join(layout().root, BACKUP_CLIENTS_DRIVER), 'rclone').record;
const repositories = () => clientRepositoriesRoot(dataDir, SERVICE);

/** The workspace with VPN logins for `logins`, of which `clients` may push. */
function state(
  logins: readonly Name[],
  clients: readonly Name[],
  repositoriesKept: readonly string[] = logins,
): WorkspaceDesiredState {
  const client = (name: Name): BackupClientState => ({ name, password_bcrypt: hashes[name]!.bcrypt });
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 32 * 1024 * 1024,
    id_base: WORKSPACE_ID_FIRST_BASE,
    ...(logins.length > 0
      ? {
          vpn: {
            port: 1194,
            users: logins.map((name) => ({
              name,
              enabled: clients.includes(name),
              password_crypt: hashes[name]!.crypt,
              traffic_limit_bytes: 0,
              cert_generation: 1,
            })),
          },
        }
      : {}),
    backup: { jobs: [], clients: clients.map(client), client_repositories: [...repositoriesKept] },
  });
}

const pass = createLivePass({ dataDir: () => dataDir, address: ADDRESS, clientRoutes: [CLIENT.block] });

/** restic on the client's machine (its namespace), against its repository on the workspace. */
function restic(
  name: Name,
  password: string,
  args: string[],
  repository: string = name,
): Promise<CommandResult> {
  const url = `rest:http://${name}:${password}@${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}/${repository}/`;
  return runCommand('ip', ['netns', 'exec', CLIENT.netns, 'restic', '--no-cache', '-r', url, ...args], {
    timeoutMs: 60_000,
    env: { ...process.env, RESTIC_PASSWORD: 'the-customers-own-key', HOME: clientDir },
  });
}
const said = (result: CommandResult) => `${result.stdout}${result.stderr}`;

describe.skipIf(reason !== undefined)(
  'live backup clients (root, real openvpn, rclone serve restic and restic)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let pid: number | undefined;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-backup-clients-'));
      clientDir = await mkdtemp(join(tmpdir(), 'agent-backup-client-'));
      for (const [name, password] of Object.entries(PASSWORDS)) {
        const crypt = await runCommand('openssl', ['passwd', '-6', '-stdin'], {
          input: `${password}\n`,
          check: true,
        });
        hashes[name] = {
          crypt: crypt.stdout.trim(),
          bcrypt: await bcrypt({
            password,
            salt: new Uint8Array(16).map(() => Math.floor(Math.random() * 256)),
            costFactor: 4,
            outputType: 'encoded',
          }),
        };
      }
      await writeFile(join(clientDir, 'files.txt'), 'the customer’s own files\n');
      await makeTestClient(CLIENT, [ADDRESS]);
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      await stopAllVpnClients();
      await pass({ ...state([], [], []), state: 'removed' }).catch(() => undefined);
      await forceCleanWorkspace(layout(), [layout().vpn.processFile, rcloneRecord()]);
      await removeTestClient(CLIENT);
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(dataDir, { recursive: true, force: true });
      await rm(clientDir, { recursive: true, force: true });
    });

    it('a client connected to the VPN pushes a backup; the report counts it', async () => {
      const { report } = await pass(state(['office', 'laptop'], ['office', 'laptop']));
      expect(report.error).toBeUndefined();
      expect(report.drivers.find((driver) => driver.driver === BACKUP_CLIENTS_DRIVER)).toEqual({
        driver: BACKUP_CLIENTS_DRIVER,
        live: true,
        serving: true,
        // A serving daemon says since when (the API's uptime and restarts).
        started_at: expect.any(String) as string,
      });
      pid = await recordedPid(rcloneRecord());
      expect(pid).toBeDefined();

      const ovpn = await issueClientConfig(state(['office'], ['office']), layout(), 'office', 1, runCommand);
      const vpn = await connectVpnClient(ovpn, 'office', PASSWORDS.office, {
        netns: CLIENT.netns,
        dir: clientDir,
      });
      expect(vpn.outcome, vpn.log).toBe('connected');

      const init = await restic('office', PASSWORDS.office, ['init']);
      expect(init.exitCode, said(init)).toBe(0);
      const backup = await restic('office', PASSWORDS.office, ['backup', join(clientDir, 'files.txt')]);
      expect(backup.exitCode, said(backup)).toBe(0);

      const after = await pass(state(['office', 'laptop'], ['office', 'laptop']), undefined, true);
      const office = after.report.features?.backup_clients?.clients.find(
        (client) => client.name === 'office',
      );
      expect(office).toMatchObject({ name: 'office', snapshots: 1, pushing: false });
      expect(office!.repository_bytes).toBeGreaterThan(0);
      expect(Date.now() - Date.parse(office!.last_push_at!)).toBeLessThan(60_000);
    });

    it('refuses a wrong password, another client’s repository, and deleting a snapshot (append-only)', async () => {
      const wrong = await restic('office', 'not-the-password', ['snapshots']);
      expect(wrong.exitCode).not.toBe(0);
      const other = await restic('office', PASSWORDS.office, ['init'], 'laptop');
      expect(other.exitCode).not.toBe(0);
      const listed = await restic('office', PASSWORDS.office, ['snapshots', '--json']);
      expect(listed.exitCode, said(listed)).toBe(0);
      const [snapshot] = JSON.parse(listed.stdout) as Array<{ id: string }>;
      // restic's forget would retry the refused delete for a long while: the REST call it makes,
      // with curl, is refused at once.
      const forget = await runCommand(
        'ip',
        [
          'netns',
          'exec',
          CLIENT.netns,
          'curl',
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '-X',
          'DELETE',
          '-u',
          `office:${PASSWORDS.office}`,
          `http://${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}/office/snapshots/${snapshot!.id}`,
        ],
        { timeoutMs: 15_000 },
      );
      expect(forget.stdout).toBe('403');
      const kept = await restic('office', PASSWORDS.office, ['snapshots', '--json']);
      expect(kept.exitCode, said(kept)).toBe(0);
      expect((JSON.parse(kept.stdout) as Array<{ id: string }>).map((each) => each.id)).toEqual([
        snapshot!.id,
      ]);
    });

    it('a disconnected client cannot push any more; the server keeps running for the others', async () => {
      // office disconnected: its VPN login disabled and its REST login gone; laptop stays.
      const { result } = await pass(state(['office', 'laptop'], ['laptop']));
      expect(result.actions.join('\n')).not.toMatch(/rclone/);
      expect(await recordedPid(rcloneRecord())).toBe(pid);
      const refused = await restic('office', PASSWORDS.office, ['snapshots']);
      expect(refused.exitCode).not.toBe(0);
      expect(await exists(join(repositories(), 'office', 'config'))).toBe(true);
    });

    it('a deleted client’s repository is deleted; with no client left the server stops', async () => {
      const { result, report } = await pass(state(['laptop'], [], ['laptop']));
      expect(result.actions.join('\n')).toContain(
        `deleted the backup client repository ${join(repositories(), 'office')}`,
      );
      expect(await exists(join(repositories(), 'office'))).toBe(false);
      expect(await recordedPid(rcloneRecord())).toBeUndefined();
      expect(report.drivers.find((driver) => driver.driver === BACKUP_CLIENTS_DRIVER)?.reason).toMatch(
        /no backup client may push/,
      );
    });
  },
);
