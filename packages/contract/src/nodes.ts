// What a storage node's agent and the control plane say to each other. The agent authenticates
// with a registration token once, then with its own node token (`Authorization: Bearer …`).
import { z } from 'zod';
import { text } from './strings.ts';

export const nodeCapacitySchema = z.object({
  /** Bytes the node can hand out to workspace storage, and how much of that is still free. */
  disk_total_bytes: z.number().int().nonnegative(),
  disk_free_bytes: z.number().int().nonnegative(),
  /** Addresses this node can give to workspaces (a loopback alias range locally). */
  addresses: z.array(text().min(1)).max(4096),
});
export type NodeCapacity = z.infer<typeof nodeCapacitySchema>;

export const nodeRegisterRequestSchema = z.object({
  name: text()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'invalid_format'),
  hostname: text().min(1).max(255),
  agent_version: text().min(1).max(40),
  capacity: nodeCapacitySchema,
});
export type NodeRegisterRequest = z.infer<typeof nodeRegisterRequestSchema>;

export const nodeRegisterResponseSchema = z.object({
  node_id: text().uuid(),
  node_token: text(),
});
export type NodeRegisterResponse = z.infer<typeof nodeRegisterResponseSchema>;

/**
 * Names of workspace users, groups and shares (service-management §5): letters, numbers, hyphens
 * and underscores. They become Unix and Samba names, so they also start with a letter, are at
 * most 32 characters and are compared in lower case (Unix names are case-sensitive, Samba's are
 * not: "Alice" and "alice" would be one Samba user).
 */
export const WORKSPACE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
/** Names a customer may not take: they mean something to the system or to Samba. */
export const RESERVED_WORKSPACE_NAMES = [
  'root',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  'gnats',
  'nobody',
  'nogroup',
  'users',
  'staff',
  'adm',
  'sudo',
  'admin',
  'administrator',
  'guest',
  'homes',
  'printers',
  'print',
  'ipc',
  'global',
  'sshd',
  'ftp',
  'systemd-network',
  'messagebus',
  'openldap',
  'debesis',
] as const;

/**
 * Each workspace owns a block of Unix ids, `id_base … id_base + WORKSPACE_ID_BLOCK − 1`, for its
 * users and groups, so the same name in two workspaces is two different owners on disk.
 * `id_base` itself is the workspace's default group (`users` inside the workspace): the primary
 * group of a user who is primary member of no group.
 */
export const WORKSPACE_ID_BLOCK = 10_000;
export const WORKSPACE_ID_FIRST_BASE = 1_000_000;

export const workspaceUserStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  uid: z.number().int().positive(),
  /** An inactive user keeps files and memberships but cannot sign in anywhere. */
  active: z.boolean(),
  /** SHA-512 crypt(3) of the password ($6$…), for Unix sign-ins (SFTP, FTP, LDAP). */
  password_crypt: text().startsWith('$6$'),
  /** NT hash of the password (MD4 of UTF-16LE), upper-case hex, for Samba's passdb. */
  password_nt: text().regex(/^[0-9A-F]{32}$/),
  /** gid of the user's primary group: the group they are primary member of, else id_base. */
  primary_gid: z.number().int().positive(),
});
export type WorkspaceUserState = z.infer<typeof workspaceUserStateSchema>;

export const workspaceGroupStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  gid: z.number().int().positive(),
  /** Every member's name, primary or supplementary. */
  members: z.array(text().regex(WORKSPACE_NAME_PATTERN)),
});
export type WorkspaceGroupState = z.infer<typeof workspaceGroupStateSchema>;

export const SHARE_PERMISSIONS = ['read', 'write', 'execute', 'admin'] as const;
export const sharePermissionsSchema = z.object({
  read: z.boolean(),
  write: z.boolean(),
  execute: z.boolean(),
  admin: z.boolean(),
});
export type SharePermissions = z.infer<typeof sharePermissionsSchema>;

export const sambaShareStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  /** Folder inside the workspace's storage, relative and without `..` (e.g. `shares/projects`). */
  path: text().regex(/^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/i),
  description: text().max(200),
  guest_ok: z.boolean(),
  browseable: z.boolean(),
  /** Serve it on the workspace's public address (production) as well as the private one. */
  bind_public_ip: z.boolean(),
  /** Users allowed in, each with their own permissions. */
  users: z.array(z.object({ name: text().regex(WORKSPACE_NAME_PATTERN) }).merge(sharePermissionsSchema)),
  /** Groups allowed in: every member may read and write (per-user entries override). */
  groups: z.array(text().regex(WORKSPACE_NAME_PATTERN)),
});
export type SambaShareState = z.infer<typeof sambaShareStateSchema>;

/** The oldest protocol a workspace's smbd may speak (SMB1 is never offered: it is insecure). */
export const SAMBA_MIN_PROTOCOLS = ['SMB2', 'SMB3'] as const;

/** How the workspace's smbd presents itself (spec: Samba settings of the service). */
export const sambaServerSettingsStateSchema = z.object({
  workgroup: text().regex(/^[A-Z0-9_-]{1,15}$/),
  /** One line, no `%` (checked again by the agent before it writes smb.conf). */
  server_string: text().max(64),
  min_protocol: z.enum(SAMBA_MIN_PROTOCOLS),
});
export type SambaServerSettingsState = z.infer<typeof sambaServerSettingsStateSchema>;
export const SAMBA_SERVER_DEFAULTS: SambaServerSettingsState = {
  workgroup: 'WORKGROUP',
  server_string: 'Debesis',
  min_protocol: 'SMB2',
};

/** The Samba section of a workspace: its shares and its server settings. */
export const sambaSectionSchema = z.object({
  shares: z.array(sambaShareStateSchema),
  /** The workspace-wide server settings; an older API sends none and the defaults hold. */
  settings: sambaServerSettingsStateSchema.default(SAMBA_SERVER_DEFAULTS),
});
export type SambaSectionState = z.infer<typeof sambaSectionSchema>;
/** What a node takes an absent Samba section for: Samba not used, nothing shared. */
export const SAMBA_NOT_USED: SambaSectionState = { shares: [], settings: SAMBA_SERVER_DEFAULTS };

/**
 * The sections of a workspace's desired state that its features fill, one key per feature's
 * part (the API's workspace feature registry assembles them). Every section may be absent: the
 * feature is not used there (no users, no Samba). A new feature adds its section here, optional.
 */
export const workspaceFeatureSectionsSchema = z.object({
  /** Users and groups (the directory); absent: none. */
  users: z.array(workspaceUserStateSchema).default([]),
  groups: z.array(workspaceGroupStateSchema).default([]),
  /** Samba; absent: not used (see SAMBA_NOT_USED). */
  samba: sambaSectionSchema.optional(),
});
export type WorkspaceFeatureSections = z.infer<typeof workspaceFeatureSectionsSchema>;

/**
 * One workspace as the node should run it. `generation` grows with every change the API
 * accepts; the agent reports back the generation it has applied. Its features' sections are
 * workspaceFeatureSectionsSchema's.
 */
export const workspaceDesiredStateSchema = z.object({
  service_id: text(),
  generation: z.number().int().nonnegative(),
  /** running: serve it; stopped: keep data, serve nothing; removed: delete everything. */
  state: z.enum(['running', 'stopped', 'removed']),
  /** The address its daemons bind to (a loopback alias on a single machine). */
  address: text(),
  /** Hard size limit of its storage, bytes (the plan's disk space). */
  storage_bytes: z.number().int().positive(),
  /** First id of its Unix id block (see WORKSPACE_ID_BLOCK). */
  id_base: z.number().int().positive(),
  ...workspaceFeatureSectionsSchema.shape,
  /**
   * Changes when the owner asks for a restart (POST /services/{id}/restart): the agent restarts
   * the workspace's daemons once when the token differs from the one it acted on last, even if
   * nothing else changed. Absent until the first restart is asked for.
   */
  restart_token: text().max(64).optional(),
});
export type WorkspaceDesiredState = z.infer<typeof workspaceDesiredStateSchema>;

export const nodeDesiredStateResponseSchema = z.object({
  node_id: text().uuid(),
  workspaces: z.array(workspaceDesiredStateSchema),
});
export type NodeDesiredStateResponse = z.infer<typeof nodeDesiredStateResponseSchema>;

export const driverStatusSchema = z.object({
  driver: text(),
  /** live: the real program runs it; not_live: rendered and checked only, `reason` says why. */
  live: z.boolean(),
  reason: text().optional(),
  /**
   * A daemon's driver (samba): whether its daemon serves now. False while the workspace should
   * serve and the daemon does not (`reason` says why); absent where nothing should run.
   */
  serving: z.boolean().optional(),
  /**
   * The storage driver: a resize to this many bytes was refused because the data does not fit
   * (`reason` says how much it needs); the storage stays at its size, mounted and serving.
   */
  refused_bytes: z.number().int().positive().optional(),
});

/**
 * A resource the agent could not apply (a user, group, share…), so the API can show it as failed.
 * `kind` is one a workspace feature of the API claims (users and groups: `user`, `group`; Samba:
 * `share`); text, so that an agent with a feature its API does not have yet is still heard (the
 * API keeps only the kinds it knows).
 */
export const resourceFailureSchema = z.object({
  kind: text().regex(/^[a-z][a-z0-9_]{0,39}$/),
  name: text().max(64),
  error: text().max(1000),
});

export type ResourceFailure = z.infer<typeof resourceFailureSchema>;

/** How far a user, group or share has got on its node: see the API's resourceStatus. */
export const RESOURCE_APPLY_STATUSES = ['applied', 'applying', 'failed'] as const;
export type ResourceApplyStatus = (typeof RESOURCE_APPLY_STATUSES)[number];

export const workspaceFactsSchema = z.object({
  /** Bytes and files stored in the workspace's storage. */
  disk_used_bytes: z.number().int().nonnegative(),
  file_count: z.number().int().nonnegative(),
  /** When its daemons last started (ISO time); null while nothing runs. */
  started_at: text().nullable(),
  /**
   * The size the storage has now (its file system), bytes: equal to storage_bytes once a resize
   * is done, the old size while one is refused or failed (the storage driver's `reason` says
   * why). Absent when the storage has no size limit (a plain folder).
   */
  storage_bytes: z.number().int().nonnegative().optional(),
});
export type WorkspaceFacts = z.infer<typeof workspaceFactsSchema>;

export type DriverStatus = z.infer<typeof driverStatusSchema>;

/**
 * Why the agent could not apply a workspace, as a code the owner's log shows in the reader's
 * language (`error` keeps the node's own words for the operator): a driver threw and the pass
 * stopped there; a driver applied what it could but not all (a resize that failed); a shrink
 * refused because the data does not fit; the workspace's folder could not even be named.
 */
export const WORKSPACE_ERROR_CODES = [
  'driver_failed',
  'driver_incomplete',
  'resize_refused',
  'workspace_invalid',
] as const;
export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[number];

export function isWorkspaceErrorCode(code: unknown): code is WorkspaceErrorCode {
  return typeof code === 'string' && (WORKSPACE_ERROR_CODES as readonly string[]).includes(code);
}

/** A code's parameters: names and numbers (the driver, bytes), never prose to translate. */
export const logParamsSchema = z
  .record(text().max(40), z.union([text().max(200), z.number()]))
  .refine((params) => Object.keys(params).length <= 10, 'too_many');
export type LogParams = z.infer<typeof logParamsSchema>;

/**
 * The codes of the lines a service's node adds to its log (GET /services/{id}/logs, source
 * `agent`), each with its parameters: a generation applied (`generation`, `failures` it could not
 * apply, `not_live` drivers), applied again after a failure, a failure (one of
 * WORKSPACE_ERROR_CODES with `driver`, `bytes`; `apply_failed` from an agent that sends no code;
 * `detail` the node's own words), the data deleted from the node (`address`).
 */
export const NODE_LOG_CODES = [
  'generation_applied',
  'recovered',
  'apply_failed',
  ...WORKSPACE_ERROR_CODES,
  'data_deleted',
] as const;
export type NodeLogCode = (typeof NODE_LOG_CODES)[number];

export const workspaceReportSchema = z.object({
  service_id: text(),
  observed_generation: z.number().int().nonnegative(),
  ok: z.boolean(),
  error: text().max(4000).optional(),
  /**
   * With `error`: why, as one of WORKSPACE_ERROR_CODES (text, so an API older than its agent
   * still takes the report; a code it does not know is logged as `apply_failed`).
   */
  error_code: text().max(60).optional(),
  error_params: logParamsSchema.optional(),
  drivers: z.array(driverStatusSchema),
  /** Resources that failed at observed_generation (the rest of the workspace may be applied). */
  failures: z.array(resourceFailureSchema).max(10_000).default([]),
  /** Live facts, when the agent could measure them. */
  facts: workspaceFactsSchema.optional(),
});
export type WorkspaceReport = z.infer<typeof workspaceReportSchema>;

export const nodeReportRequestSchema = z.object({
  agent_version: text().min(1).max(40),
  capacity: nodeCapacitySchema,
  workspaces: z.array(workspaceReportSchema).max(10_000),
});
export type NodeReportRequest = z.infer<typeof nodeReportRequestSchema>;

export const nodeReportResponseSchema = z.object({ ok: z.literal(true) });
