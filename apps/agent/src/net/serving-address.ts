// Where a workspace's services answer, by its plan's kind of address (issue 36 point 13).
//
// A dedicated plan's workspace answers on its own address: customers reach every service there.
// A NAT plan (Starter) has no address customers reach directly: its VPN server is the one door.
// OpenVPN alone stays on the pool address (the node has no NAT in its kernel to share one node
// address among workspaces by port, so the pool address is the VPN's door); every other daemon
// (Samba, NFS, FTP, SFTP, LDAP, the backup clients' REST server) answers only on the VPN-side
// address, the tunnel's server address, which no packet from outside the tunnel can reach.
//
// That address is also kept on the namespace's `lo` (the network driver puts it there for a NAT
// workspace), so the daemons can bind to it before, and while, openvpn is down; connected clients
// reach it through tun0 all the same. The node cannot reach it (it is inside the namespace only),
// so the agent sees such a daemon up by its socket table, not by connecting.
import { servicesAddress, VPN_TUNNEL_SERVER_ADDRESS, type WorkspaceDesiredState } from '@debesis/contract';
import type { Listens } from './wait-for-port.ts';

/** Whether the workspace's plan reaches its services through the VPN only. */
export function vpnOnly(desired: Pick<WorkspaceDesiredState, 'address_kind'>): boolean {
  return desired.address_kind === 'nat';
}

/** The address every daemon but OpenVPN binds to. */
export function servingAddress(desired: Pick<WorkspaceDesiredState, 'address' | 'address_kind'>): string {
  // The contract's rule, which the API also names to the owner.
  return servicesAddress(desired.address, desired.address_kind ?? 'dedicated');
}

/** What a TCP daemon on the serving address is waited for by (daemons/definition.ts `listens`). */
export function servingListens(
  desired: Pick<WorkspaceDesiredState, 'address' | 'address_kind'>,
  port: number,
): Listens {
  return vpnOnly(desired)
    ? { host: VPN_TUNNEL_SERVER_ADDRESS, port, probe: 'bound' }
    : { host: desired.address, port };
}
