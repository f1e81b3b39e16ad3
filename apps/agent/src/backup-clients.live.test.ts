// Backup clients of a workspace against the real programs, as root (issue 18): a customer's
// machine, a client namespace of its own (testing/network.ts), connects to the workspace's VPN
// with its own login and pushes a restic backup to the workspace's REST server (rclone serve
// restic) inside the tunnel; the report counts the snapshot and its push. A wrong password, another
// client's repository and a delete (append-only) are refused; a disconnected client's login stops
// working without a restart of the server; a deleted client's repository is deleted; with no
// client left the server stops. Their quota (backup/client-quota.ts): a push past it fails in
// restic on the client while the node's disk outside the quota image is untouched; repositories
// of a plain folder are moved in once; it grows with the plan, and the removal unmounts, detaches
// and deletes it.
// Elsewhere it is skipped with the reason printed.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_CLIENT_PORT,
  VPN_TUNNEL_SERVER_ADDRESS,
  WORKSPACE_ID_FIRST_BASE,
  type BackupClientState,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { clientsQuotaPaths } from './backup/client-quota.ts';
import { clientRepositoriesRoot } from './backup/client-repositories.ts';
import { BACKUP_CLIENTS_DRIVER } from './drivers/backup-clients.driver.ts';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { daemonFiles } from './daemons/supervisor.ts';
import { exists } from './system/host.ts';
import { loopDevicesOf } from './system/loop-devices.ts';
import { mountAt } from './system/mounts.ts';
import { liveSkipReason, liveWorkspace, recordedPid } from './testing/live.ts';
import { desiredWorkspace } from './testing/desired.ts';
import { cheapBcrypt, sha512Crypt } from './testing/passwords.ts';
import { connectVpnClient } from './testing/vpn-client.ts';
import { EASYRSA, issueClientConfig } from './vpn/pki.ts';

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

const workspace = liveWorkspace('bkc');
const { service: SERVICE, address: ADDRESS, client: CLIENT, pass, layout, dataDir, clientDir } = workspace;
const PASSWORDS = { office: 'Office-push-pass-31', laptop: 'Laptop-push-pass-47' };
type Name = keyof typeof PASSWORDS;
const hashes: Record<string, { crypt: string; bcrypt: string }> = {};

const rcloneRecord = () => daemonFiles(join(layout().root, BACKUP_CLIENTS_DRIVER), 'rclone').record;
const repositories = () => clientRepositoriesRoot(dataDir(), SERVICE);
const quotaImage = () => clientsQuotaPaths(repositories()).image;
/** The plan's disk, and so the clients' quota (backupClientsQuotaBytes: a share of 1). */
const MIB = 1024 * 1024;
let storageBytes = 32 * MIB;

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
    storage_bytes: storageBytes,
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

/** restic on the client's machine (its namespace), against its repository on the workspace. */
function restic(
  name: Name,
  password: string,
  args: string[],
  repository: string = name,
  timeoutMs = 60_000,
): Promise<CommandResult> {
  const url = `rest:http://${name}:${password}@${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}/${repository}/`;
  return runCommand('ip', ['netns', 'exec', CLIENT.netns, 'restic', '--no-cache', '-r', url, ...args], {
    timeoutMs,
    env: { ...process.env, RESTIC_PASSWORD: 'the-customers-own-key', HOME: clientDir() },
  });
}
const said = (result: CommandResult) => `${result.stdout}${result.stderr}`;

describe.skipIf(reason !== undefined)(
  'live backup clients (root, real openvpn, rclone serve restic and restic)',
  { shuffle: false, timeout: 120_000 },
  () => {
    let pid: number | undefined;

    beforeAll(async () => {
      for (const [name, password] of Object.entries(PASSWORDS)) {
        hashes[name] = { crypt: await sha512Crypt(password), bcrypt: await cheapBcrypt(password) };
      }
      await workspace.create();
      await writeFile(join(clientDir(), 'files.txt'), 'the customer’s own files\n');
    });

    afterAll(() => workspace.remove(state([], [], [])));

    it('a client connected to the VPN pushes a backup; the report counts it', async () => {
      // A repository pushed before the quota existed, in the plain folder: moved into the image once.
      await mkdir(join(repositories(), 'laptop', 'snapshots'), { recursive: true });
      await writeFile(join(repositories(), 'laptop', 'config'), 'pushed before the quota\n');
      const { report, result } = await pass(state(['office', 'laptop'], ['office', 'laptop']));
      expect(report.error).toBeUndefined();
      expect(result.actions.join('\n')).toContain(
        "moved the backup clients' repositories into their quota image",
      );
      expect(await mountAt(repositories())).toBeDefined();
      expect(await readFile(join(repositories(), 'laptop', 'config'), 'utf8')).toBe(
        'pushed before the quota\n',
      );
      expect(await exists(`${repositories()}.plain`)).toBe(false);
      expect(await exists(`${repositories()}.moved`)).toBe(false);
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
        dir: clientDir(),
      });
      expect(vpn.outcome, vpn.log).toBe('connected');

      const init = await restic('office', PASSWORDS.office, ['init']);
      expect(init.exitCode, said(init)).toBe(0);
      const backup = await restic('office', PASSWORDS.office, ['backup', join(clientDir(), 'files.txt')]);
      expect(backup.exitCode, said(backup)).toBe(0);

      const after = await pass(state(['office', 'laptop'], ['office', 'laptop']), undefined, true);
      const office = after.report.features?.backup_clients?.clients.find(
        (client) => client.name === 'office',
      );
      expect(office).toMatchObject({ name: 'office', snapshots: 1, pushing: false });
      expect(office!.repository_bytes).toBeGreaterThan(0);
      expect(Date.now() - Date.parse(office!.last_push_at!)).toBeLessThan(60_000);
    });

    it('a push past the quota fails in restic on the client; the node’s disk outside the quota is untouched', async () => {
      // The repositories' folder is the quota image's mount, not a folder of the node's disk.
      expect(await mountAt(repositories())).toBeDefined();
      expect((await loopDevicesOf(quotaImage())).length).toBe(1);
      const nodeFreeBefore = await statfs(dataDir());
      // 40 MiB that neither compress nor deduplicate, past the 32 MiB quota.
      const big = join(clientDir(), 'big.bin');
      await writeFile(big, randomBytes(40 * MIB));
      const push = await restic('office', PASSWORDS.office, ['backup', big], 'office', 170_000);
      await rm(big, { force: true });
      expect(push.exitCode, said(push)).not.toBe(0);
      expect(said(push)).toMatch(
        /no space left on device|500 Internal Server Error|unexpected HTTP response \(500\)/i,
      );
      // Only the quota image took the bytes: allocated no more than its size, and the node's file
      // system lost no more than that (and a little of the test's own).
      const image = await stat(quotaImage());
      expect(image.size).toBe(32 * MIB);
      expect(image.blocks * 512).toBeLessThanOrEqual(32 * MIB);
      const nodeFreeAfter = await statfs(dataDir());
      const lost = (nodeFreeBefore.bavail - nodeFreeAfter.bavail) * nodeFreeAfter.bsize;
      expect(lost).toBeLessThan(32 * MIB + 8 * MIB);
      // The report gives the limit and what is taken of it: full.
      const { report } = await pass(state(['office', 'laptop'], ['office', 'laptop']), undefined, true);
      const quota = report.features?.backup_clients?.quota;
      expect(quota?.bytes).toBe(32 * MIB);
      expect(quota!.used_bytes).toBeGreaterThan(28 * MIB);
      // The earlier snapshot is still there, readable.
      const listed = await restic('office', PASSWORDS.office, ['snapshots', '--json']);
      expect(listed.exitCode, said(listed)).toBe(0);
      expect(JSON.parse(listed.stdout) as unknown[]).toHaveLength(1);
    }, 200_000);

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

    it('the quota grows with the plan and the server serves it; removal deletes it', async () => {
      storageBytes = 48 * MIB;
      const grown = await pass(state(['laptop'], ['laptop'], ['laptop']));
      expect(grown.report.error).toBeUndefined();
      // Online where the kernel allows it, offline (the server stopped a moment) where it does not.
      expect(grown.result.actions.join('\n')).toContain(
        `grew the backup clients' quota from ${32 * MIB} to ${48 * MIB} bytes`,
      );
      const serving = await recordedPid(rcloneRecord());
      expect(serving).toBeDefined();
      const after = await pass(state(['laptop'], ['laptop'], ['laptop']), undefined, true);
      expect(after.report.features?.backup_clients?.quota?.bytes).toBe(48 * MIB);
      expect(await recordedPid(rcloneRecord())).toBe(serving);
      expect(await mountAt(repositories())).toBeDefined();

      const image = quotaImage();
      const removed = await pass({ ...state([], [], []), state: 'removed' });
      expect(removed.result.actions.join('\n')).toContain(
        `unmounted the backup clients' quota image at ${repositories()}`,
      );
      expect(await mountAt(repositories())).toBeUndefined();
      expect(await loopDevicesOf(image)).toEqual([]);
      expect(await exists(image)).toBe(false);
      expect(await exists(repositories())).toBe(false);
    });
  },
);
