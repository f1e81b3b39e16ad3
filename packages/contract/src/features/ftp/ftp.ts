// FTP and SFTP of a workspace (service-management §3 "FTP", §6, §7 "FTP"; the `ftp` and
// `ftp-advanced` tabs). Base /api/v1/ftp/{serviceId}:
//   GET status                             the servers (FTP and SFTP), where to connect, users, sessions
//   GET users                              the service's users with their FTP/SFTP access
//   POST users/{user}/enable, /disable     may (not) sign in over FTP and SFTP
//   PUT users/{user}/permissions           read_write or read_only, for FTP and SFTP alike
//   GET sessions                           who is signed in now, as the node last reported
//   GET, PUT settings                      the `ftp-advanced` tab (PUT takes every field)
//   POST reload                            send the FTP/SFTP configuration to the node again
//
// FTP users are the service's users (`{user}` is their name), signing in with their workspace
// password: the one password works for SMB, FTP and SFTP. FTP and SFTP are on for every new
// service and every user may use them, read and write, until the owner says otherwise: a user's
// access is stored only once changed. Each user is jailed in their home and the Samba shares they
// may use; read_only makes all of it read-only. Anonymous FTP is never offered.
import { z } from 'zod';
import { text } from '../../strings.ts';
import { applyStatusFields, workspaceServiceParamsSchema } from '../users/directory.ts';
import { FTP_USER_PERMISSIONS } from './ftp-node.ts';

/**
 * Passive data ports a workspace may use. Each workspace has an address of its own, so its ports
 * are not shared with any other: the node's range is every unprivileged port.
 */
export const FTP_PASSIVE_PORT_FLOOR = 1024;
export const FTP_PASSIVE_PORT_CEILING = 65535;

/** A user's access before the owner changes it: may sign in, read and write. */
export const FTP_DEFAULT_USER_ACCESS = { enabled: true, permissions: 'read_write' } as const;

export const ftpUserParamsSchema = workspaceServiceParamsSchema.extend({
  user: text().min(1).max(200),
});

export const ftpPermissionsRequestSchema = z.object({
  permissions: z.enum(FTP_USER_PERMISSIONS, { error: 'invalid_value' }),
});
export type FtpPermissionsRequest = z.input<typeof ftpPermissionsRequestSchema>;

const passivePort = z
  .number()
  .int('not_integer')
  .min(FTP_PASSIVE_PORT_FLOOR, 'ftp_port_out_of_range')
  .max(FTP_PASSIVE_PORT_CEILING, 'ftp_port_out_of_range');
const positiveLimit = (max: number) =>
  z.number().int('not_integer').min(1, 'ftp_limit_not_positive').max(max);

const ftpSettingsFields = {
  /** FTP (pure-ftpd, FTPS offered) on the workspace's address, port 21. */
  ftp_enabled: z.boolean(),
  /** SFTP (sshd, SFTP only: no shell) on the workspace's address, port 22. */
  sftp_enabled: z.boolean(),
  passive_port_min: passivePort,
  passive_port_max: passivePort,
  max_clients: positiveLimit(10_000),
  max_clients_per_user: positiveLimit(1000),
  /** Minutes without a command before the server hangs up. */
  idle_timeout_minutes: positiveLimit(1440),
  /** Sign-ins only over TLS (FTPS, explicit AUTH TLS) with the workspace's certificate. */
  tls_required: z.boolean(),
};

/**
 * The `ftp-advanced` form, every field (PUT replaces the settings). The node refuses what its
 * pure-ftpd cannot run, so these are field errors first: an empty passive range, and fewer than
 * two passive ports per client (pure-ftpd would let in only half as many as asked, unsaid).
 * `anonymous` may be sent, only as false: anonymous FTP is never offered.
 */
export const ftpSettingsRequestSchema = z
  .strictObject({
    ...ftpSettingsFields,
    anonymous: z.literal(false, { error: 'ftp_anonymous_off' }).optional(),
  })
  .superRefine((settings, context) => {
    if (settings.passive_port_min > settings.passive_port_max) {
      context.addIssue({ code: 'custom', path: ['passive_port_max'], message: 'ftp_passive_range_reversed' });
      return;
    }
    const ports = settings.passive_port_max - settings.passive_port_min + 1;
    if (ports < settings.max_clients * 2) {
      context.addIssue({ code: 'custom', path: ['max_clients'], message: 'ftp_passive_range_too_small' });
    }
    if (settings.max_clients_per_user > settings.max_clients) {
      context.addIssue({
        code: 'custom',
        path: ['max_clients_per_user'],
        message: 'ftp_per_user_above_max_clients',
      });
    }
  });
export type FtpSettingsRequest = z.input<typeof ftpSettingsRequestSchema>;

/** The `ftp-advanced` settings a service starts with (and has while it never changed them). */
export const FTP_DEFAULT_SETTINGS: Readonly<
  Required<Omit<z.output<typeof ftpSettingsRequestSchema>, 'anonymous'>>
> = {
  ftp_enabled: true,
  sftp_enabled: true,
  passive_port_min: 30000,
  passive_port_max: 30099,
  max_clients: 50,
  max_clients_per_user: 5,
  idle_timeout_minutes: 15,
  tls_required: false,
};

export const ftpSettingsSchema = z.object({
  ...ftpSettingsFields,
  /** Anonymous FTP: never. */
  anonymous: z.literal(false),
  /** Whether these are still the defaults (never changed). */
  default: z.boolean(),
  ...applyStatusFields,
});
export type FtpSettings = z.infer<typeof ftpSettingsSchema>;

export const FTP_PROTOCOLS = ['ftp', 'sftp'] as const;
export type FtpProtocol = (typeof FTP_PROTOCOLS)[number];

export const ftpUserSchema = z.object({
  name: text(),
  /** The service user's own state: an inactive user signs in nowhere. */
  active: z.boolean(),
  /** May sign in over FTP and SFTP (when active). */
  enabled: z.boolean(),
  permissions: z.enum(FTP_USER_PERMISSIONS),
  /** Signed in now (FTP and SFTP sessions), as the node last reported. */
  sessions: z.number().int(),
  ...applyStatusFields,
});
export type FtpUser = z.infer<typeof ftpUserSchema>;

export const ftpUsersResponseSchema = z.object({ users: z.array(ftpUserSchema) });
export type FtpUsersResponse = z.infer<typeof ftpUsersResponseSchema>;

export const ftpSessionSchema = z.object({
  protocol: z.enum(FTP_PROTOCOLS),
  user: text(),
  /** The client's address:port, when the node could tell. */
  remote_address: text().nullable(),
  connected_since: text(),
});
export type FtpSession = z.infer<typeof ftpSessionSchema>;

export const ftpSessionsResponseSchema = z.object({
  sessions: z.array(ftpSessionSchema),
  /** When the node last reported them; null: never. */
  reported_at: text().nullable(),
});
export type FtpSessionsResponse = z.infer<typeof ftpSessionsResponseSchema>;

/** One server (pure-ftpd or sshd) of the workspace, as the node last reported it. */
export const ftpServerStatusSchema = z.object({
  /** The owner's setting (ftp_enabled / sftp_enabled). */
  enabled: z.boolean(),
  port: z.number().int(),
  /** Whether it runs now; null until reported, or when nothing should run (off, nobody may sign in). */
  serving: z.boolean().nullable(),
  /** The node's word on its driver: false when only rendered and checked (`reason` says why). */
  live: z.boolean().nullable(),
  reason: text().nullable(),
});
export type FtpServerStatus = z.infer<typeof ftpServerStatusSchema>;

export const ftpStatusSchema = z.object({
  /** Whether the service runs on a node; until then nothing is served. */
  placed: z.boolean(),
  /**
   * The host FTP and SFTP clients connect to: servicesAddress, the workspace's own address or,
   * for a NAT plan, the VPN-side one. Null until placed.
   */
  address: text().nullable(),
  ftp: ftpServerStatusSchema,
  sftp: ftpServerStatusSchema,
  /** FTP data connections: passive, on these ports (active mode works too, from the client's side). */
  mode: z.literal('passive'),
  passive_port_min: z.number().int(),
  passive_port_max: z.number().int(),
  tls_required: z.boolean(),
  apply_status: z.enum(applyStatusFields.apply_status.options),
  generation: z.number().int(),
  observed_generation: z.number().int(),
  reported_at: text().nullable(),
  /** Users who may sign in now (active and enabled), of all the service's users. */
  users: z.number().int(),
  users_total: z.number().int(),
  /** Sessions signed in now, FTP and SFTP. */
  sessions: z.number().int(),
});
export type FtpStatus = z.infer<typeof ftpStatusSchema>;
