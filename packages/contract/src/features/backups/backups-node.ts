// What the API and a node say to each other about backups (docs/features/backups.md): the `backup`
// section of a workspace's desired state, the `backup` section of its report, and the node call
// that lists a folder of a snapshot. The owner-facing requests and answers are backups.ts's.
//
// The API decides what runs when; the node runs it. Every run the API wants (a backup, a restore)
// is a job in the desired state with an id of its own: the agent runs each id once, one job at a
// time per workspace, and reports how each went (running with its progress, completed, failed)
// until the API stops listing it. A job the agent has finished stays finished: listing it again
// does not run it again.
//
// Paths: a backup's `paths` are folders of the workspace's storage, relative to its root
// (`shares/projects`, `home/alice`, or `.` for all of it); inside a snapshot the same folders are
// seen from `/` (`/shares/projects/report.txt`), which is how browse and restore name them.
import { z } from 'zod';
import { defineFeatureNodePart } from '../../feature-node-part.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

/** A storage folder a backup may read: names of letters, digits, `_`, `-`, `.` (no `..`), or `.`. */
export const BACKUP_SOURCE_PATTERN = /^(\.|[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*)$/;

/**
 * A path inside a snapshot, from its root: `/`, or `/` and names separated by `/`. A name is any
 * text a file system allows but `.` and `..` (customers name their files), without NUL.
 */
export const snapshotPathSchema = text()
  .max(4096)
  .refine(
    (path) =>
      path === '/' ||
      (path.startsWith('/') &&
        !path.endsWith('/') &&
        path
          .slice(1)
          .split('/')
          .every((name) => name.length > 0 && name !== '.' && name !== '..' && !name.includes('\0'))),
    'snapshot_path_invalid',
  );

export const BACKUP_TYPES = ['full', 'incremental'] as const;
export type BackupType = (typeof BACKUP_TYPES)[number];

/** What a restore writes: over the original (`original`) or beside it, in a new folder (`folder`). */
export const RESTORE_TARGETS = ['original', 'folder'] as const;
export type RestoreTarget = (typeof RESTORE_TARGETS)[number];

/**
 * One backup: a restic snapshot of `paths`, tagged with `tags` (the schedule's tag and the type).
 * A full one re-reads every file (`restic backup --force`); an incremental one reads only files
 * whose size, time or inode changed since the last snapshot of the same paths. Either way the
 * snapshot is whole: restoring never needs another one. After it, `retention` (when given) forgets
 * the schedule's older snapshots of each type past the number kept, and prunes the repository.
 */
export const backupJobSchema = z.object({
  id: text().uuid(),
  kind: z.literal('backup'),
  type: z.enum(BACKUP_TYPES),
  paths: z.array(text().max(256).regex(BACKUP_SOURCE_PATTERN)).min(1).max(200),
  tags: z
    .array(
      text()
        .max(80)
        .regex(/^[a-z0-9:_-]+$/),
    )
    .max(10),
  retention: z
    .object({
      /** The tag that names this schedule's snapshots. */
      tag: text()
        .max(80)
        .regex(/^[a-z0-9:_-]+$/),
      keep_full: z.number().int().min(1).max(1000),
      keep_incremental: z.number().int().min(0).max(10_000),
    })
    .nullable(),
});
export type BackupJob = z.infer<typeof backupJobSchema>;

/** Puts `path` of a snapshot back: over itself, or into a new folder beside it. */
export const restoreJobSchema = z.object({
  id: text().uuid(),
  kind: z.literal('restore'),
  snapshot_id: text().regex(/^[0-9a-f]{8,64}$/),
  path: snapshotPathSchema,
  target: z.enum(RESTORE_TARGETS),
  /** target `folder`: the new folder's name, made beside `path` (it must not exist yet). */
  folder: text().max(255).optional(),
});
export type RestoreJob = z.infer<typeof restoreJobSchema>;

export const backupNodeJobSchema = z.discriminatedUnion('kind', [backupJobSchema, restoreJobSchema]);
export type BackupNodeJob = z.infer<typeof backupNodeJobSchema>;

/**
 * Backup clients (docs/features/backup-clients.md): a customer's own machine pushes restic backups
 * into the workspace over its VPN, to a restic REST server (`rclone serve restic --append-only
 * --private-repos`) on the tunnel's server address, port BACKUP_CLIENT_PORT. Each client has a
 * repository of its own at `/<name>/`, reached with its name and password (HTTP basic auth, the
 * bcrypt hash here is all the node gets) and no other's. Append-only: a client can add snapshots
 * but not delete any, so a machine taken over cannot wipe its backups.
 */
export const BACKUP_CLIENT_PORT = 8000;

/**
 * The hard limit on what all of a workspace's backup clients' repositories hold together, as a
 * share of the plan's disk (`storage_bytes`): 1, as much again as the workspace's own storage.
 * Why this much: a customer backing up the machines whose files they keep in the workspace needs
 * about that (restic deduplicates and compresses), and the provider already plans a node's disk by
 * the plans' storage, so the worst a workspace can take is twice its plan's disk, known in advance
 * and counted against nothing else. The node enforces it (a push past it fails with ENOSPC in
 * restic on the client, docs/features/backup-clients.md) and reports it with the clients' sizes.
 */
export const BACKUP_CLIENTS_QUOTA_SHARE = 1;
/** The backup clients' quota of a workspace whose plan has `storageBytes` of disk. */
export const backupClientsQuotaBytes = (storageBytes: number) =>
  Math.floor(storageBytes * BACKUP_CLIENTS_QUOTA_SHARE);
/** bcrypt as htpasswd files hold it (`$2a$`, `$2b$` or `$2y$`, cost, 53 characters of salt and hash). */
export const BCRYPT_HASH_PATTERN = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * A restic repository location off the node: a REST server (`rest:http(s)://[user:pass@]host/path`),
 * SFTP (`sftp:user@host:/path`; ssh's keys are the node's) or S3 (`s3:https://host/bucket/path`;
 * credentials in the node's AWS_* environment). No whitespace, and an SFTP host never starts with
 * `-` (restic hands it to ssh as an argument).
 */
export const BACKUP_TARGET_URL_PATTERN = /^(rest:https?:\/\/|sftp:[A-Za-z0-9_]|s3:)[^\s]+$/;

/** A restic repository on the operator's backup target, and its key. */
export const targetRepositorySchema = z.object({
  url: text().max(2048).regex(BACKUP_TARGET_URL_PATTERN),
  /** restic's password for the repository (RESTIC_PASSWORD_FILE on the node, never a command line). */
  password: text()
    .min(32)
    .max(256)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/**
 * How often at most a node copies its workspaces' backup clients' repositories to the backup
 * target when a push has ended since the last copy: a push is off the node within about this
 * long after it ends (plus the copy's own time).
 */
export const CLIENT_MIRROR_INTERVAL_SECONDS = 30;

export const backupClientStateSchema = z.object({
  /** Its login and the name of its repository folder (the workspace name rule). */
  name: text().regex(WORKSPACE_NAME_PATTERN),
  password_bcrypt: text().regex(BCRYPT_HASH_PATTERN),
});
export type BackupClientState = z.infer<typeof backupClientStateSchema>;

/**
 * The workspace's backups as the node should run them. Present for every workspace the API
 * backs up (the provider's daily backup makes that every active one); absent: no repository.
 */
export const backupSectionSchema = z.object({
  jobs: z.array(backupNodeJobSchema).max(100),
  /** The clients that may push now; none: no REST server runs. */
  clients: z.array(backupClientStateSchema).max(1000).default([]),
  /**
   * The client repositories to keep: those of the clients above and of disconnected ones (their
   * backups stay until the owner deletes the client). Any other under the workspace's client
   * folder is a deleted client's, and is deleted.
   */
  client_repositories: z.array(text().regex(WORKSPACE_NAME_PATTERN)).max(1000).default([]),
  /**
   * Where the workspace's repository lives when the operator configured a backup target off the
   * storage nodes (docs/features/backups.md "Backups off the node"), and its key. Absent: the
   * node's own repository under its data folder, keyed by the node (an older API, or no target
   * configured). The key is the API's, made once per workspace and kept sealed in its database, so
   * any node given it opens the same repository: a dead node loses neither the backups nor the key.
   */
  repository: targetRepositorySchema.optional(),
  /**
   * Where the node keeps a copy of the backup clients' repositories on the same target
   * (docs/features/backup-clients.md, docs/features/backups.md "Backups off the node"): a restic
   * repository of its own, `<base>/<service id>-clients`, with the same key. The node backs the
   * clients' folder up into it after pushes end (CLIENT_MIRROR_INTERVAL_SECONDS), and a node that
   * takes the workspace over (failover, move) restores it before the clients may push again.
   * Absent: no target, the clients' repositories are on the node alone.
   */
  clients_repository: targetRepositorySchema.optional(),
});
export type BackupSectionState = z.infer<typeof backupSectionSchema>;

export const BACKUP_JOB_STATUSES = ['running', 'completed', 'failed'] as const;
export type BackupJobStatus = (typeof BACKUP_JOB_STATUSES)[number];

/**
 * Why a job failed, as a code the owner's texts name (the program's own words are in `error`):
 * the repository the node made for the workspace is gone (`repository_missing`: older backups
 * are lost; the next run starts a new one), a folder to back up or restore is not there
 * (`path_missing`), the storage is full (`no_space`), the agent stopped during the run
 * (`interrupted`), a restore's new folder exists (`target_exists`), or anything else (`failed`).
 */
export const BACKUP_FAILURE_CODES = [
  'repository_missing',
  'path_missing',
  'no_space',
  'interrupted',
  'target_exists',
  'failed',
] as const;
export type BackupFailureCode = (typeof BACKUP_FAILURE_CODES)[number];

export const backupJobReportSchema = z.object({
  id: text().uuid(),
  status: z.enum(BACKUP_JOB_STATUSES),
  started_at: text(),
  finished_at: text().optional(),
  /** While running: how far (restic's own estimate). */
  progress: z
    .object({
      percent: z.number().min(0).max(100),
      files_done: z.number().int().nonnegative(),
      bytes_done: z.number().int().nonnegative(),
    })
    .optional(),
  /** A completed backup: its snapshot and what it added. */
  snapshot_id: text().max(64).optional(),
  bytes_added: z.number().int().nonnegative().optional(),
  files: z.number().int().nonnegative().optional(),
  files_new: z.number().int().nonnegative().optional(),
  /** A completed restore: files written, and where (a path from the storage's root, `/shares/x/y`). */
  files_restored: z.number().int().nonnegative().optional(),
  restored_to: text().max(4096).optional(),
  /** A failed job: why, as a code (text, so an API older than its agent still reads it) and in the program's words. */
  error_code: text().max(40).optional(),
  error: text().max(2000).optional(),
});
export type BackupJobReport = z.infer<typeof backupJobReportSchema>;

export const backupUsageReportSchema = z.object({
  /** Bytes the repository takes on the node's disk. */
  repository_bytes: z.number().int().nonnegative(),
  /** Bytes of data stored after deduplication and compression (restic's raw data). */
  stored_bytes: z.number().int().nonnegative(),
  snapshots: z.number().int().nonnegative(),
  measured_at: text(),
});
export type BackupUsageReport = z.infer<typeof backupUsageReportSchema>;

export const backupReportSchema = z.object({
  /** Every job of the desired state the node has started (queued ones are not listed). */
  jobs: z.array(backupJobReportSchema).max(100),
  /** Measured after each job that changed the repository; null before the first. */
  usage: backupUsageReportSchema.nullable(),
  /** The snapshots the repository holds (full ids), so the API knows what retention removed. */
  snapshot_ids: z.array(text().max(64)).max(100_000).nullable(),
});
export type BackupReport = z.infer<typeof backupReportSchema>;

/** What the node sees of one client's repository (measured when its snapshots change). */
export const backupClientReportSchema = z.object({
  name: text().regex(WORKSPACE_NAME_PATTERN),
  snapshots: z.number().int().nonnegative(),
  /** Bytes the repository takes on the node's disk. */
  repository_bytes: z.number().int().nonnegative(),
  /** When its newest snapshot arrived (a push finished); null: none yet. */
  last_push_at: text().nullable(),
  /** A push holds a lock in the repository now. */
  pushing: z.boolean(),
  /**
   * When the node last copied the repository to the backup target (clients_repository), as it
   * was then; a `last_push_at` after it is not copied yet. Null: never. Absent from older agents.
   */
  off_node_at: text().nullable().optional(),
});
export type BackupClientReport = z.infer<typeof backupClientReportSchema>;

/** The report's `backup_clients` section: every client repository the node keeps. */
export const backupClientsReportSchema = z.object({
  clients: z.array(backupClientReportSchema).max(1000),
  /**
   * The clients' quota (backupClientsQuotaBytes) as the node holds it: `bytes` the repositories
   * may take together, `used_bytes` of it taken (file-system overhead included, so `used_bytes`
   * reaching `bytes` is a full quota). Null: no limit holds them (a node without loop devices or
   * root). Absent from older agents.
   */
  quota: z
    .object({ bytes: z.number().int().nonnegative(), used_bytes: z.number().int().nonnegative() })
    .nullable()
    .optional(),
});
export type BackupClientsReport = z.infer<typeof backupClientsReportSchema>;

/** An entry of a snapshot's folder. */
export const snapshotEntrySchema = z.object({
  name: text().max(4096),
  type: z.enum(['dir', 'file', 'symlink', 'other']),
  /** Files: bytes. */
  size: z.number().int().nonnegative().nullable(),
  modified_at: text().nullable(),
});
export type SnapshotEntry = z.infer<typeof snapshotEntrySchema>;

/** The most entries one browse answers (a folder with more says `truncated`). */
export const SNAPSHOT_BROWSE_MAX = 20_000;

export const backupBrowsePayloadSchema = z.object({
  snapshot_id: text().regex(/^[0-9a-f]{8,64}$/),
  path: snapshotPathSchema,
});
/** One file of one of the workspace's snapshots, answered as bytes (a stream node call). */
export const backupDownloadPayloadSchema = z.object({
  snapshot_id: text().regex(/^[0-9a-f]{8,64}$/),
  path: snapshotPathSchema.refine((path) => path !== '/', 'snapshot_path_invalid'),
});
export const backupBrowseResultSchema = z.object({
  /** False: no folder at `path` in the snapshot. */
  found: z.boolean(),
  entries: z.array(snapshotEntrySchema).max(SNAPSHOT_BROWSE_MAX),
  truncated: z.boolean(),
});
export type BackupBrowseResult = z.infer<typeof backupBrowseResultSchema>;

/** Backups' part of the node protocol (feature-node-part.ts). */
export const backupsNodePart = defineFeatureNodePart({
  feature: 'backups',
  sections: {
    /** Backups; absent: none (no repository). */
    backup: backupSectionSchema.optional(),
  },
  reports: {
    backup: backupReportSchema.optional(),
    backup_clients: backupClientsReportSchema.optional(),
  },
});
