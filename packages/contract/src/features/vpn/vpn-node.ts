// The VPN's part of the node protocol (feature-node-part.ts): the workspace's OpenVPN server and
// users as the node applies them, and the sessions and monthly traffic it reports.
import { z } from 'zod';
import { daemonPortSchema, defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

/** The UDP port a workspace's OpenVPN server listens on, on the workspace's own address. */
export const VPN_DEFAULT_PORT = 1194;
/**
 * The tunnel network inside every workspace's namespace: the server is its first address, the
 * clients get the rest. One network serves every workspace, since each lives in its own namespace.
 */
export const VPN_TUNNEL_NETWORK = '10.8.0.0/24';

/** The first host address of an IPv4 network `a.b.c.d/len` (8 ≤ len ≤ 30); throws on anything else. */
export function firstHostAddress(network: string): string {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(network);
  const octets = match?.slice(1, 5).map(Number) ?? [];
  const bits = Number(match?.[5]);
  if (octets.length !== 4 || octets.some((octet) => octet > 255) || !(bits >= 8 && bits <= 30))
    throw new Error(`${JSON.stringify(network)} is no IPv4 network`);
  const base = octets.reduce((value, octet) => value * 256 + octet, 0);
  const first = (base - (base % 2 ** (32 - bits)) + 1) >>> 0;
  return [24, 16, 8, 0].map((shift) => (first >>> shift) & 255).join('.');
}

/** The VPN server's own address inside the tunnel: where a connected client reaches the workspace. */
export const VPN_TUNNEL_SERVER_ADDRESS = firstHostAddress(VPN_TUNNEL_NETWORK);

/** One VPN user as the node should apply it (service-management §3 "VPN user"). */
export const vpnUserStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  /** A disabled user is refused at connect and its sessions are ended. */
  enabled: z.boolean(),
  /** SHA-512 crypt(3) of the VPN password ($6$…): the server checks it at every connect. */
  password_crypt: text().startsWith('$6$'),
  /**
   * Bytes the user may move (sent + received) per calendar month (UTC); 0: unlimited. The node
   * counts, cuts off the user's sessions once over and refuses it until the limit is raised or
   * the month ends.
   */
  traffic_limit_bytes: z.number().int().nonnegative(),
  /**
   * Which certificate the user holds: the node issues one per (user, generation) when asked for
   * the user's config, and revokes (CRL) every certificate of an older generation. A revoke raises it.
   */
  cert_generation: z.number().int().positive(),
  /**
   * The VPN login of a backup client (docs/features/backup-clients.md): the node gives it an
   * address of its own range, whose packets reach the workspace's REST server for backups and
   * nothing else. Absent: a person's login, the whole workspace.
   */
  backup_client: z.boolean().optional(),
});
export type VpnUserState = z.infer<typeof vpnUserStateSchema>;

/** The VPN section of a workspace: its server and its users. */
export const vpnSectionSchema = z.object({
  port: daemonPortSchema.default(VPN_DEFAULT_PORT),
  users: z.array(vpnUserStateSchema),
  /** Changes when the owner restarts the VPN server alone (POST /vpn/{id}/restart). */
  restart_token: text().max(64).optional(),
});
export type VpnSectionState = z.infer<typeof vpnSectionSchema>;

/** A VPN session as the server's management interface lists it (`status 3`, CLIENT_LIST). */
export const vpnSessionReportSchema = z.object({
  user: text().max(64),
  /** Where the client connects from (address:port). */
  real_address: text().max(80),
  /** Its address inside the tunnel. */
  virtual_address: text().max(80),
  /** Bytes the server received from / sent to the client in this session. */
  bytes_received: z.number().int().nonnegative(),
  bytes_sent: z.number().int().nonnegative(),
  /** ISO time. */
  connected_since: text(),
});
export type VpnSessionReport = z.infer<typeof vpnSessionReportSchema>;

/** A user's traffic of one calendar month (UTC), counted by the node across sessions. */
export const vpnUsageReportSchema = z.object({
  user: text().max(64),
  /** `YYYY-MM`. */
  month: text().regex(/^\d{4}-\d{2}$/),
  bytes_received: z.number().int().nonnegative(),
  bytes_sent: z.number().int().nonnegative(),
  /** Over its limit this month: cut off and refused until the limit rises or the month ends. */
  over_limit: z.boolean(),
});
export type VpnUsageReport = z.infer<typeof vpnUsageReportSchema>;

export const vpnReportSchema = z.object({
  sessions: z.array(vpnSessionReportSchema).max(10_000),
  /** Every user with traffic this month (a user missing has moved nothing). */
  usage: z.array(vpnUsageReportSchema).max(10_000),
});
export type VpnReport = z.infer<typeof vpnReportSchema>;

export const vpnNodePart = defineFeatureNodePart({
  feature: 'vpn',
  sections: {
    /** VPN; absent: not used (no VPN users, no server). */
    vpn: vpnSectionSchema.optional(),
  },
  reports: { vpn: vpnReportSchema.optional() },
});
