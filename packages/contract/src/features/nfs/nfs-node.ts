// NFS's part of the node protocol (feature-node-part.ts): the exports a workspace's nfs-ganesha
// serves, and the clients and per-export counters it reports.
import { z } from 'zod';
import { daemonPortSchema, defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

/** The TCP port a workspace's NFS server (NFSv4 only) listens on, on the workspace's own address. */
export const NFS_DEFAULT_PORT = 2049;
/** An NFS export's folder (spec §5 "NFS mount name"): letters, numbers, `_`, `-`, `/`; no `..`. */
export const NFS_EXPORT_PATH_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
/**
 * Who may mount an export (spec §5): an IPv4 address, a network `a.b.c.d/len`, or a hostname
 * (letters, digits, `-`, dots; no wildcard, no netgroup). The agent checks the numbers' ranges.
 */
export const NFS_CLIENT_PATTERN =
  /^(?:\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?|(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$/;
export const NFS_ACCESS = ['read_write', 'read_only'] as const;

/**
 * One NFS export as the node should apply it (service-management §3 "NFS export"). Identity: every
 * client acts as one identity of the workspace (all_squash): uid of `owner` (a workspace user;
 * absent: the block's own uid `id_base`, no sign-in user) and gid `id_base` (`users`, the group of
 * the share folders), so files written over NFS always belong to the workspace
 * (docs/features/nfs.md).
 */
export const nfsExportStateSchema = z.object({
  /**
   * Folder inside the workspace's storage; clients mount it as `/<path>` (NFSv4 pseudo path). It is
   * the export's name in failures and reports, hence 64 characters at most.
   */
  path: text().max(64).regex(NFS_EXPORT_PATH_PATTERN),
  client: text().max(253).regex(NFS_CLIENT_PATTERN),
  access: z.enum(NFS_ACCESS),
  /** The workspace user files written over this export belong to (all_squash to them). */
  owner: text().regex(WORKSPACE_NAME_PATTERN).optional(),
});
export type NfsExportState = z.infer<typeof nfsExportStateSchema>;

/** The NFS section of a workspace: its server's port and its exports (unique by path). */
export const nfsSectionSchema = z.object({
  port: daemonPortSchema.default(NFS_DEFAULT_PORT),
  exports: z.array(nfsExportStateSchema),
});
export type NfsSectionState = z.infer<typeof nfsSectionSchema>;

/**
 * A client the workspace's NFS server knows (an NFSv4 client holding a lease: it spoke within the
 * lease time, 60 s), as the server records it.
 */
export const nfsClientReportSchema = z.object({
  /** The client's address. */
  address: text().max(80),
  /** `4.0`, `4.1`, `4.2` when the client's own name says (Linux does), else `4`. */
  version: text().max(8),
  /** Whether it has a TCP connection to the server open now. */
  connected: z.boolean(),
  /** The client's name for itself (NFSv4 client owner, e.g. `Linux NFSv4.2 laptop`). */
  client_name: text().max(200),
  /**
   * The export it mounted, when the server can tell; null: an NFSv4 client has no mount call and
   * walks the server's tree, so the server does not know it.
   */
  mount_point: text().max(300).nullable(),
});
export type NfsClientReport = z.infer<typeof nfsClientReportSchema>;

/**
 * One export's counters as nfs-ganesha keeps them (its statistics interface), since the server
 * started, all NFSv4 minor versions summed: READ and WRITE operations and the bytes they moved.
 */
export const nfsExportReportSchema = z.object({
  /** The export's path, relative to the storage (as the desired state names it). */
  path: text().max(300),
  reads: z.number().int().nonnegative(),
  read_bytes: z.number().int().nonnegative(),
  writes: z.number().int().nonnegative(),
  write_bytes: z.number().int().nonnegative(),
});
export type NfsExportReport = z.infer<typeof nfsExportReportSchema>;

export const nfsReportSchema = z.object({
  clients: z.array(nfsClientReportSchema).max(10_000),
  /** Absent: the server's statistics could not be read (older agents, a server starting). */
  exports: z.array(nfsExportReportSchema).max(1000).optional(),
});
export type NfsReport = z.infer<typeof nfsReportSchema>;

export const nfsNodePart = defineFeatureNodePart({
  feature: 'nfs',
  sections: {
    /** NFS; absent: not used (no exports, no server). */
    nfs: nfsSectionSchema.optional(),
  },
  reports: { nfs: nfsReportSchema.optional() },
});
