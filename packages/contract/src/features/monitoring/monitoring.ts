// Monitoring (spec service-management §3 `monitoring` tab, §7 Monitoring, §9 windows; issue 21):
// base /api/v1/monitoring, the owner's token.
//   GET services/{id}/activity?hours|minutes   what the daemons recorded, charted and listed
//   GET users/{userId}/activity?hours          the same for one workspace user
//   GET services/{id}/quota?hours              size, used, free, files, trend, who owns what
//   GET users/{userId}/quota                   what one user owns
//   GET tasks?hours&job_id&service_id          provisioning, config applies, backups, restores
//   GET alerts?hours&level&service_id          raised and cleared alerts
//   GET services/{id}/status                   each daemon up or down, last apply, node
//   GET, PUT, DELETE webhook; POST webhook/test  beyond the spec: alerts posted to the owner's URL
import { z } from 'zod';
import { ACTIVITY_EVENT_KINDS, ACTIVITY_SOURCES } from './monitoring-node.ts';
import { text } from '../../strings.ts';
import { WORKSPACE_NAME_PATTERN } from '../../workspace-names.ts';

export const MONITORING_BASE_PATH = '/api/v1/monitoring';

/** §9: the windows the owner picks from; the default is the first. */
export const MONITORING_WINDOW_HOURS = [24, 48, 72, 168] as const;
export const MONITORING_DEFAULT_HOURS = 24;
/** §9: the real-time view covers the last 100 minutes, minute by minute. */
export const REALTIME_MINUTES = 100;
/** How long events are kept (and so the longest window asked for): 90 days. */
export const ACTIVITY_RETENTION_DAYS = 90;
export const MONITORING_MAX_HOURS = ACTIVITY_RETENTION_DAYS * 24;
/** Disk use at which an alert is raised: a warning, then a critical one. */
export const DISK_ALERT_PERCENT = { warning: 80, critical: 90 } as const;
/** A service this many days before its end has an alert. */
export const EXPIRY_ALERT_DAYS = 7;
/** A daemon that started this many times within RESTART_ALERT_MINUTES is restarting repeatedly. */
export const RESTART_ALERT_STARTS = 3;
export const RESTART_ALERT_MINUTES = 10;
/** A node silent this long is unreachable. */
export const NODE_UNREACHABLE_SECONDS = 120;

const hoursSchema = z.coerce
  .number({ error: 'invalid_value' })
  .int({ error: 'invalid_value' })
  .min(1, { error: 'invalid_value' })
  .max(MONITORING_MAX_HOURS, { error: 'invalid_value' });

export const monitoringServiceParamsSchema = z.object({ id: z.uuid({ error: 'invalid_format' }) });
export const monitoringUserParamsSchema = z.object({ userId: z.uuid({ error: 'invalid_format' }) });

export const ACTIVITY_PAGE_DEFAULT = 100;
export const ACTIVITY_PAGE_MAX = 500;

export const activityQuerySchema = z.object({
  hours: hoursSchema.default(MONITORING_DEFAULT_HOURS),
  /** Real time: the last N minutes (at most REALTIME_MINUTES), minute by minute; wins over hours. */
  minutes: z.coerce
    .number({ error: 'invalid_value' })
    .int({ error: 'invalid_value' })
    .min(1, { error: 'invalid_value' })
    .max(REALTIME_MINUTES, { error: 'invalid_value' })
    .optional(),
  kind: z.enum(ACTIVITY_EVENT_KINDS, { error: 'invalid_value' }).optional(),
  source: z.enum(ACTIVITY_SOURCES, { error: 'invalid_value' }).optional(),
  /** One user's events (the service's route; the user's route has it in its path). */
  user: text().regex(WORKSPACE_NAME_PATTERN, 'invalid_format').optional(),
  limit: z.coerce
    .number({ error: 'invalid_value' })
    .int({ error: 'invalid_value' })
    .min(1, { error: 'invalid_value' })
    .max(ACTIVITY_PAGE_MAX, { error: 'invalid_value' })
    .default(ACTIVITY_PAGE_DEFAULT),
  /** The next page: events older than this one (`next_before` of the page before). */
  before: text()
    .regex(/^\d{1,16}\.\d{1,19}$/, 'invalid_format')
    .optional(),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityEventSchema = z.object({
  id: text(),
  at: text(),
  source: z.enum(ACTIVITY_SOURCES),
  kind: z.enum(ACTIVITY_EVENT_KINDS),
  user: text().nullable(),
  path: text().nullable(),
  target: text().nullable(),
  bytes: z.number().int().nullable(),
  remote_address: text().nullable(),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

const bySourceSchema = z.partialRecord(z.enum(ACTIVITY_SOURCES), z.number().int());
const byKindSchema = z.partialRecord(z.enum(ACTIVITY_EVENT_KINDS), z.number().int());

export const activityBucketSchema = z.object({
  start: text(),
  events: z.number().int(),
  /** Bytes moved: files written and read, tunnels' traffic, backups' bytes added. */
  bytes: z.number().int(),
  by_source: bySourceSchema,
});
export type ActivityBucket = z.infer<typeof activityBucketSchema>;

export const activityResponseSchema = z.object({
  from: text(),
  to: text(),
  /** 60 in real time, 3600 up to a week, 86400 beyond. */
  bucket_seconds: z.number().int(),
  /** Oldest first, every bucket of the window present. */
  series: z.array(activityBucketSchema),
  totals: z.object({ events: z.number().int(), bytes: z.number().int(), by_kind: byKindSchema }),
  /** The busiest users of the window, most events first (at most 10). */
  users: z.array(z.object({ user: text(), events: z.number().int(), bytes: z.number().int() })),
  /** Newest first. */
  events: z.array(activityEventSchema),
  /** Pass as `before` for the next, older page; null: no more. */
  next_before: text().nullable(),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

export const quotaQuerySchema = z.object({ hours: hoursSchema.default(168) });

export const userQuotaSchema = z.object({
  user_id: z.uuid().nullable(),
  user: text(),
  bytes: z.number().int(),
  files: z.number().int(),
});
export type UserQuota = z.infer<typeof userQuotaSchema>;

export const serviceQuotaResponseSchema = z.object({
  service_id: z.uuid(),
  size_bytes: z.number().int(),
  used_bytes: z.number().int(),
  free_bytes: z.number().int(),
  used_percent: z.number(),
  files: z.number().int(),
  /** When the node last measured it (null: not yet). */
  measured_at: text().nullable(),
  /** Use over the window, oldest first (one point an hour). */
  trend: z.array(z.object({ at: text(), used_bytes: z.number().int(), files: z.number().int() })),
  /** Growth over the window per day (negative: shrinking); null with fewer than two points. */
  growth_bytes_per_day: z.number().nullable(),
  /** At that growth, days until the disk is full; null when not growing. */
  full_in_days: z.number().nullable(),
  /** Who owns what, most first; null until the node has counted it once. */
  users: z.array(userQuotaSchema).nullable(),
  other_bytes: z.number().int().nullable(),
  users_measured_at: text().nullable(),
});
export type ServiceQuotaResponse = z.infer<typeof serviceQuotaResponseSchema>;

export const userQuotaResponseSchema = userQuotaSchema.extend({
  service_id: z.uuid(),
  /** Of the service's used bytes. */
  used_percent: z.number(),
  measured_at: text().nullable(),
});
export type UserQuotaResponse = z.infer<typeof userQuotaResponseSchema>;

/** What a task is: a service's first set-up on its node, a later change applied, a backup, a restore. */
export const TASK_KINDS = ['provisioning', 'apply', 'backup', 'restore'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const tasksQuerySchema = z.object({
  hours: hoursSchema.default(MONITORING_DEFAULT_HOURS),
  /** One task, by its id (any age). */
  job_id: text().min(1).max(100).optional(),
  service_id: z.uuid({ error: 'invalid_format' }).optional(),
});

export const taskSchema = z.object({
  /** `apply:<service>:<generation>`, or a backup run's or restore's id. */
  id: text(),
  kind: z.enum(TASK_KINDS),
  state: z.enum(TASK_STATES),
  service_id: z.uuid(),
  service_name: text(),
  /** What it was: the generation applied, the backup schedule's name, the restore's path. */
  subject: text().nullable(),
  started_at: text(),
  finished_at: text().nullable(),
  duration_ms: z.number().int().nullable(),
  /** A failure's code (the texts name it) and the node's own words. */
  error_code: text().nullable(),
  error: text().nullable(),
});
export type Task = z.infer<typeof taskSchema>;
export const tasksResponseSchema = z.object({ tasks: z.array(taskSchema) });
export type TasksResponse = z.infer<typeof tasksResponseSchema>;

export const ALERT_KINDS = [
  'disk_warning',
  'disk_critical',
  'backup_failed',
  'daemon_down',
  'daemon_restarting',
  'node_unreachable',
  'vpn_over_limit',
  'service_expiring',
  /** The month's bandwidth past BANDWIDTH_ALERT_PERCENT; then used up (the link throttled). */
  'bandwidth_warning',
  'bandwidth_exhausted',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_LEVELS = ['warning', 'critical'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

export const alertsQuerySchema = z.object({
  /** Alerts raised within the window, and every one still active. */
  hours: hoursSchema.default(MONITORING_DEFAULT_HOURS),
  level: z.enum(ALERT_LEVELS, { error: 'invalid_value' }).optional(),
  service_id: z.uuid({ error: 'invalid_format' }).optional(),
});

export const alertSchema = z.object({
  id: z.uuid(),
  kind: z.enum(ALERT_KINDS),
  level: z.enum(ALERT_LEVELS),
  service_id: z.uuid(),
  service_name: text(),
  /** What it is about within the service: the daemon, the VPN user, the backup schedule. */
  subject: text().nullable(),
  /** Numbers and names the texts show (`percent`, `days`, `starts`). */
  params: z.record(text(), z.union([text(), z.number()])),
  raised_at: text(),
  /** Null while the cause lasts. */
  cleared_at: text().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertsResponseSchema = z.object({ alerts: z.array(alertSchema) });
export type AlertsResponse = z.infer<typeof alertsResponseSchema>;

/** A daemon as its node last reported it. */
export const DAEMON_STATES = ['up', 'down', 'not_needed', 'not_live'] as const;
export type DaemonState = (typeof DAEMON_STATES)[number];

export const monitoringStatusResponseSchema = z.object({
  service_id: z.uuid(),
  node: z.object({ name: text(), online: z.boolean(), last_seen_at: text().nullable() }).nullable(),
  last_apply: z.object({
    generation: z.number().int(),
    observed_generation: z.number().int(),
    /** When the node last reported the desired generation applied. */
    applied_at: text().nullable(),
    ok: z.boolean().nullable(),
    error_code: text().nullable(),
  }),
  daemons: z.array(
    z.object({
      name: text(),
      state: z.enum(DAEMON_STATES),
      started_at: text().nullable(),
      uptime_seconds: z.number().int().nullable(),
      /** Starts seen in the last 24 hours. */
      starts_24h: z.number().int(),
      reason: text().nullable(),
    }),
  ),
  reported_at: text().nullable(),
  active_alerts: z.number().int(),
});
export type MonitoringStatusResponse = z.infer<typeof monitoringStatusResponseSchema>;

/** Beyond the spec: where the account's alerts are posted, signed like the payment events. */
export const MONITORING_WEBHOOK_SIGNATURE_HEADER = 'debesis-signature';
export const webhookRequestSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'invalid_format' }).max(2000, { error: 'invalid_format' }),
});
export const webhookResponseSchema = z.object({
  url: text().nullable(),
  /** Shown once, when the URL is set: the key the signatures are made with. */
  secret: text().optional(),
  created_at: text().nullable(),
  last_delivery: z.object({ at: text(), ok: z.boolean(), status: z.number().int().nullable() }).nullable(),
});
export type WebhookResponse = z.infer<typeof webhookResponseSchema>;

/** What the webhook receives: one alert raised or cleared. */
export const webhookEventSchema = z.object({
  id: text(),
  type: z.enum(['alert.raised', 'alert.cleared', 'webhook.test']),
  created_at: text(),
  alert: alertSchema.nullable(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
