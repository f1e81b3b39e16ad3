// The finding "a backup client's VPN login is a full tunnel", replayed as root against the real
// programs: a subuser made a backup client, downloaded its .ovpn, connected, and read a guest SMB
// share through the tunnel. Now a backup client's login gets an address of the confined range and
// the workspace's namespace delivers nothing from that range but TCP to the REST server
// (vpn/backup-client-tunnel.ts): from a client namespace connected with the backup client's
// .ovpn, restic pushes to the REST server, while smbclient to the workspace's SMB through the
// tunnel fails; a person's login, connected the same way from another client, still reads the
// share (so the SMB check can succeed). Elsewhere it is skipped with the reason printed.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_CLIENT_PORT,
  SAMBA_SERVER_DEFAULTS,
  VPN_TUNNEL_SERVER_ADDRESS,
  WORKSPACE_ID_FIRST_BASE,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { BACKUP_CLIENTS_DRIVER } from './drivers/backup-clients.driver.ts';
import { daemonFiles } from './daemons/supervisor.ts';
import { runCommand, type CommandResult } from './exec/run-command.ts';
import { exists } from './system/host.ts';
import { desiredShare, desiredWorkspace } from './testing/desired.ts';
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
import { BACKUP_CLIENT_RANGE } from './vpn/backup-client-tunnel.ts';
import { EASYRSA, issueClientConfig } from './vpn/pki.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = [...LIVE_WORKSPACE_PROGRAMS, 'openvpn', 'openssl', EASYRSA, 'rclone', 'restic'];
const reason =
  (await liveSkipReason('backup client tunnel security test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const SERVICE = `bkt-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];
const MACHINE = testClient(Number(ADDRESS.split('.')[2]));
const PERSON = testClient(Number(MACHINE.block.split('.')[2]));
const PASSWORDS = { office: 'Office-push-pass-31', alice: 'Alice-vpn-pass-42' };
const hashes: Record<string, { crypt: string; bcrypt: string }> = {};

let dataDir: string;
let clientDir: string;
const layout = () => workspaceLayout(join(dataDir, 'workspaces', SERVICE));

function state(): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 32 * 1024 * 1024,
    id_base: WORKSPACE_ID_FIRST_BASE,
    samba: { shares: [desiredShare('public', { guest_ok: true })], settings: SAMBA_SERVER_DEFAULTS },
    vpn: {
      port: 1194,
      users: [
        {
          name: 'office',
          enabled: true,
          password_crypt: hashes.office!.crypt,
          traffic_limit_bytes: 0,
          cert_generation: 1,
          backup_client: true,
        },
        {
          name: 'alice',
          enabled: true,
          password_crypt: hashes.alice!.crypt,
          traffic_limit_bytes: 0,
          cert_generation: 1,
        },
      ],
    },
    backup: {
      jobs: [],
      clients: [{ name: 'office', password_bcrypt: hashes.office!.bcrypt }],
      client_repositories: ['office'],
    },
  });
}

const pass = createLivePass({
  dataDir: () => dataDir,
  address: ADDRESS,
  clientRoutes: [MACHINE.block, PERSON.block],
});
const said = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

/** The guest share, listed through the tunnel at the VPN server's address (smbd listens there too). */
const smbThroughTunnel = (netns: string) =>
  runCommand(
    'ip',
    [
      'netns',
      'exec',
      netns,
      'smbclient',
      `//${VPN_TUNNEL_SERVER_ADDRESS}/public`,
      '-N',
      '-m',
      'SMB3',
      '-c',
      'ls',
    ],
    { timeoutMs: 30_000 },
  );

describe.skipIf(reason !== undefined)(
  'live security: a backup client’s VPN login reaches its REST server only',
  { shuffle: false, timeout: 120_000 },
  () => {
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-backup-tunnel-'));
      clientDir = await mkdtemp(join(tmpdir(), 'agent-backup-tunnel-client-'));
      for (const [name, password] of Object.entries(PASSWORDS)) {
        hashes[name] = { crypt: await sha512Crypt(password), bcrypt: await cheapBcrypt(password) };
      }
      await writeFile(join(clientDir, 'files.txt'), 'the customer’s own files\n');
      await makeTestClient(MACHINE, [ADDRESS]);
      await makeTestClient(PERSON, [ADDRESS]);
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      await stopAllVpnClients();
      await pass({ ...state(), state: 'removed' }).catch(() => undefined);
      await forceCleanWorkspace(layout(), [
        layout().samba.processFile,
        layout().vpn.processFile,
        daemonFiles(join(layout().root, BACKUP_CLIENTS_DRIVER), 'rclone').record,
      ]);
      await removeTestClient(MACHINE);
      await removeTestClient(PERSON);
      await removeTestNetworks([SERVICE], [ADDRESS]);
      await rm(dataDir, { recursive: true, force: true });
      await rm(clientDir, { recursive: true, force: true });
    });

    it('the backup client pushes to its REST server and reaches nothing else; a person still reads the share', async () => {
      const { report } = await pass(state());
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });

      const machine = await connectVpnClient(
        await issueClientConfig(state(), layout(), 'office', 1, runCommand),
        'office',
        PASSWORDS.office,
        { netns: MACHINE.netns, dir: clientDir },
      );
      expect(machine.outcome, machine.log).toBe('connected');
      // Its address is of the confined range (10.8.0.128/25), fixed by its client-config-dir file.
      const range = BACKUP_CLIENT_RANGE.split('.').slice(0, 3).join('.');
      expect(machine.virtualAddress?.startsWith(`${range}.`)).toBe(true);
      expect(Number(machine.virtualAddress?.split('.')[3])).toBeGreaterThanOrEqual(128);

      const url = `rest:http://office:${PASSWORDS.office}@${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}/office/`;
      const restic = (args: string[]) =>
        runCommand('ip', ['netns', 'exec', MACHINE.netns, 'restic', '--no-cache', '-r', url, ...args], {
          timeoutMs: 60_000,
          env: { ...process.env, RESTIC_PASSWORD: 'the-customers-own-key', HOME: clientDir },
        });
      const init = await restic(['init']);
      expect(init.exitCode, said(init)).toBe(0);
      const backup = await restic(['backup', join(clientDir, 'files.txt')]);
      expect(backup.exitCode, said(backup)).toBe(0);

      // The finding: the guest share through the tunnel. Refused now.
      const fromMachine = await smbThroughTunnel(MACHINE.netns);
      expect(fromMachine.exitCode, said(fromMachine)).not.toBe(0);

      // A person's login reads it the same way: the refusal is the range's, not the check's.
      const person = await connectVpnClient(
        await issueClientConfig(state(), layout(), 'alice', 1, runCommand),
        'alice',
        PASSWORDS.alice,
        { netns: PERSON.netns, dir: clientDir },
      );
      expect(person.outcome, person.log).toBe('connected');
      expect(Number(person.virtualAddress?.split('.')[3])).toBeLessThan(128);
      const fromPerson = await smbThroughTunnel(PERSON.netns);
      expect(fromPerson.exitCode, said(fromPerson)).toBe(0);
    });
  },
);
