// The workspace's VPN (service-management §3 "VPN user", §4, §5, §7 "VPN"). Base
// /api/v1/vpn/{serviceId}:
//   GET status, sessions, traffic            the server, who is connected, bytes over time
//   GET, POST users                          list / create (201)
//   GET, PATCH, DELETE users/{userId}        one user / change (enabled, names, limit) / delete (204)
//   POST users/{userId}/reset-password       a new password
//   POST users/{userId}/disconnect           end its sessions now
//   POST users/{userId}/revoke               its certificate stops working (a config downloaded
//                                            later carries a new one); its sessions end
//   POST sessions/kill-all                   end every session of the workspace
//   GET users/{userId}/config?type=ovpn      the client config as JSON
//   GET users/{userId}/config/download       the same as a file (.ovpn, inline certificates)
//   POST users/{userId}/config/link          beyond the spec: a one-time link to the file that
//                                            lives a few minutes, for a phone (QR code)
//   POST restart; POST reload                the server alone; send the desired state again
// and, public, GET /api/v1/vpn/config-links/{token}: the file behind a one-time link.
//
// VPN users are their own accounts (the spec's entity with its own password, names, limit), not
// the service's Unix users: a VPN login is for a person or a device to reach the workspace's
// network. A service may hold as many as its plan has users (`limit`), counted apart from service
// users. `{userId}` is the VPN user's id.
import { z } from 'zod';
import { text } from '../../strings.ts';
import {
  applyStatusFields,
  workspaceNameSchema,
  workspacePasswordSchema,
  workspaceServiceParamsSchema,
  workspaceResourceFields,
} from '../users/directory.ts';

/** Traffic limit: bytes per calendar month, 0 = unlimited (spec §9), at most 1 PiB. */
export const vpnTrafficLimitSchema = z
  .number({ error: 'invalid_type' })
  .int('invalid_type')
  .min(0, 'vpn_traffic_limit_negative')
  .max(2 ** 50);

const optionalText = (max: number) => text().trim().max(max);

export const vpnUserParamsSchema = workspaceServiceParamsSchema.extend({
  userId: z.uuid({ error: 'invalid_format' }),
});

export const createVpnUserRequestSchema = z.object({
  /** Letters, numbers, `-` and `_` (spec §5), as service users' names. */
  username: workspaceNameSchema,
  password: workspacePasswordSchema,
  enabled: z.boolean().default(true),
  full_name: optionalText(200).default(''),
  /** Optional; an address the user can be told at. */
  email: z.union([z.literal(''), z.email({ error: 'invalid_email' }).max(254)]).default(''),
  traffic_limit_bytes: vpnTrafficLimitSchema.default(0),
});
export type CreateVpnUserRequest = z.input<typeof createVpnUserRequestSchema>;

/** Every field optional; the username stays (it names the user's certificate). */
export const updateVpnUserRequestSchema = z.strictObject({
  enabled: z.boolean().optional(),
  full_name: optionalText(200).optional(),
  email: z.union([z.literal(''), z.email({ error: 'invalid_email' }).max(254)]).optional(),
  traffic_limit_bytes: vpnTrafficLimitSchema.optional(),
});
export type UpdateVpnUserRequest = z.input<typeof updateVpnUserRequestSchema>;

export const vpnResetPasswordRequestSchema = z.object({ password: workspacePasswordSchema });
export type VpnResetPasswordRequest = z.input<typeof vpnResetPasswordRequestSchema>;

export const vpnUserSchema = z.object({
  id: text(),
  username: text(),
  enabled: z.boolean(),
  full_name: text(),
  email: text(),
  traffic_limit_bytes: z.number().int(),
  /** Bytes moved this calendar month (UTC), sent + received, as the node last counted. */
  traffic_used_bytes: z.number().int(),
  /** Cut off for this month: over its limit. */
  over_limit: z.boolean(),
  /** When its certificate was last revoked; null: never. */
  revoked_at: text().nullable(),
  /** Connected now (one session or more, as the node last reported). */
  online: z.boolean(),
  /** Of its latest session, null when offline. */
  real_ip: text().nullable(),
  virtual_ip: text().nullable(),
  bytes_sent: z.number().int(),
  bytes_received: z.number().int(),
  connected_since: text().nullable(),
  ...workspaceResourceFields,
});
export type VpnUser = z.infer<typeof vpnUserSchema>;

export const vpnUsersResponseSchema = z.object({
  users: z.array(vpnUserSchema),
  /** How many VPN users the service's plan allows (its user count). */
  limit: z.number().int(),
});
export type VpnUsersResponse = z.infer<typeof vpnUsersResponseSchema>;

export const vpnSessionSchema = z.object({
  user_id: text(),
  username: text(),
  /** The login is a backup client's (Backups tab), not one of the VPN users listed here. */
  backup_client: z.boolean(),
  real_address: text(),
  virtual_address: text(),
  /** Bytes the server sent to the client / received from it in this session. */
  bytes_sent: z.number().int(),
  bytes_received: z.number().int(),
  connected_since: text(),
});
export type VpnSession = z.infer<typeof vpnSessionSchema>;

export const vpnSessionsResponseSchema = z.object({
  sessions: z.array(vpnSessionSchema),
  /** When the node last reported them; null: never. */
  reported_at: text().nullable(),
});
export type VpnSessionsResponse = z.infer<typeof vpnSessionsResponseSchema>;

/** Beyond the spec: how many sessions ended (disconnect, kill-all). */
export const vpnDisconnectResponseSchema = z.object({ disconnected: z.number().int() });
export type VpnDisconnectResponse = z.infer<typeof vpnDisconnectResponseSchema>;

export const VPN_TRAFFIC_RANGES = ['24h', '7d', '30d'] as const;
export type VpnTrafficRange = (typeof VPN_TRAFFIC_RANGES)[number];

export const vpnTrafficQuerySchema = z.object({
  range: z.enum(VPN_TRAFFIC_RANGES, { error: 'invalid_value' }).default('24h'),
  /** One user's traffic; absent: the whole workspace's. */
  user_id: z.uuid({ error: 'invalid_format' }).optional(),
});

export const vpnTrafficResponseSchema = z.object({
  range: z.enum(VPN_TRAFFIC_RANGES),
  /** Hourly buckets for 24h, daily for 7d and 30d, oldest first, every bucket present. */
  buckets: z.array(
    z.object({ start: text(), bytes_sent: z.number().int(), bytes_received: z.number().int() }),
  ),
});
export type VpnTrafficResponse = z.infer<typeof vpnTrafficResponseSchema>;

export const VPN_CONFIG_TYPES = ['ovpn'] as const;
export const vpnConfigQuerySchema = z.object({
  type: z.enum(VPN_CONFIG_TYPES, { error: 'invalid_value' }).default('ovpn'),
});
export const vpnConfigResponseSchema = z.object({
  type: z.enum(VPN_CONFIG_TYPES),
  /** `<service name>-<username>.ovpn`, safe as a file name. */
  filename: text(),
  content: text(),
});
export type VpnConfigResponse = z.infer<typeof vpnConfigResponseSchema>;

/** How long a one-time config link lives. */
export const VPN_CONFIG_LINK_TTL_SECONDS = 300;
export const vpnConfigLinkResponseSchema = z.object({
  /** Absolute URL of the file; it works once, until expires_at. */
  url: text(),
  expires_at: text(),
});
export type VpnConfigLinkResponse = z.infer<typeof vpnConfigLinkResponseSchema>;
export const vpnConfigLinkParamsSchema = z.object({ token: text().min(20).max(200) });

export const vpnStatusSchema = z.object({
  /** Whether the service runs on a node; until then nothing is served. */
  placed: z.boolean(),
  /** Where clients connect (the workspace's address) and on which UDP port. */
  address: text().nullable(),
  port: z.number().int(),
  protocol: z.literal('udp'),
  /**
   * The server's own address inside the tunnel: where a connected client reaches the workspace's
   * services (a Samba share not bound to the public IP answers only there).
   */
  tunnel_address: text(),
  /** The tunnel's network; each client gets an address of it. */
  tunnel_network: text(),
  /** The node's word on its VPN driver; null until it reports. */
  live: z.boolean().nullable(),
  /** Whether the server runs now; null until reported or when no VPN user exists. */
  serving: z.boolean().nullable(),
  reason: text().nullable(),
  apply_status: z.enum(applyStatusFields.apply_status.options),
  generation: z.number().int(),
  observed_generation: z.number().int(),
  reported_at: text().nullable(),
  users: z.number().int(),
  sessions: z.number().int(),
  limit: z.number().int(),
});
export type VpnStatus = z.infer<typeof vpnStatusSchema>;
