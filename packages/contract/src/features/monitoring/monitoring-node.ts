// What a node tells the API for monitoring (issue 21), sent with every workspace report: the
// events its daemons recorded since the last report (file operations, transfers, sign-ins,
// tunnels, backup runs), what each of the workspace's users owns on its storage, and when each
// daemon started. The node keeps events until the API has taken a report that carries them, and
// names each by where it came from, so an event sent twice (a report the API took but the node
// never heard back from) is stored once.
import { z } from 'zod';
import { defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';

/** Where an event was recorded. */
export const ACTIVITY_SOURCES = ['smb', 'ftp', 'sftp', 'nfs', 'vpn', 'backup'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

/**
 * What happened. Files: written (opened for writing over SMB, uploaded over FTP/SFTP), read
 * (opened to read its data over SMB, downloaded over FTP/SFTP), renamed, deleted, a folder made. Sessions: a file-protocol sign-in and its end, an NFS client
 * appearing and going, a VPN tunnel up and down (with its bytes). Backups and restores ending.
 * The list only grows at its end: the API stores a kind as its place in it.
 */
export const ACTIVITY_EVENT_KINDS = [
  'file_written',
  'file_read',
  'file_renamed',
  'file_deleted',
  'folder_created',
  'login',
  'logout',
  'nfs_client_connected',
  'nfs_client_disconnected',
  'vpn_connected',
  'vpn_disconnected',
  'backup_completed',
  'backup_failed',
  'restore_completed',
  'restore_failed',
] as const;
export type ActivityEventKind = (typeof ACTIVITY_EVENT_KINDS)[number];

/** The most events one workspace's report carries; the rest wait for the next report. */
export const ACTIVITY_EVENTS_PER_REPORT = 2_000;

export const activityEventReportSchema = z.object({
  /**
   * Unique within the workspace and the same however often it is sent: where the event was read
   * (`smb:<inode>:<offset>`, `vpn:<user>:<connected since>:down`).
   */
  id: text().min(1).max(200),
  /** ISO time it happened. */
  at: text().max(40),
  source: z.enum(ACTIVITY_SOURCES),
  /** Text, so a node newer than its API is still heard: the API keeps the kinds it knows. */
  kind: text().regex(/^[a-z][a-z0-9_]{0,39}$/),
  /** The workspace user it was done as (null: nobody signed in, such as an NFS client or a backup). */
  user: text().max(64).nullable(),
  /** The file or folder, as the workspace sees it (`/shares/docs/report.pdf`). */
  path: text().max(1024).nullable(),
  /** A rename's new path. */
  target: text().max(1024).nullable().default(null),
  /** Bytes moved: a file's size written or read, a tunnel's traffic, a backup's bytes added. */
  bytes: z.number().int().nonnegative().nullable().default(null),
  /** The client's address. */
  remote_address: text().max(80).nullable().default(null),
});
export type ActivityEventReport = z.infer<typeof activityEventReportSchema>;

/** What one workspace user owns on the storage (by file owner), as the node last counted it. */
export const userUsageReportSchema = z.object({
  user: text().max(64),
  bytes: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
});
export type UserUsageReport = z.infer<typeof userUsageReportSchema>;

export const usageReportSchema = z.object({
  users: z.array(userUsageReportSchema).max(10_000),
  /** Bytes and files owned by no workspace user (the workspace itself, NFS squashed writes). */
  other_bytes: z.number().int().nonnegative(),
  other_files: z.number().int().nonnegative(),
  /** ISO time the counts were true (a full count, or one brought up to date since). */
  measured_at: text().max(40),
});
export type UsageReport = z.infer<typeof usageReportSchema>;

export const monitoringReportSchema = z.object({
  /** Oldest first, at most ACTIVITY_EVENTS_PER_REPORT. */
  events: z.array(activityEventReportSchema).max(ACTIVITY_EVENTS_PER_REPORT),
  /** Absent until the node has counted the storage once. */
  usage: usageReportSchema.optional(),
});
export type MonitoringReport = z.infer<typeof monitoringReportSchema>;

/**
 * Monitoring's part of the node protocol (feature-node-part.ts): what the daemons recorded
 * (activity) and who owns what, gathered by the node from every feature's daemons.
 */
export const monitoringNodePart = defineFeatureNodePart({
  feature: 'monitoring',
  reports: { monitoring: monitoringReportSchema.optional() },
});
