// A node whose data folder (AGENT_DATA_DIR) is 100 characters long, as root against the real
// programs: every daemon a workspace runs starts and serves (smbd, openvpn, ganesha, pure-ftpd,
// sshd, slapd, rclone). Their UNIX sockets (smbd's messaging, openvpn's management, slapd's
// ldapi) are in the workspace's short runtime folder (workspace-layout.ts), not under the data
// folder: there, with a folder of 37 characters already, every smbd exited at start (its
// `<lock dir>/msg.sock/<pid>` passed the 107 bytes of a socket's path). Elsewhere it is skipped
// with the reason printed.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE, type WorkspaceDesiredState } from '@debesis/contract';
import { BACKUP_CLIENTS_DRIVER } from './drivers/backup-clients.driver.ts';
import { ftpFiles } from './drivers/ftp.driver.ts';
import { sftpFiles } from './drivers/sftp.driver.ts';
import { daemonFiles } from './daemons/supervisor.ts';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { exists } from './system/host.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { cheapBcrypt, sha512Crypt } from './testing/passwords.ts';
import {
  forceCleanWorkspace,
  LIVE_WORKSPACE_PROGRAMS,
  liveSkipReason,
  randomTestAddresses,
} from './testing/live.ts';
import { createLivePass } from './testing/live-pass.ts';
import { makeTestClient, removeTestClient, removeTestNetworks, testClient } from './testing/network.ts';
import { connectVpnClient, stopAllVpnClients } from './testing/vpn-client.ts';
import { EASYRSA, issueClientConfig } from './vpn/pki.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = [
  ...LIVE_WORKSPACE_PROGRAMS,
  'openvpn',
  'openssl',
  EASYRSA,
  'ganesha.nfsd',
  'pure-ftpd',
  'pure-pw',
  'sshd',
  'ssh-keygen',
  'slapd',
  'slaptest',
  'ldapmodify',
  'rclone',
  'curl',
];
const reason =
  (await liveSkipReason('long data folder test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const B = WORKSPACE_ID_FIRST_BASE;
const SERVICE = `long-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];
const CLIENT = testClient(Number(ADDRESS.split('.')[2]));
const USER = 'alice';
const PASSWORD = 'Alice-long-pass-7';
const DAEMON_DRIVERS = ['samba', 'vpn', 'nfs', 'ftp', 'sftp', 'ldap', BACKUP_CLIENTS_DRIVER];

let base: string;
let dataDir: string;
let clientDir: string;
let crypt: string;
let backupBcrypt: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));

function state(): WorkspaceDesiredState {
  return {
    ...desiredWorkspace({
      service_id: SERVICE,
      address: ADDRESS,
      storage_bytes: 32 * 1024 * 1024,
      id_base: B,
      users: [{ ...desiredUser(USER, B + 1, { password: PASSWORD }), password_crypt: crypt }],
      samba: {
        shares: [
          desiredShare('projects', { bind_public_ip: true, users: [{ name: USER, ...perms(true, true) }] }),
        ],
        settings: { workgroup: 'WORKGROUP', server_string: 'Debesis', min_protocol: 'SMB2' },
      },
      nfs: {
        port: 2049,
        exports: [{ path: 'shares/projects', client: CLIENT.address, access: 'read_write', owner: USER }],
      },
    }),
    ftp: {
      enabled: true,
      port: 21,
      passive_port_min: 30000,
      passive_port_max: 30019,
      max_clients: 10,
      max_clients_per_user: 5,
      idle_timeout_minutes: 5,
      tls_required: false,
      users: [{ name: USER, enabled: true, permissions: 'read_write' }],
    },
    sftp: { enabled: true, port: 22 },
    vpn: {
      port: 1194,
      users: [
        { name: USER, enabled: true, password_crypt: crypt, traffic_limit_bytes: 0, cert_generation: 1 },
      ],
    },
    ldap: {
      enabled: true,
      port: 389,
      ldaps_port: 636,
      bind_password_crypt: null,
      anonymous_read: false,
      time_zone: 'Europe/Vilnius',
      users: [],
      alias: null,
    },
    backup: {
      jobs: [],
      clients: [{ name: 'office', password_bcrypt: backupBcrypt }],
      client_repositories: ['office'],
    },
  };
}

const pass = createLivePass({ dataDir: () => dataDir, address: ADDRESS, clientRoutes: [CLIENT.block] });
const said = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

describe.skipIf(reason !== undefined)(
  'live workspace with a 100-character data folder (root, every daemon)',
  { shuffle: false, timeout: 180_000 },
  () => {
    beforeAll(async () => {
      base = await mkdtemp(join(tmpdir(), 'agent-long-'));
      dataDir = join(base, 'd'.repeat(100 - base.length - 1));
      expect(dataDir).toHaveLength(100);
      await mkdir(dataDir);
      clientDir = await mkdtemp(join(tmpdir(), 'agent-long-client-'));
      crypt = await sha512Crypt(PASSWORD);
      backupBcrypt = await cheapBcrypt('Office-push-pass-31');
      await writeFile(join(clientDir, 'hello.txt'), 'hello\n');
      await makeTestClient(CLIENT, [ADDRESS]);
    });

    afterAll(async () => {
      if (!base || process.env.KEEP_LIVE) return;
      await stopAllVpnClients();
      await pass({ ...state(), state: 'removed' }).catch(() => undefined);
      const record = (driver: string, daemon: string) =>
        daemonFiles(join(layout().root, driver), daemon).record;
      await forceCleanWorkspace(layout(), [
        layout().samba.processFile,
        layout().vpn.processFile,
        layout().nfs.processFile,
        ftpFiles(join(layout().root, 'ftp')).process.record,
        sftpFiles(join(layout().root, 'sftp')).process.record,
        join(layout().ldap.runDir, 'slapd.agent.json'),
        record(BACKUP_CLIENTS_DRIVER, 'rclone'),
      ]);
      await removeTestClient(CLIENT);
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(base, { recursive: true, force: true });
      await rm(clientDir, { recursive: true, force: true });
    });

    it('starts every daemon and serves', async () => {
      const { report } = await pass(state());
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });
      for (const driver of DAEMON_DRIVERS)
        expect(
          report.drivers.find((each) => each.driver === driver),
          driver,
        ).toMatchObject({ live: true, serving: true });
      // The directory was loaded through the ldapi socket.
      expect(report.features?.ldap).toBeDefined();

      // SMB from a client beyond the node.
      const smb = await runCommand(
        'ip',
        [
          'netns',
          'exec',
          CLIENT.netns,
          'smbclient',
          `//${ADDRESS}/projects`,
          '-U',
          USER,
          '-m',
          'SMB3',
          '-c',
          `put ${join(clientDir, 'hello.txt')} hello.txt; ls`,
        ],
        { timeoutMs: 60_000, env: { ...process.env, PASSWD: PASSWORD } },
      );
      expect(smb.exitCode, said(smb)).toBe(0);
      expect(smb.stdout).toContain('hello.txt');
    });

    it('a VPN client connects, and the agent sees its session through the management socket', async () => {
      const ovpn = await issueClientConfig(state(), layout(), USER, 1, runCommand);
      const vpn = await connectVpnClient(ovpn, USER, PASSWORD, { netns: CLIENT.netns, dir: clientDir });
      expect(vpn.outcome, vpn.log).toBe('connected');
      const { report } = await pass(state(), undefined, true);
      expect(report.features?.vpn?.sessions.map((session) => session.user)).toEqual([USER]);
      await vpn.stop();
    });
  },
);
