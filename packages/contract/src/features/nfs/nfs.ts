// NFS exports of a workspace (service-management §3 "NFS export", §5, §7 "NFS"). Base
// /api/v1/nfs/{serviceId}:
//   GET, POST shares                      list / create (201)
//   PATCH, DELETE shares/{path}           change / delete (204); {path} URL-encoded (shares%2Fdata)
//   GET clients                           the clients the node's NFS server knows, as last reported
//   POST clients/{client}/disconnect      the node refuses the client's address on every export
//                                         at once, for longer than the server's lease (NFSv4
//                                         clients cannot be sent away otherwise); it may come back
//                                         after `blocked_until`: to keep it out, change the rule.
//                                         A node that cannot: `nfs_disconnect_unsupported` (501)
//   GET status; GET stats                 the server; what is known per export
//   POST reload; POST sync                send the exports to the node again (a new generation):
//                                         exports change without a restart, other clients stay
//
// An export is a folder of the workspace's storage (`path`, relative to it: folder names of
// letters, numbers, `_` and `-` separated by `/`; a leading or trailing `/` is dropped; no `..`;
// not one of the folders the node keeps), served over NFSv4 to one client rule: an IPv4 address,
// a network such as 192.168.1.0/24, or a hostname. Everyone else is refused. Its path is its key
// and never changes (clients mount it by it): export another folder instead.
//
// Identity: whatever user a client sends, files are read and written as the export's `owner` (a
// user of the service) or, without one, as the workspace itself (its own id, no sign-in user),
// with the group `users` of share folders: NFS never writes as a client's root or as an id
// outside the workspace (docs/features/nfs.md).
import { z } from 'zod';
import { text } from '../../strings.ts';
import {
  applyStatusFields,
  workspaceDescriptionSchema,
  workspaceNameRefSchema,
  workspaceServiceParamsSchema,
  workspaceResourceFields,
} from '../users/directory.ts';
import { NFS_ACCESS, NFS_EXPORT_PATH_PATTERN } from './nfs-node.ts';
import { RESERVED_SHARE_ROOTS } from '../samba/samba.ts';

export type NfsAccess = (typeof NFS_ACCESS)[number];

/** Exports a service may hold. */
export const NFS_EXPORTS_MAX = 100;
/** The node's limit of an export path (it names the export in its reports). */
export const NFS_PATH_MAX = 64;

/**
 * Why `client` cannot be an export's client rule, as a field code, or undefined when it can: an
 * IPv4 address (each part 0–255, no leading zeros), a network `a.b.c.d/len` (0–32, no host bits
 * set: 192.168.1.0/24, not 192.168.1.7/24) or a hostname (labels of letters, digits and `-`; no
 * wildcard, no netgroup). The node's agent checks the same.
 */
export function nfsClientProblem(client: string): 'nfs_client_invalid' | 'nfs_client_host_bits' | undefined {
  const ip = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(client);
  if (ip) {
    const parts = ip.slice(1, 5) as [string, string, string, string];
    if (parts.some((part) => Number(part) > 255 || (part.length > 1 && part.startsWith('0'))))
      return 'nfs_client_invalid';
    const length = ip[5];
    if (length === undefined) return undefined;
    if (Number(length) > 32 || (length.length > 1 && length.startsWith('0'))) return 'nfs_client_invalid';
    const value = parts.reduce((sum, part) => sum * 256 + Number(part), 0);
    const hostBits = 2 ** (32 - Number(length));
    return value % hostBits === 0 ? undefined : 'nfs_client_host_bits';
  }
  const labels = client.split('.');
  const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  if (
    client.length > 253 ||
    labels.some((part) => !label.test(part)) ||
    /^[\d.]+$/.test(client) ||
    /^\d+$/.test(labels.at(-1) ?? '')
  )
    return 'nfs_client_invalid';
  return undefined;
}

/** Whether `address` (an IPv4 address) is one the client rule admits; null for a hostname rule. */
export function nfsClientAdmits(rule: string, address: string): boolean | null {
  const toNumber = (ip: string) => {
    const parts = ip.split('.');
    if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255))
      return null;
    return parts.reduce((sum, part) => sum * 256 + Number(part), 0);
  };
  const [network, length] = rule.split('/');
  const base = toNumber(network ?? '');
  if (base === null) return null;
  const value = toNumber(address);
  if (value === null) return false;
  const size = 2 ** (32 - (length === undefined ? 32 : Number(length)));
  return Math.floor(value / size) === Math.floor(base / size);
}

/** A folder of the storage, relative to it; `/shares/data/` is taken as `shares/data`. */
export const nfsExportPathSchema = text()
  .trim()
  .overwrite((path) => path.replace(/^\/+|\/+$/g, ''))
  .min(1, 'required')
  .max(NFS_PATH_MAX, 'too_long')
  .refine((path) => !path.split('/').some((part) => part === '..' || part === '.'), 'nfs_path_outside')
  .regex(NFS_EXPORT_PATH_PATTERN, 'nfs_path_invalid')
  .refine(
    (path) => !(RESERVED_SHARE_ROOTS as readonly string[]).includes(path.split('/')[0]?.toLowerCase() ?? ''),
    'share_path_reserved',
  );

export const nfsClientRuleSchema = text()
  .trim()
  .min(1, 'required')
  .max(253, 'too_long')
  .superRefine((client, ctx) => {
    const problem = nfsClientProblem(client);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const nfsAccessSchema = z.enum(NFS_ACCESS, { error: 'invalid_value' });

export const nfsExportParamsSchema = workspaceServiceParamsSchema.extend({
  /** The export's path, URL-encoded (`shares%2Fdata`); a leading `/` is dropped. */
  path: text().min(1).max(300),
});
export const nfsClientParamsSchema = workspaceServiceParamsSchema.extend({
  client: text().min(1).max(80),
});

export const createNfsExportRequestSchema = z.object({
  path: nfsExportPathSchema,
  client: nfsClientRuleSchema,
  /** Read-only unless asked (as exports(5) does). */
  access: nfsAccessSchema.default('read_only'),
  description: workspaceDescriptionSchema.default(''),
  /** The service user files are written as; null: the workspace itself. */
  owner: workspaceNameRefSchema.nullable().default(null),
});
export type CreateNfsExportRequest = z.input<typeof createNfsExportRequestSchema>;

/** Every field optional; the path stays (it is how clients mount the export). */
export const updateNfsExportRequestSchema = z.strictObject({
  client: nfsClientRuleSchema.optional(),
  access: nfsAccessSchema.optional(),
  description: workspaceDescriptionSchema.optional(),
  /** null: no owner any more (the workspace itself). */
  owner: workspaceNameRefSchema.nullable().optional(),
});
export type UpdateNfsExportRequest = z.input<typeof updateNfsExportRequestSchema>;

export const nfsExportSchema = z.object({
  path: text(),
  client: text(),
  access: nfsAccessSchema,
  description: text(),
  owner: text().nullable(),
  /** What a client mounts: `<address>:/<path>` at the status's address; null until placed. */
  mount: text().nullable(),
  ...workspaceResourceFields,
});
export type NfsExport = z.infer<typeof nfsExportSchema>;

export const nfsExportsResponseSchema = z.object({
  exports: z.array(nfsExportSchema),
  limit: z.number().int(),
});
export type NfsExportsResponse = z.infer<typeof nfsExportsResponseSchema>;

export const nfsClientSchema = z.object({
  address: text(),
  /** `4.0`, `4.1`, `4.2` as the client names itself, else `4`. */
  version: text(),
  /** Whether it has a connection to the server open now (else it only holds its lease). */
  connected: z.boolean(),
  client_name: text(),
  /**
   * The export it mounted, when the server can tell. nfs-ganesha cannot (docs/features/nfs.md:
   * NFSv4 has no mount call, and ganesha counts per client and per export, never per client and
   * export), so it is null there; the dashboard says "not reported by NFS" rather than an empty
   * cell.
   */
  mount_point: text().nullable(),
  /** The exports whose client rule admits its address (hostname rules are not resolved here). */
  exports: z.array(text()),
});
export type NfsClient = z.infer<typeof nfsClientSchema>;

export const nfsDisconnectResponseSchema = z.object({
  address: text(),
  /** ISO time until which the node refuses the address. */
  blocked_until: text(),
});
export type NfsDisconnectResponse = z.infer<typeof nfsDisconnectResponseSchema>;

export const nfsClientsResponseSchema = z.object({
  clients: z.array(nfsClientSchema),
  /** When the node last reported them; null: never. */
  reported_at: text().nullable(),
});
export type NfsClientsResponse = z.infer<typeof nfsClientsResponseSchema>;

export const nfsStatusSchema = z.object({
  placed: z.boolean(),
  /**
   * Where clients connect, on this TCP port, NFSv4 only: servicesAddress, the workspace's own
   * address or, for a NAT plan, the VPN-side one. Null until placed.
   */
  address: text().nullable(),
  port: z.number().int(),
  protocol: z.literal('nfs4'),
  /** The node's word on its NFS driver; null until it reports. */
  live: z.boolean().nullable(),
  /** Whether the server runs now; null until reported or while there is no export. */
  serving: z.boolean().nullable(),
  reason: text().nullable(),
  apply_status: z.enum(applyStatusFields.apply_status.options),
  generation: z.number().int(),
  observed_generation: z.number().int(),
  reported_at: text().nullable(),
  exports: z.number().int(),
  limit: z.number().int(),
  /** Clients the server knows, and of them those connected now. */
  clients: z.number().int(),
  connected: z.number().int(),
});
export type NfsStatus = z.infer<typeof nfsStatusSchema>;

/**
 * What is known per export. Operation and byte counters are the server's (nfs-ganesha's
 * statistics, since it last started: READ plus WRITE operations, bytes each way), as the node last
 * reported them; null until it has, and `counters` says whether any export has them.
 */
export const nfsStatsSchema = z.object({
  counters: z.enum(['available', 'unavailable']),
  reported_at: text().nullable(),
  clients: z.number().int(),
  connected: z.number().int(),
  exports: z.array(
    z.object({
      path: text(),
      client: text(),
      access: nfsAccessSchema,
      /** Known clients its rule admits, and of them those connected; null for a hostname rule. */
      clients: z.number().int().nullable(),
      connected: z.number().int().nullable(),
      operations: z.number().int().nullable(),
      bytes_read: z.number().int().nullable(),
      bytes_written: z.number().int().nullable(),
    }),
  ),
});
export type NfsStats = z.infer<typeof nfsStatsSchema>;
