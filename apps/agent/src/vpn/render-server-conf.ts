// One workspace's OpenVPN server.conf, rendered from its desired state: a UDP server on the
// workspace's own address inside its namespace, the tunnel network of every workspace
// (VPN_TUNNEL_NETWORK, each namespace has its own), EC certificates without Diffie-Hellman
// parameters, tls-crypt, and two checks at every connect that read files the agent keeps current
// without a restart: the CRL (crl-verify) and the password script (auth-user-pass-verify …
// via-file) over the users file. Sessions are listed and ended through the management interface
// on a UNIX socket in the VPN folder (the agent sits in the node's network namespace, which a TCP
// port inside the workspace's would not reach). Deterministic: the same state renders the same
// bytes, and the driver restarts openvpn only when they differ. Every value goes through
// daemons/config-formats.ts; what cannot be written safely is refused with an error.
import { isIPv4 } from 'node:net';
import { VPN_TUNNEL_NETWORK } from '@debesis/contract';
import { openvpnConf } from '../daemons/config-formats.ts';
import { PERSON_POOL } from './backup-client-tunnel.ts';
import type { VpnLayout } from './vpn-layout.ts';

export interface ServerConfOptions {
  address: string;
  port: number;
  layout: VpnLayout;
  /** The owner's VPN restart token: a new one changes the file, and so restarts the server. */
  restartToken?: string;
}

/** `10.8.0.0/24` → `10.8.0.0 255.255.255.0`, as `server` takes it. Throws on anything else. */
export function serverNetwork(cidr: string): string {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr);
  const prefix = Number(match?.[2]);
  if (!match || !isIPv4(match[1]!) || prefix < 8 || prefix > 29)
    throw new Error(`${JSON.stringify(cidr)} is no tunnel network OpenVPN can serve`);
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  const octets = match[1]!.split('.').map(Number);
  const base = octets.reduce((acc, octet) => acc * 256 + octet, 0);
  if ((base & ~mask) >>> 0 !== 0) throw new Error(`${cidr} has host bits set`);
  const dotted = [24, 16, 8, 0].map((shift) => (mask >>> shift) & 255).join('.');
  return `${match[1]} ${dotted}`;
}

export function renderServerConf(options: ServerConfOptions): string {
  const { layout } = options;
  if (!isIPv4(options.address))
    throw new Error(
      `${JSON.stringify(options.address.slice(0, 64))}: the VPN listens on an IPv4 address only`,
    );
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535)
    throw new Error(`${options.port} is no UDP port`);
  const { arg } = openvpnConf;
  const lines = ['# Rendered by the Debesis agent from the desired state: changes here are overwritten.'];
  const token = openvpnConf.comment(options.restartToken ?? '');
  if (token) lines.push(`# restart token: ${token}`);
  lines.push(
    'dev tun',
    'proto udp',
    `local ${options.address}`,
    `port ${options.port}`,
    'topology subnet',
    // People's logins from the pool of the lower half; backup clients' at fixed addresses of the
    // upper half, from their file in client-config-dir (vpn/backup-client-tunnel.ts).
    `server ${serverNetwork(VPN_TUNNEL_NETWORK)} nopool`,
    `ifconfig-pool ${PERSON_POOL.start} ${PERSON_POOL.end} ${serverNetwork(VPN_TUNNEL_NETWORK).split(' ')[1]}`,
    `client-config-dir ${arg(layout.ccdDir)}`,
    `ca ${arg(layout.caCert)}`,
    `cert ${arg(layout.serverCert)}`,
    `key ${arg(layout.serverKey)}`,
    // EC keys: ECDH on the certificate's curve, no DH parameters to make (minutes with RSA).
    'dh none',
    'ecdh-curve prime256v1',
    'tls-version-min 1.2',
    // Packets without the workspace's key are dropped before any TLS work.
    `tls-crypt ${arg(layout.tlsCryptKey)}`,
    'remote-cert-tls client',
    // Re-read at every connect: a revoked certificate is refused without a restart.
    `crl-verify ${arg(layout.crl)}`,
    // Certificate AND password: the script refuses unless the name is the certificate's CN, the
    // user is enabled, not over its limit, and the password matches (re-reads its files each time).
    'script-security 2',
    `auth-user-pass-verify ${openvpnConf.command(layout.checkPassword)} via-file`,
    // A client that comes or goes is told to the agent at once (it reports the sessions then,
    // not at its next poll): the script writes a file the agent watches (wake-files.ts).
    `client-connect ${openvpnConf.command(layout.sessionEvent)}`,
    `client-disconnect ${openvpnConf.command(layout.sessionEvent)}`,
    `tmp-dir ${arg(layout.tmpDir)}`,
    `management ${arg(layout.managementSocket)} unix`,
    'keepalive 10 60',
    'persist-key',
    'persist-tun',
    `log-append ${arg(layout.logFile)}`,
    'verb 3',
  );
  return lines.join('\n') + '\n';
}
