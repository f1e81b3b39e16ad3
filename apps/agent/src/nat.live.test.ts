// A NAT plan's workspace (Starter) against the real programs, as root (issue 36 point 13): its
// address is the VPN's door only. With Samba, NFS, FTP, SFTP and LDAP all on, a client beyond the
// node (testing/network.ts) finds nothing but OpenVPN there: every TCP port is refused. Through
// the VPN, at the tunnel's server address, every one of them answers, and smbclient lists a share.
// Moved to a dedicated address (a plan change), every daemon answers on the address again.
// Elsewhere it is skipped with the reason printed.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ftpSectionSchema,
  ldapSectionSchema,
  VPN_TUNNEL_NETWORK,
  VPN_TUNNEL_SERVER_ADDRESS,
  WORKSPACE_ID_FIRST_BASE,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { runCommand } from './exec/run-command.ts';
import { exists } from './system/host.ts';
import { networkNames } from './system/netns.ts';
import { desiredShare, desiredUser, desiredWorkspace } from './testing/desired.ts';
import { sha512Crypt } from './testing/passwords.ts';
import { LIVE_EVERY_DAEMON_PROGRAMS, liveSkipReason, liveWorkspace } from './testing/live.ts';
import { connectVpnClient, inClientNamespace } from './testing/vpn-client.ts';
import { issueClientConfig } from './vpn/pki.ts';

const PROGRAMS = [...LIVE_EVERY_DAEMON_PROGRAMS, 'ss'];
const reason =
  (await liveSkipReason('NAT plan test', PROGRAMS)) ??
  ((await exists('/dev/net/tun')) ? undefined : 'no /dev/net/tun');

const B = WORKSPACE_ID_FIRST_BASE;
const workspace = liveWorkspace('nat');
const { service: SERVICE, address: ADDRESS, client: CLIENT, pass, layout, clientDir } = workspace;
const VPN_PASSWORD = 'Alice-vpn-pass-1';
/** Every TCP port a customer would use: smbd, ganesha, pure-ftpd, sshd, slapd (StartTLS, LDAPS). */
const PORTS = { samba: 445, nfs: 2049, ftp: 21, sftp: 22, ldap: 389, ldaps: 636 };

let vpnCrypt: string;

function state(extra: Partial<WorkspaceDesiredState> = {}): WorkspaceDesiredState {
  const alice = { name: 'alice', read: true, write: true, execute: true, admin: false };
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    address_kind: 'nat',
    storage_bytes: 32 * 1024 * 1024,
    id_base: B,
    users: [desiredUser('alice', B + 1)],
    samba: {
      shares: [desiredShare('projects', { users: [alice] })],
      settings: { workgroup: 'WORKGROUP', server_string: 'Debesis', min_protocol: 'SMB2' },
    },
    vpn: {
      port: 1194,
      users: [
        {
          name: 'alice',
          enabled: true,
          password_crypt: vpnCrypt,
          traffic_limit_bytes: 0,
          cert_generation: 1,
        },
      ],
    },
    nfs: {
      port: PORTS.nfs,
      exports: [{ path: 'projects', client: VPN_TUNNEL_NETWORK, access: 'read_write', owner: 'alice' }],
    },
    ftp: ftpSectionSchema.parse({
      enabled: true,
      port: PORTS.ftp,
      users: [{ name: 'alice', enabled: true, permissions: 'read_write' }],
    }),
    sftp: { enabled: true, port: PORTS.sftp },
    ldap: ldapSectionSchema.parse({ enabled: true, port: PORTS.ldap, ldaps_port: PORTS.ldaps }),
    ...extra,
  });
}

/**
 * From the client's namespace, a TCP connect to each port of `host`: `open`, or why not (the
 * error's code; `timeout` after two seconds).
 */
async function probe(host: string): Promise<Record<keyof typeof PORTS, string>> {
  const script = `
    const net = require('net');
    const ports = ${JSON.stringify(PORTS)};
    Promise.all(Object.entries(ports).map(([name, port]) => new Promise((done) => {
      const socket = net.connect(port, ${JSON.stringify(host)});
      socket.setTimeout(2000, () => { socket.destroy(); done([name, 'timeout']); });
      socket.on('connect', () => { socket.destroy(); done([name, 'open']); });
      socket.on('error', (error) => done([name, error.code]));
    }))).then((all) => console.log(JSON.stringify(Object.fromEntries(all))));`;
  const result = await inClientNamespace(CLIENT.netns, process.execPath, ['-e', script]);
  if (!result.ok) throw new Error(`probe of ${host} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<keyof typeof PORTS, string>;
}

const everyPort = (outcome: string) =>
  Object.fromEntries(Object.keys(PORTS).map((name) => [name, outcome])) as Record<keyof typeof PORTS, string>;

describe.skipIf(reason !== undefined)(
  "a live NAT plan's workspace: only its VPN on its address (root, real daemons and clients)",
  { shuffle: false, timeout: 180_000 },
  () => {
    beforeAll(async () => {
      vpnCrypt = await sha512Crypt(VPN_PASSWORD);
      await workspace.create();
    });

    afterAll(() => workspace.remove(state()));

    it('serves every feature, each daemon but OpenVPN listening on the VPN-side address only', async () => {
      const { report } = await pass(state());
      expect(report.error).toBeUndefined();
      expect(report).toMatchObject({ ok: true, failures: [] });
      for (const driver of ['samba', 'vpn', 'nfs', 'ftp', 'sftp', 'ldap'])
        expect(
          report.drivers.find((status) => status.driver === driver),
          driver,
        ).toMatchObject({
          live: true,
          serving: true,
        });
      // Every TCP listener of the namespace, by its local address (ganesha's is an IPv6 socket).
      const listening = await runCommand(
        'ip',
        ['netns', 'exec', networkNames(SERVICE).netns, 'ss', '-Hltn'],
        { check: true },
      );
      const local = listening.stdout
        .trim()
        .split('\n')
        .map((line) =>
          line
            .trim()
            .split(/\s+/)[3]!
            .replace(/^\[::ffff:(.*)\]/, '$1'),
        )
        .sort();
      expect(local).toEqual(
        Object.values(PORTS)
          .map((port) => `${VPN_TUNNEL_SERVER_ADDRESS}:${port}`)
          .sort(),
      );
    });

    it('answers a client beyond the node on no TCP port of its address', async () => {
      expect(await probe(ADDRESS)).toEqual(everyPort('ECONNREFUSED'));
    });

    it('answers every port through the VPN, at the tunnel address, and Samba lists the share', async () => {
      const ovpn = await issueClientConfig(state(), layout(), 'alice', 1, runCommand);
      const alice = await connectVpnClient(ovpn, 'alice', VPN_PASSWORD, {
        netns: CLIENT.netns,
        dir: clientDir(),
        serverLog: () => readFile(layout().vpn.logFile, 'utf8').catch(() => ''),
      });
      try {
        expect(alice.outcome, alice.log).toBe('connected');
        expect(await probe(VPN_TUNNEL_SERVER_ADDRESS)).toEqual(everyPort('open'));
        const listed = await runCommand(
          'ip',
          [
            'netns',
            'exec',
            CLIENT.netns,
            'smbclient',
            `//${VPN_TUNNEL_SERVER_ADDRESS}/projects`,
            '-U',
            'alice',
            '-m',
            'SMB3',
            '-c',
            'ls',
          ],
          { env: { ...process.env, PASSWD: 'alice-password' }, timeoutMs: 30_000 },
        );
        expect(listed.ok, `${listed.stdout}\n${listed.stderr}`).toBe(true);
        // Still nothing on the outside address while the tunnel is up.
        expect(await probe(ADDRESS)).toEqual(everyPort('ECONNREFUSED'));
      } finally {
        await alice.stop();
      }
    });

    it('a plan change to a dedicated address moves every daemon out to the workspace’s address', async () => {
      const { report } = await pass(state({ address_kind: 'dedicated' }));
      expect(report.error).toBeUndefined();
      expect(await probe(ADDRESS)).toEqual(everyPort('open'));
      const lo = await runCommand(
        'ip',
        ['-n', networkNames(SERVICE).netns, '-4', '-o', 'addr', 'show', 'dev', 'lo'],
        {
          check: true,
        },
      );
      expect(lo.stdout).not.toContain(VPN_TUNNEL_SERVER_ADDRESS);
    });
  },
);
