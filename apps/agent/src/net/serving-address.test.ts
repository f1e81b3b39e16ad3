// Where each daemon listens, by the plan's kind of address: a dedicated plan's on the workspace's
// address, a NAT plan's (all but OpenVPN) on the VPN-side address only, seen up by its socket.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ftpSectionSchema,
  ldapSectionSchema,
  VPN_TUNNEL_SERVER_ADDRESS,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { ftpDefinition } from '../drivers/ftp.driver.ts';
import { ldapDefinition } from '../drivers/ldap.driver.ts';
import { nfsDefinition } from '../drivers/nfs.driver.ts';
import { sambaDefinition } from '../drivers/samba.driver.ts';
import { sftpDefinition } from '../drivers/sftp.driver.ts';
import { vpnDefinition } from '../drivers/vpn.driver.ts';
import { renderGlobal } from '../samba/render-smb-conf.ts';
import { SAMBA_SERVER_DEFAULTS } from '@debesis/contract';
import { desiredWorkspace } from '../testing/desired.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { servingAddress } from './serving-address.ts';

const ADDRESS = '198.18.0.7';
const layout = workspaceLayout('/srv/debesis/workspaces/ws');
const context = { layout, dir: join(layout.root, 'x'), dataDir: '/srv/debesis' };

function desired(kind: 'nat' | 'dedicated' | undefined): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: 'ws',
    address: ADDRESS,
    ...(kind ? { address_kind: kind } : {}),
    // The contract's defaults: FTP 21, SFTP 22, NFS 2049, LDAP 389 and 636.
    ftp: ftpSectionSchema.parse({ enabled: true, users: [] }),
    sftp: { enabled: true, port: 22 },
    nfs: { port: 2049, exports: [] },
    ldap: ldapSectionSchema.parse({ enabled: true }),
  });
}

const daemons = [sambaDefinition(), nfsDefinition(), ftpDefinition(), sftpDefinition(), ldapDefinition()];

describe('where a workspace’s daemons listen', () => {
  it('a dedicated plan (or an API that does not say): every daemon on the workspace’s address', () => {
    for (const kind of ['dedicated', undefined] as const) {
      expect(servingAddress(desired(kind))).toBe(ADDRESS);
      for (const daemon of daemons) {
        const listens = daemon.listens(desired(kind));
        expect(listens.host, daemon.name).toBe(ADDRESS);
        expect(listens.probe, daemon.name).toBeUndefined();
      }
    }
  });

  it('a NAT plan: every daemon but OpenVPN on the VPN-side address, waited for by its socket', () => {
    const nat = desired('nat');
    expect(servingAddress(nat)).toBe(VPN_TUNNEL_SERVER_ADDRESS);
    for (const daemon of daemons)
      expect(daemon.listens(nat), daemon.name).toMatchObject({
        host: VPN_TUNNEL_SERVER_ADDRESS,
        probe: 'bound',
      });
    // The one door stays where the customer reaches it.
    expect(vpnDefinition().listens({ ...nat, vpn: { port: 1194, users: [] } })).toMatchObject({
      host: ADDRESS,
      protocol: 'udp',
    });
  });

  it('the command lines name the VPN-side address for a NAT plan, the workspace’s otherwise', () => {
    const argv = (kind: 'nat' | 'dedicated') => ({
      ftp: ftpDefinition().argv(desired(kind), context).join(' '),
      ldap: ldapDefinition().argv(desired(kind), context).join(' '),
    });
    expect(argv('nat').ftp).toContain(`${VPN_TUNNEL_SERVER_ADDRESS},21`);
    expect(argv('nat').ldap).toContain(
      `ldap://${VPN_TUNNEL_SERVER_ADDRESS}:389/ ldaps://${VPN_TUNNEL_SERVER_ADDRESS}:636/`,
    );
    expect(`${argv('nat').ftp} ${argv('nat').ldap}`).not.toContain(ADDRESS);
    expect(argv('dedicated').ftp).toContain(`${ADDRESS},21`);
    expect(argv('dedicated').ldap).toContain(`ldap://${ADDRESS}:389/`);
  });

  it('smbd binds the VPN-side address alone for a NAT plan, every address otherwise', () => {
    const options = {
      port: 445,
      netbiosName: 'WSWS',
      layout: layout.samba,
      guests: false,
      settings: SAMBA_SERVER_DEFAULTS,
      audit: false,
    };
    const nat = renderGlobal({ ...options, only: VPN_TUNNEL_SERVER_ADDRESS });
    expect(nat).toContain(`interfaces = ${VPN_TUNNEL_SERVER_ADDRESS}\nbind interfaces only = yes\n`);
    const dedicated = renderGlobal(options);
    expect(dedicated).toContain('bind interfaces only = no\n');
    expect(dedicated).not.toContain('interfaces = ');
  });
});
