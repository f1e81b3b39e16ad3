// Samba shares (service-management §3 "Samba share", §5, §7 "Samba"). Base
// /api/v1/samba/{serviceId}:
//   GET, POST shares                          list / create (201)
//   PATCH, DELETE shares/{share}              change / delete (204)
//   GET, POST shares/{share}/users            the share's users / allow one more (201)
//   DELETE shares/{share}/users/{user}        take a user's access away (204)
//   GET shares/{share}/permissions            who may do what: users, then allowed groups
//   PATCH shares/{share}/permissions/{user}   change one user's read, write, execute, admin
//   GET status; POST reload; POST settings    the workspace's Samba server as a whole
//
// A share's users are users of the service, each with their own permissions (write, execute
// and admin need read; an entry with none keeps the user out); its groups are groups of the
// service, whose members may read and write (a user's own entry wins). A share lives in the
// workspace's storage at `shares/<name>` unless given another relative path.
import { z } from 'zod';
import { text } from '../../strings.ts';
import {
  applyStatusFields,
  workspaceDescriptionSchema,
  workspaceNameRefSchema,
  workspaceNameSchema,
  workspaceServiceParamsSchema,
  workspaceResourceFields,
} from '../users/directory.ts';
import { SAMBA_MIN_PROTOCOLS, SAMBA_SERVER_DEFAULTS } from './samba-node.ts';

/** Shares a service may hold. */
export const SAMBA_SHARES_MAX = 200;

/** Top-level folders of a workspace's storage the node keeps for itself (users' homes, backups). */
export const RESERVED_SHARE_ROOTS = ['home', 'backups', 'system'] as const;

/** Relative, inside the workspace: segments of letters, numbers, `_` and `-`; no `..`, no `/` first. */
export const sharePathSchema = text()
  .trim()
  .min(1, 'required')
  .max(255)
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'share_path_invalid')
  .refine(
    (path) => !(RESERVED_SHARE_ROOTS as readonly string[]).includes(path.split('/')[0]?.toLowerCase() ?? ''),
    'share_path_reserved',
  );

export const sambaShareParamsSchema = workspaceServiceParamsSchema.extend({
  share: text().min(1).max(200),
});
export const sambaShareUserParamsSchema = sambaShareParamsSchema.extend({
  user: text().min(1).max(200),
});

/** Defaults for a user given access: read and write, as for an allowed group's members. */
export const sambaShareUserRequestSchema = z.object({
  name: workspaceNameRefSchema,
  read: z.boolean().default(true),
  write: z.boolean().default(true),
  execute: z.boolean().default(false),
  admin: z.boolean().default(false),
});
export type SambaShareUserRequest = z.input<typeof sambaShareUserRequestSchema>;

export const createSambaShareRequestSchema = z.object({
  name: workspaceNameSchema,
  /** Default `shares/<name>`. */
  path: sharePathSchema.optional(),
  description: workspaceDescriptionSchema.default(''),
  /** Open to anyone without a password; refused together with bind_public_ip. */
  guest_ok: z.boolean().default(false),
  browseable: z.boolean().default(true),
  /**
   * Reachable by anyone on the workspace's public address; off (the default): through the
   * workspace's VPN only. Refused on a plan without a public address (NAT).
   */
  bind_public_ip: z.boolean().default(false),
  users: z.array(sambaShareUserRequestSchema).max(1000).default([]),
  groups: z.array(workspaceNameRefSchema).max(1000).default([]),
});
export type CreateSambaShareRequest = z.input<typeof createSambaShareRequestSchema>;

/** Every field optional; `users` and `groups` replace the whole lists. A share keeps its name. */
export const updateSambaShareRequestSchema = z.strictObject({
  path: sharePathSchema.optional(),
  description: workspaceDescriptionSchema.optional(),
  guest_ok: z.boolean().optional(),
  browseable: z.boolean().optional(),
  bind_public_ip: z.boolean().optional(),
  users: z.array(sambaShareUserRequestSchema).max(1000).optional(),
  groups: z.array(workspaceNameRefSchema).max(1000).optional(),
});
export type UpdateSambaShareRequest = z.input<typeof updateSambaShareRequestSchema>;

/** The permissions to change; the others stay. */
export const sambaSharePermissionsRequestSchema = z.strictObject({
  read: z.boolean().optional(),
  write: z.boolean().optional(),
  execute: z.boolean().optional(),
  admin: z.boolean().optional(),
});
export type SambaSharePermissionsRequest = z.input<typeof sambaSharePermissionsRequestSchema>;

export const sambaShareUserSchema = z.object({
  name: text(),
  read: z.boolean(),
  write: z.boolean(),
  execute: z.boolean(),
  admin: z.boolean(),
});
export type SambaShareUser = z.infer<typeof sambaShareUserSchema>;

export const sambaShareSchema = z.object({
  name: text(),
  path: text(),
  description: text(),
  guest_ok: z.boolean(),
  browseable: z.boolean(),
  bind_public_ip: z.boolean(),
  users: z.array(sambaShareUserSchema),
  groups: z.array(text()),
  ...workspaceResourceFields,
});
export type SambaShare = z.infer<typeof sambaShareSchema>;

export const sambaSharesResponseSchema = z.object({ shares: z.array(sambaShareSchema) });
export type SambaSharesResponse = z.infer<typeof sambaSharesResponseSchema>;

export const sambaShareUsersResponseSchema = z.object({ users: z.array(sambaShareUserSchema) });
export type SambaShareUsersResponse = z.infer<typeof sambaShareUsersResponseSchema>;

export const sambaSharePermissionsResponseSchema = z.object({
  share: text(),
  /** Users with their own entries, then allowed groups (whose members read and write). */
  permissions: z.array(sambaShareUserSchema.extend({ kind: z.enum(['user', 'group']) })),
});
export type SambaSharePermissionsResponse = z.infer<typeof sambaSharePermissionsResponseSchema>;

/**
 * Workspace-wide Samba settings a provider offers: how the server is named on the network and
 * the oldest protocol it speaks (SMB1 is never offered: it is insecure). Absent fields keep their
 * value. `%` and line breaks are refused: Samba would read them as macros or new settings.
 */
export const sambaSettingsRequestSchema = z.strictObject({
  /** NetBIOS workgroup: 1-15 letters, numbers, `_` or `-`; kept in upper case. */
  workgroup: text()
    .trim()
    .min(1, 'required')
    .max(15)
    .regex(/^[A-Za-z0-9_-]+$/, 'samba_workgroup_invalid')
    .transform((value) => value.toUpperCase())
    .optional(),
  /** What clients show as the server's description. */
  server_string: text()
    .trim()
    .max(64)
    .regex(/^[\p{L}\p{N} .,_()'-]*$/u, 'samba_server_string_invalid')
    .optional(),
  min_protocol: z.enum(SAMBA_MIN_PROTOCOLS, { error: 'invalid_value' }).optional(),
});
export type SambaSettingsRequest = z.input<typeof sambaSettingsRequestSchema>;

export const sambaSettingsSchema = z.object({
  workgroup: text(),
  server_string: text(),
  min_protocol: z.enum(SAMBA_MIN_PROTOCOLS),
  ...applyStatusFields,
});
export type SambaSettings = z.infer<typeof sambaSettingsSchema>;

export const SAMBA_DEFAULT_SETTINGS = SAMBA_SERVER_DEFAULTS satisfies Omit<
  SambaSettings,
  'apply_status' | 'apply_error'
>;

export const sambaStatusSchema = z.object({
  /** Whether the service runs on a node; until then nothing is served. */
  placed: z.boolean(),
  /**
   * The address clients connect to (\\address\share): servicesAddress, the workspace's own
   * address or, for a NAT plan, the VPN-side one. Null until placed.
   */
  address: text().nullable(),
  /**
   * Whether the plan gives the workspace a public address of its own (a dedicated IP). Without
   * one (a NAT plan) every share is reachable through the workspace's VPN only, and
   * bind_public_ip is refused (`samba_public_ip_not_in_plan`).
   */
  public_address: z.boolean(),
  /**
   * The node's word on its Samba driver: true when smbd serves the shares, false when the
   * configuration is only rendered and checked (`reason` says why); null until it reports.
   */
  live: z.boolean().nullable(),
  reason: text().nullable(),
  /** Whether the node has reached the latest change of the workspace. */
  apply_status: z.enum(applyStatusFields.apply_status.options),
  generation: z.number().int(),
  observed_generation: z.number().int(),
  reported_at: text().nullable(),
  shares: z.number().int(),
  settings: sambaSettingsSchema,
});
export type SambaStatus = z.infer<typeof sambaStatusSchema>;
