// Backups of a workspace (service-management §3 "Backup schedule", "Backup history entry", §7
// "Backups", §9 presets). Base /api/v1/backups/{serviceId}:
//   GET, POST schedules                   list / create (201)
//   PUT, DELETE schedules/{id}            change (fields left out keep their value; `state`
//                                         pauses and resumes) / delete (204; its history stays)
//   POST schedules/{id}/trigger           run now (202, the new history entry)
//   GET sessions?schedule_id&limit        history, newest first
//   GET sessions/{id}/browse?path         a folder of the entry's snapshot
//   GET sessions/{id}/download?path       beyond the spec: one file of it, as bytes (attachment)
//   POST sessions/{id}/restore            put a file or folder back, or into a new folder (202,
//                                         the new restore)
//   GET restores                          restores asked for, newest first
//   GET usage                             the repository: size, stored bytes, snapshots, last success
//   GET sources                           the shares, homes and exports a schedule may name
//
// Schedules run in their own time zone (`time_zone`, IANA; the account has none, so a schedule
// keeps the one it was made in, the browser's by default). The provider's daily backup of every
// active workspace (§9: seven days kept) is a schedule like the others, `provider_managed`: shown,
// run now-able, never changed or deleted by the owner.
//
// Full and incremental (docs/features/backups.md): every run is a restic snapshot, whole by itself.
// A full run re-reads every file; an incremental one skips files unchanged since the last snapshot
// (same size, time and inode). A run is full when the schedule has had no completed full run for
// `full_every_days` days. Retention keeps the schedule's newest `keep_full` full snapshots and
// newest `keep_incremental` incremental ones, and forgets the rest.
import { z } from 'zod';
import { text } from '../../strings.ts';
import { workspaceServiceParamsSchema } from '../users/directory.ts';
import {
  BACKUP_FAILURE_CODES,
  BACKUP_TYPES,
  RESTORE_TARGETS,
  snapshotEntrySchema,
  snapshotPathSchema,
} from './backups-node.ts';
import { isTimeZone } from '../ldap/ldap-directory.ts';

export const BACKUP_FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type BackupFrequency = (typeof BACKUP_FREQUENCIES)[number];

export const BACKUP_SCHEDULE_STATES = ['active', 'paused'] as const;
export type BackupScheduleState = (typeof BACKUP_SCHEDULE_STATES)[number];

/** What a schedule backs up: a Samba share, a user's home folder or an NFS export, by name. */
export const BACKUP_PATH_KINDS = ['share', 'home', 'export'] as const;
export type BackupPathKind = (typeof BACKUP_PATH_KINDS)[number];

/** History statuses: `queued` until the node starts it (the spec's three follow). */
export const BACKUP_SESSION_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type BackupSessionStatus = (typeof BACKUP_SESSION_STATUSES)[number];

export const BACKUP_TRIGGERS = ['schedule', 'manual'] as const;
export const RESTORE_STATUSES = BACKUP_SESSION_STATUSES;

export { BACKUP_FAILURE_CODES, BACKUP_TYPES, RESTORE_TARGETS };

/** Schedules a service may hold (the provider's own not counted). */
export const BACKUP_SCHEDULES_MAX = 20;
/** History entries one GET sessions answers at most, and by default. */
export const BACKUP_SESSIONS_LIMIT_MAX = 500;
export const BACKUP_SESSIONS_LIMIT_DEFAULT = 50;
/** Time zone of the provider's schedule, and of one made without a zone (the seller's). */
export const BACKUP_DEFAULT_TIME_ZONE = 'Europe/Vilnius';

/** §9 presets, at 2:00 in the schedule's time zone. */
export const BACKUP_PRESETS = {
  daily: { frequency: 'daily', hour: 2, minute: 0 },
  weekly: { frequency: 'weekly', hour: 2, minute: 0, weekday: 0 },
  monthly: { frequency: 'monthly', hour: 2, minute: 0, month_day: 1 },
} as const satisfies Record<
  string,
  { frequency: BackupFrequency; hour: number; minute: number; weekday?: number; month_day?: number }
>;
export type BackupPreset = keyof typeof BACKUP_PRESETS;

/**
 * The provider's daily backup's name as stored (English) and as each language shows it: the web
 * app and the mails show the reader's, whatever is stored.
 */
export const PROVIDER_BACKUP_NAMES = { en: 'Daily backup', lt: 'Kasdienė atsarginė kopija' } as const;

/** The provider's daily backup (§9): seven daily snapshots, a full one each week. */
export const PROVIDER_BACKUP_RETENTION = { keep_full: 1, keep_incremental: 6, full_every_days: 7 } as const;

export const backupPathSchema = z.object({
  kind: z.enum(BACKUP_PATH_KINDS),
  /** The share's, user's or export's name (an export by its path). */
  name: text().trim().min(1, 'required').max(200),
});
export type BackupPath = z.infer<typeof backupPathSchema>;

const scheduleFields = {
  name: text().trim().min(1, 'required').max(80),
  frequency: z.enum(BACKUP_FREQUENCIES),
  /** daily, weekly, monthly: the hour it runs at (0–23). */
  hour: z.number().int().min(0).max(23),
  /** Every frequency: the minute past the hour (0–59). */
  minute: z.number().int().min(0).max(59),
  /** weekly: 0 Sunday … 6 Saturday. */
  weekday: z.number().int().min(0).max(6),
  /** monthly: day of the month, 1–28 (every month has it). */
  month_day: z.number().int().min(1).max(28),
  time_zone: text().max(64).refine(isTimeZone, 'time_zone_invalid'),
  paths: z
    .array(backupPathSchema)
    .min(1, 'backup_paths_required')
    .max(200)
    .refine(
      (paths) => new Set(paths.map((path) => `${path.kind}\u0000${path.name}`)).size === paths.length,
      'listed_twice',
    ),
  keep_full: z.number().int().min(1, 'backup_keep_full_min').max(1000),
  keep_incremental: z.number().int().min(0).max(10_000),
  full_every_days: z.number().int().min(1).max(365),
  state: z.enum(BACKUP_SCHEDULE_STATES),
};

export const createBackupScheduleRequestSchema = z.object({
  ...scheduleFields,
  hour: scheduleFields.hour.default(BACKUP_PRESETS.daily.hour),
  minute: scheduleFields.minute.default(0),
  weekday: scheduleFields.weekday.default(0),
  month_day: scheduleFields.month_day.default(1),
  time_zone: scheduleFields.time_zone.default(BACKUP_DEFAULT_TIME_ZONE),
  keep_full: scheduleFields.keep_full.default(4),
  keep_incremental: scheduleFields.keep_incremental.default(14),
  full_every_days: scheduleFields.full_every_days.default(7),
  state: scheduleFields.state.default('active'),
});
export type CreateBackupScheduleRequest = z.input<typeof createBackupScheduleRequestSchema>;

/** PUT schedules/{id}: the fields sent change; the rest keep their value. */
export const updateBackupScheduleRequestSchema = z.strictObject(scheduleFields).partial();
export type UpdateBackupScheduleRequest = z.infer<typeof updateBackupScheduleRequestSchema>;

export const backupScheduleParamsSchema = workspaceServiceParamsSchema.extend({ id: text().uuid() });
export const backupSessionParamsSchema = backupScheduleParamsSchema;

export const backupScheduleSchema = z.object({
  id: text(),
  ...scheduleFields,
  /** The provider's backup names none: it reads the whole storage. */
  paths: z.array(backupPathSchema),
  provider_managed: z.boolean(),
  /** When it runs next (ISO); null while paused. */
  next_run_at: text().nullable(),
  /** Its newest history entry. */
  last_session: z.object({ id: text(), status: z.enum(BACKUP_SESSION_STATUSES), at: text() }).nullable(),
  created_at: text(),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;
export const backupSchedulesResponseSchema = z.object({ schedules: z.array(backupScheduleSchema) });

export const backupSessionSchema = z.object({
  id: text(),
  schedule_id: text().nullable(),
  schedule_name: text(),
  type: z.enum(BACKUP_TYPES),
  trigger: z.enum(BACKUP_TRIGGERS),
  status: z.enum(BACKUP_SESSION_STATUSES),
  /** When it was due (queued). */
  created_at: text(),
  started_at: text().nullable(),
  finished_at: text().nullable(),
  duration_seconds: z.number().nullable(),
  /** Bytes the run added to the repository (after deduplication). */
  size_added: z.number().int().nullable(),
  /** Files it read, and of those new since the last snapshot. */
  files: z.number().int().nullable(),
  files_new: z.number().int().nullable(),
  /** While running: restic's estimate. */
  progress: z
    .object({ percent: z.number(), files_done: z.number().int(), bytes_done: z.number().int() })
    .nullable(),
  /** Whether its snapshot can be browsed and restored (completed, and not yet forgotten by retention). */
  browsable: z.boolean(),
  /** Completed, then forgotten by the schedule's retention. */
  pruned: z.boolean(),
  error_code: z.enum(BACKUP_FAILURE_CODES).nullable(),
  error: text().nullable(),
});
export type BackupSession = z.infer<typeof backupSessionSchema>;

export const backupSessionsQuerySchema = z.object({
  schedule_id: text().uuid().optional(),
  limit: z.coerce.number().int().min(1).max(BACKUP_SESSIONS_LIMIT_MAX).default(BACKUP_SESSIONS_LIMIT_DEFAULT),
});
export const backupSessionsResponseSchema = z.object({ sessions: z.array(backupSessionSchema) });

export const backupBrowseQuerySchema = z.object({ path: snapshotPathSchema.default('/') });
export const backupBrowseResponseSchema = z.object({
  path: text(),
  entries: z.array(snapshotEntrySchema),
  /** The folder holds more entries than one answer lists. */
  truncated: z.boolean(),
});
export type BackupBrowseResponse = z.infer<typeof backupBrowseResponseSchema>;

export const backupDownloadQuerySchema = z.object({
  path: snapshotPathSchema.refine((path) => path !== '/', 'snapshot_path_invalid'),
});

export const backupRestoreRequestSchema = z.object({
  path: snapshotPathSchema.refine((path) => path !== '/', 'restore_root'),
  target: z.enum(RESTORE_TARGETS).default('original'),
});
export type BackupRestoreRequest = z.input<typeof backupRestoreRequestSchema>;

export const backupRestoreSchema = z.object({
  id: text(),
  session_id: text(),
  path: text(),
  target: z.enum(RESTORE_TARGETS),
  /** target `folder`: where it was written, as a path of the storage (`/shares/x/report (restored 2026-11-28)`). */
  restored_to: text().nullable(),
  status: z.enum(RESTORE_STATUSES),
  created_at: text(),
  finished_at: text().nullable(),
  files_restored: z.number().int().nullable(),
  error_code: z.enum(BACKUP_FAILURE_CODES).nullable(),
  error: text().nullable(),
});
export type BackupRestore = z.infer<typeof backupRestoreSchema>;
export const backupRestoresResponseSchema = z.object({ restores: z.array(backupRestoreSchema) });

export const backupUsageSchema = z.object({
  /** Bytes the repository takes on the node (null: not measured yet). */
  repository_bytes: z.number().int().nullable(),
  /** Data stored after deduplication and compression. */
  stored_bytes: z.number().int().nullable(),
  snapshots: z.number().int().nullable(),
  measured_at: text().nullable(),
  last_success_at: text().nullable(),
});
export type BackupUsage = z.infer<typeof backupUsageSchema>;

/** The folders a schedule may name, for the picker (names as BackupPath names them). */
export const backupSourcesResponseSchema = z.object({
  shares: z.array(text()),
  homes: z.array(text()),
  exports: z.array(text()),
});
export type BackupSources = z.infer<typeof backupSourcesResponseSchema>;
