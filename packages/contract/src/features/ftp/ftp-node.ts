// FTP's part of the node protocol (feature-node-part.ts): a workspace's pure-ftpd (FTP) and sshd
// (SFTP), one list of users for both, and the signed-in sessions each reports.
import { z } from 'zod';
import { daemonPortSchema, defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

/** The TCP ports a workspace's pure-ftpd and sshd (SFTP) listen on, on the workspace's address. */
export const FTP_DEFAULT_PORT = 21;
export const SFTP_DEFAULT_PORT = 22;
/** What an FTP user may do (service-management §6): the same for FTP and SFTP. */
export const FTP_USER_PERMISSIONS = ['read_write', 'read_only'] as const;
export type FtpUserPermissions = (typeof FTP_USER_PERMISSIONS)[number];

/**
 * A workspace user's FTP and SFTP access. Only users listed here (and active) may sign in, with
 * their workspace password (users[].password_crypt): the same password as SMB. Each is jailed in
 * their home and the Samba shares they may use; read_only makes all of it read-only.
 */
export const ftpUserStateSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  /** A disabled user cannot sign in over FTP or SFTP; their sessions are ended. */
  enabled: z.boolean(),
  permissions: z.enum(FTP_USER_PERMISSIONS),
});
export type FtpUserState = z.infer<typeof ftpUserStateSchema>;

/** The FTP section of a workspace: its pure-ftpd (the `ftp-advanced` settings) and its users. */
export const ftpSectionSchema = z.object({
  enabled: z.boolean(),
  port: daemonPortSchema.default(FTP_DEFAULT_PORT),
  /** Passive data ports, inclusive (min ≤ max; the node refuses the section otherwise). */
  passive_port_min: daemonPortSchema.default(30000),
  passive_port_max: daemonPortSchema.default(30099),
  max_clients: z.number().int().min(1).max(10_000).default(50),
  max_clients_per_user: z.number().int().min(1).max(1000).default(5),
  /** Minutes without a command before the server hangs up. */
  idle_timeout_minutes: z.number().int().min(1).max(1440).default(15),
  /** Sign-ins only over TLS (FTPS, explicit AUTH TLS) with the workspace's certificate. */
  tls_required: z.boolean().default(false),
  /** FTP and SFTP users (SFTP has no list of its own). */
  users: z.array(ftpUserStateSchema),
});
export type FtpSectionState = z.infer<typeof ftpSectionSchema>;

/** SFTP (sshd, internal-sftp only) of a workspace: its users and rights are the FTP section's. */
export const sftpSectionSchema = z.object({
  enabled: z.boolean(),
  port: daemonPortSchema.default(SFTP_DEFAULT_PORT),
});
export type SftpSectionState = z.infer<typeof sftpSectionSchema>;

/** A signed-in FTP or SFTP session, as the node sees its server's session processes. */
export const fileSessionReportSchema = z.object({
  user: text().max(64),
  /** The client's address:port, when the node could tell. */
  remote_address: text().max(80).optional(),
  /** ISO time the session started. */
  connected_since: text(),
});
export type FileSessionReport = z.infer<typeof fileSessionReportSchema>;

export const fileSessionsReportSchema = z.object({
  sessions: z.array(fileSessionReportSchema).max(10_000),
});
export type FileSessionsReport = z.infer<typeof fileSessionsReportSchema>;

export const ftpNodePart = defineFeatureNodePart({
  feature: 'ftp',
  sections: {
    /** FTP; absent: not used (no pure-ftpd). Its users are SFTP's too. */
    ftp: ftpSectionSchema.optional(),
    /** SFTP; absent: not used (no sshd). */
    sftp: sftpSectionSchema.optional(),
  },
  reports: {
    ftp: fileSessionsReportSchema.optional(),
    sftp: fileSessionsReportSchema.optional(),
  },
});
