// Snapshots of a workspace's storage (issue 37): read-only, crash-consistent copies of the whole
// storage as it was at one instant, taken by the node on a schedule and on demand, and seen by
// Windows as "Previous Versions" of each file and folder of a share. Only btrfs storage has them;
// a workspace made on ext4 before says so (`reason`) until a move converts it.
// Routes (owner, or a subuser with backup access): GET /api/v1/snapshots/{serviceId} lists them,
// POST /api/v1/snapshots/{serviceId} takes one now (202 with the snapshot),
// GET /api/v1/snapshots/{serviceId}/{name}/browse?path= lists one folder of one (as a backup's
// browse answers) and GET …/{name}/download?path= streams one file of it.
import { z } from 'zod';
import { defineFeatureNodePart } from '../../feature-node-part.ts';
import { backupBrowseResultSchema, snapshotPathSchema } from '../backups/backups-node.ts';
import { text } from '../../strings.ts';

export const SNAPSHOT_KINDS = ['scheduled', 'manual'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/**
 * A snapshot's name: Samba's Previous Versions token, the UTC time it was taken to the second
 * (`@GMT-2026.12.06-18.54.31`), which is also the name of its read-only subvolume on the node.
 */
export const SNAPSHOT_NAME_PATTERN = /^@GMT-\d{4}\.\d{2}\.\d{2}-\d{2}\.\d{2}\.\d{2}$/;

/** How often the node takes a scheduled snapshot. */
export const SNAPSHOT_INTERVAL_MINUTES = 15;
/** At most one snapshot on demand per service in this time. */
export const MANUAL_SNAPSHOT_INTERVAL_SECONDS = 60;

/**
 * Why a workspace has no snapshots: its storage is ext4 (made before btrfs, or smaller than
 * btrfs allows), or a plain folder without a size limit (no root, no loop devices).
 */
export const SNAPSHOTS_UNSUPPORTED_REASONS = ['ext4_storage', 'no_image'] as const;
export type SnapshotsUnsupportedReason = (typeof SNAPSHOTS_UNSUPPORTED_REASONS)[number];

export const snapshotSchema = z.object({
  name: text().regex(SNAPSHOT_NAME_PATTERN),
  /** ISO time (UTC) the snapshot was taken. */
  taken_at: text(),
  kind: z.enum(SNAPSHOT_KINDS),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** The node's report (`features.snapshots`): what the storage holds now, newest first. */
export const snapshotsReportSchema = z.object({
  supported: z.boolean(),
  /** Text, so an API older than its agent takes a reason it does not know (shown as ext4_storage). */
  reason: text().max(60).optional(),
  snapshots: z.array(snapshotSchema).max(1000),
});
export type SnapshotsReport = z.infer<typeof snapshotsReportSchema>;

/** Node call `snapshot.take`: take one now. */
export const snapshotTakePayloadSchema = z.object({});
export const snapshotTakeResultSchema = snapshotSchema;

export const snapshotsListResponseSchema = z.object({
  supported: z.boolean(),
  reason: z.enum(SNAPSHOTS_UNSUPPORTED_REASONS).nullable(),
  /** Newest first, as the node last reported them (and any taken since on demand). */
  snapshots: z.array(snapshotSchema),
  /** When the node last reported them; null before its first report. */
  reported_at: text().nullable(),
  /** How often scheduled snapshots are taken (minutes). */
  interval_minutes: z.number().int().positive(),
});
export type SnapshotsListResponse = z.infer<typeof snapshotsListResponseSchema>;

export const snapshotTakeResponseSchema = z.object({ snapshot: snapshotSchema });
export type SnapshotTakeResponse = z.infer<typeof snapshotTakeResponseSchema>;

/** Node call `snapshot.browse`: one folder of one snapshot (`path` from the storage's root). */
export const snapshotBrowsePayloadSchema = z.object({
  name: text().regex(SNAPSHOT_NAME_PATTERN),
  path: snapshotPathSchema,
});
/** The same answer as `backup.browse`: `found: false` when no folder is at `path`. */
export const snapshotBrowseResultSchema = backupBrowseResultSchema;
/** Stream node call `snapshot.download`: one file of one snapshot, as bytes. */
export const snapshotDownloadPayloadSchema = z.object({
  name: text().regex(SNAPSHOT_NAME_PATTERN),
  path: snapshotPathSchema.refine((path) => path !== '/', 'snapshot_path_invalid'),
});

/** A name that is no snapshot's is a 404 (`snapshot_not_found`), not a validation error. */
export const snapshotParamsSchema = z.object({
  serviceId: z.uuid({ error: 'invalid_format' }),
  name: text().max(64),
});

/** Snapshots' part of the node protocol (feature-node-part.ts): what the storage driver reports. */
export const snapshotsNodePart = defineFeatureNodePart({
  feature: 'snapshots',
  reports: { snapshots: snapshotsReportSchema.optional() },
});
