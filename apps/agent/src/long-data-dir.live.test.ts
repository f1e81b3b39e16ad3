// A node whose data folder (AGENT_DATA_DIR) is 100 characters long, as root against the real
// programs: every daemon a workspace runs starts and serves (smbd, openvpn, ganesha, pure-ftpd,
// sshd, slapd, rclone). Their UNIX sockets (smbd's messaging, openvpn's management, slapd's
// ldapi) are in the workspace's short runtime folder (workspace-layout.ts), not under the data
// folder: there, with a folder of 37 characters already, every smbd exited at start (its
// `<lock dir>/msg.sock/<pid>` passed the 107 bytes of a socket's path). Elsewhere it is skipped
// with the reason printed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE, type WorkspaceDesiredState } from '@debesis/contract';
import { BACKUP_CLIENTS_DRIVER } from './drivers/backup-clients.driver.ts';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { exists } from './system/host.ts';
import {
  desiredFtp,
  desiredLdap,
  desiredShare,
  desiredUser,
  desiredWorkspace,
  perms,
} from './testing/desired.ts';
import { cheapBcrypt, sha512Crypt } from './testing/passwords.ts';
import { LIVE_EVERY_DAEMON_PROGRAMS, liveSkipReason, liveWorkspace } from './testing/live.ts';
import { connectVpnClient } from './testing/vpn-client.ts';
import { issueClientConfig } from './vpn/pki.ts';

const PROGRAMS = [...LIVE_EVERY_DAEMON_PROGRAMS, 'ssh-keygen', 'slaptest', 'ldapmodify', 'rclone', 'curl'];
const reason =
  (await liveSkipReason('long data folder test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const B = WORKSPACE_ID_FIRST_BASE;
const workspace = liveWorkspace('long', { dataDirLength: 100 });
const { service: SERVICE, address: ADDRESS, client: CLIENT, pass, layout, dataDir, clientDir } = workspace;
const USER = 'alice';
const PASSWORD = 'Alice-long-pass-7';
const DAEMON_DRIVERS = ['samba', 'vpn', 'nfs', 'ftp', 'sftp', 'ldap', BACKUP_CLIENTS_DRIVER];

let crypt: string;
let backupBcrypt: string;

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
    ftp: desiredFtp([{ name: USER, enabled: true, permissions: 'read_write' }]),
    sftp: { enabled: true, port: 22 },
    vpn: {
      port: 1194,
      users: [
        { name: USER, enabled: true, password_crypt: crypt, traffic_limit_bytes: 0, cert_generation: 1 },
      ],
    },
    ldap: desiredLdap(),
    backup: {
      jobs: [],
      clients: [{ name: 'office', password_bcrypt: backupBcrypt }],
      client_repositories: ['office'],
    },
  };
}

const said = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

describe.skipIf(reason !== undefined)(
  'live workspace with a 100-character data folder (root, every daemon)',
  { shuffle: false, timeout: 180_000 },
  () => {
    beforeAll(async () => {
      await workspace.create();
      expect(dataDir()).toHaveLength(100);
      crypt = await sha512Crypt(PASSWORD);
      backupBcrypt = await cheapBcrypt('Office-push-pass-31');
      await writeFile(join(clientDir(), 'hello.txt'), 'hello\n');
    });

    afterAll(() => workspace.remove(state()));

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
          `put ${join(clientDir(), 'hello.txt')} hello.txt; ls`,
        ],
        { timeoutMs: 60_000, env: { ...process.env, PASSWD: PASSWORD } },
      );
      expect(smb.exitCode, said(smb)).toBe(0);
      expect(smb.stdout).toContain('hello.txt');
    });

    it('a VPN client connects, and the agent sees its session through the management socket', async () => {
      const ovpn = await issueClientConfig(state(), layout(), USER, 1, runCommand);
      const vpn = await connectVpnClient(ovpn, USER, PASSWORD, { netns: CLIENT.netns, dir: clientDir() });
      expect(vpn.outcome, vpn.log).toBe('connected');
      const { report } = await pass(state(), undefined, true);
      expect(report.features?.vpn?.sessions.map((session) => session.user)).toEqual([USER]);
      await vpn.stop();
    });
  },
);
