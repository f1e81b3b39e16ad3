// Services (workspaces) as the owner sees them (spec service-management §3 "Service").
import { z } from 'zod';
import { serviceReplicaSchema } from './replicas.ts';
import { text } from './strings.ts';

export const SERVICE_STATUSES = [
  'awaitingPayment',
  'processing',
  'resourcePending',
  'failed',
  'active',
  'suspended',
  'quarantined',
  'cancelled',
  'terminated',
  'expired',
] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

/**
 * What the workspace features count of a service, for the overview and its stats (the API's
 * feature registry gathers them). A feature not used there leaves its count out (no Samba: no
 * `shares`); users and groups are always counted. A new feature adds its optional count here.
 */
export const serviceFeatureCountsSchema = z.object({
  users_active: z.number().int(),
  groups: z.number().int(),
  shares: z.number().int().optional(),
  /** VPN users, and of them those connected now. */
  vpn_users: z.number().int().optional(),
  vpn_online: z.number().int().optional(),
  /** NFS exports. */
  nfs_exports: z.number().int().optional(),
});
export type ServiceFeatureCounts = z.infer<typeof serviceFeatureCountsSchema>;

export const serviceSummarySchema = z.object({
  id: text(),
  order_id: text(),
  name: text(),
  plan: text(),
  product_id: text(),
  /** The billing period the service renews by (plan changes are priced on it). */
  period_id: text(),
  status: z.enum(SERVICE_STATUSES),
  valid_until: text(),
  /** Null until the service is placed on a node. */
  ip_address: text().nullable(),
  disk_space: z.number().int(),
  /** Bytes in use and files stored; null until the node has reported them. */
  disk_usage: z.number().int().nullable(),
  file_usage: z.number().int().nullable(),
  ...serviceFeatureCountsSchema.shape,
  /** Users the plan allows. */
  users_total: z.number().int(),
  /** Minor units, before VAT. */
  monthly_price: z.number().int(),
  /** Seconds since the workspace last started; null while it is not running. */
  uptime: z.number().int().nullable(),
});
export type ServiceSummary = z.infer<typeof serviceSummarySchema>;

/** What the owner asked the workspace to do: serve (running) or hold its data unserved (stopped). */
export const SERVICE_RUN_STATES = ['running', 'stopped'] as const;
export type ServiceRunState = (typeof SERVICE_RUN_STATES)[number];

/**
 * What the owner is shown about a service: one state, computed by the API from its status, what
 * the owner asked (run state) and what its node last reported, and shown alike by the services
 * list, the service page's header and its overview. The spec's display states (§4: active,
 * stopped, running, connected, locked, preparing) and the few more the truth needs:
 * - `awaitingPayment`, `failed` (its payment failed): not paid yet;
 * - `preparing`: paid and being set up on a node; `waitingForResources`: paid, no node has room
 *   yet (retried every 2 minutes);
 * - `running`: its node reports its daemons serving; `active`: set up and asked to run, but its
 *   node has not (yet) reported a daemon serving it (being started, or a node that only renders);
 * - `restarting`: the owner asked for a restart and its node has not applied it yet (its daemons
 *   are down on purpose for a moment);
 * - `degraded`: served, but its node could not apply the latest change (the reason: `display_reason`);
 * - `offline`: asked to run, but nothing serves it: its node reports a daemon down, or its node
 *   has stopped reporting;
 * - `stopped`: stopped by the owner, data kept;
 * - `locked`: expired, quarantined or suspended (the status says which);
 * - `cancelled`, `terminated`: ended;
 * - `connected`: the state of a client (a VPN user, a backup client), shown by the same badge; a
 *   service itself is never connected.
 */
export const SERVICE_DISPLAY_STATES = [
  'awaitingPayment',
  'failed',
  'preparing',
  'waitingForResources',
  'active',
  'running',
  'restarting',
  'degraded',
  'offline',
  'stopped',
  'locked',
  'cancelled',
  'terminated',
  'connected',
] as const;
export type ServiceDisplayState = (typeof SERVICE_DISPLAY_STATES)[number];

/**
 * Why a service is degraded or offline: its node reports a daemon of it down (`not_serving`:
 * offline), its node has not reported for a while (`node_silent`: degraded, since its daemons may
 * well still serve while nobody can see or change them), or its node could not apply the latest
 * change and serves it as it was (`change_not_applied`: degraded).
 */
export const SERVICE_DISPLAY_REASONS = ['not_serving', 'node_silent', 'change_not_applied'] as const;
export type ServiceDisplayReason = (typeof SERVICE_DISPLAY_REASONS)[number];

/**
 * Days a cancelled service's data is kept before it is deleted for good (the API's lifecycle reads
 * it from here; the confirmation of a cancel names the date).
 */
export const SERVICE_CANCELLED_RETENTION_DAYS = 14;

/** POST /services/{id}/action. An unknown action is refused as a validation error (422). */
export const SERVICE_ACTIONS = [
  'start',
  'stop',
  'restart',
  'retry-payment',
  'extend',
  'cancel',
  'terminate',
] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** Whether the node runs what the API last asked for (generation vs observed generation). */
export const SERVICE_APPLY_STATUSES = ['applied', 'applying', 'failed'] as const;
export type ServiceApplyStatus = (typeof SERVICE_APPLY_STATUSES)[number];

/** Expiring soon, then critical, as valid_until comes near (thresholds: the API's lifecycle constants). */
export const EXPIRY_WARNINGS = ['expiring_soon', 'critical'] as const;
export type ExpiryWarning = (typeof EXPIRY_WARNINGS)[number];

/**
 * One service of the overview: the summary plus the lifecycle fields. The added fields have
 * defaults so that a client reading an older answer (or a fixture of a summary) still parses.
 */
export const serviceOverviewItemSchema = serviceSummarySchema.extend({
  description: text().default(''),
  run_state: z.enum(SERVICE_RUN_STATES).default('running'),
  display_state: z.enum(SERVICE_DISPLAY_STATES).default('preparing'),
  display_reason: z.enum(SERVICE_DISPLAY_REASONS).nullable().default(null),
  apply_status: z.enum(SERVICE_APPLY_STATUSES).default('applying'),
  /**
   * The actions of POST /services/{id}/action the owner can take now (the lifecycle allows them
   * from its status, and start, stop and restart change something): the rest are disabled.
   */
  actions: z.array(z.enum(SERVICE_ACTIONS)).default([]),
  /** Set while an active service nears valid_until; `days_left` says how near. */
  expiry_warning: z.enum(EXPIRY_WARNINGS).nullable().default(null),
  /** Whole days until valid_until (rounded up, 0 once passed); null when the service has ended. */
  days_left: z.number().int().nullable().default(null),
  /**
   * When the data is deleted unless the service is extended (expired, quarantined) or for good
   * (cancelled); null otherwise.
   */
  terminates_at: text().nullable().default(null),
  /**
   * Its second copy on another node (replicas.ts): whether there is one and when it was last in
   * sync. Defaults to none for an older answer.
   */
  replica: serviceReplicaSchema.default({ state: 'none', node: null, last_in_sync_at: null }),
  /** Renewed automatically with the account's kept card (PATCH /services/{id} switches it). */
  auto_renew: z.boolean().default(true),
});
export type ServiceOverviewItem = z.infer<typeof serviceOverviewItemSchema>;

export const servicesOverviewSchema = z.object({ services: z.array(serviceOverviewItemSchema) });
export type ServicesOverview = z.infer<typeof servicesOverviewSchema>;

/** GET /services/status: every service's state at a glance. */
export const serviceStateSchema = z.object({
  id: text(),
  name: text(),
  status: z.enum(SERVICE_STATUSES),
  run_state: z.enum(SERVICE_RUN_STATES),
  display_state: z.enum(SERVICE_DISPLAY_STATES),
  display_reason: z.enum(SERVICE_DISPLAY_REASONS).nullable(),
  apply_status: z.enum(SERVICE_APPLY_STATUSES),
});
export type ServiceState = z.infer<typeof serviceStateSchema>;
export const servicesStatusSchema = z.object({ services: z.array(serviceStateSchema) });

export const serviceDriverStatusSchema = z.object({
  driver: text(),
  /** live: the real program serves it; otherwise `reason` says why it is only rendered and checked. */
  live: z.boolean(),
  reason: text().nullable(),
});

/** GET /services/{id}/status: how far the node is with what the API asked for, and why not. */
export const serviceStatusSchema = serviceStateSchema.extend({
  /** Every accepted change adds one; the node reports the generation it has applied. */
  generation: z.number().int(),
  observed_generation: z.number().int(),
  /** Whether the service has a node, and whether that node has been heard from lately. */
  placed: z.boolean(),
  node_online: z.boolean().nullable(),
  drivers: z.array(serviceDriverStatusSchema),
  /** Users, groups or shares the node could not apply. */
  failures: z.array(z.object({ kind: text(), name: text(), error: text() })),
  last_error: text().nullable(),
  /** When the node last reported on it, and when its daemons last started (ISO times). */
  reported_at: text().nullable(),
  started_at: text().nullable(),
  uptime: z.number().int().nullable(),
});
export type ServiceStatusDetail = z.infer<typeof serviceStatusSchema>;

export const serviceActionRequestSchema = z.object({
  action: z.enum(SERVICE_ACTIONS),
  /** Per action: `extend` takes `period_id`; the others take none. */
  params: z.record(text(), z.unknown()).default({}),
});
export type ServiceActionRequest = z.infer<typeof serviceActionRequestSchema>;

export const serviceActionResponseSchema = z.object({
  action: z.enum(SERVICE_ACTIONS),
  service: serviceStatusSchema,
  /** retry-payment: the payment session to send the owner to. */
  payment: z.object({ session_id: text(), url: text() }).nullable(),
  /** extend: the extension order to pay (its id; pay it with POST /orders/{id}/process). */
  order_id: text().nullable(),
});
export type ServiceActionResponse = z.infer<typeof serviceActionResponseSchema>;

/** GET /services/{id}/logs?lines= (spec §9: default 100). */
export const SERVICE_LOG_LINES_DEFAULT = 100;
export const SERVICE_LOG_LINES_MAX = 1000;
export const serviceLogsQuerySchema = z.object({
  lines: z.coerce
    .number({ error: 'not_integer' })
    .int('not_integer')
    .min(1)
    .max(SERVICE_LOG_LINES_MAX)
    .default(SERVICE_LOG_LINES_DEFAULT),
});

/**
 * One line of a service's log: `management` lines are the activity entries of the service (who
 * changed what; `code` is its ACTIVITY_ACTIONS code, `params` its details and `ip`), `agent` lines
 * are what its node reported applying or failing (`code` one of NODE_LOG_CODES). Clients show the
 * code in the reader's language with its params; `message` is the line in plain English, and the
 * only text of a line written before codes (its `code` is null).
 */
export const serviceLogLineSchema = z.object({
  at: text(),
  source: z.enum(['management', 'agent']),
  level: z.enum(['success', 'info', 'warning', 'error']),
  code: text().nullable(),
  params: z.record(text(), z.unknown()),
  message: text(),
});
export type ServiceLogLine = z.infer<typeof serviceLogLineSchema>;
/** The newest `lines` lines, oldest first (as a log reads). */
export const serviceLogsSchema = z.object({ lines: z.array(serviceLogLineSchema) });

/** GET /services/{id}/stats: usage against the plan, as the node last measured it. */
export const serviceStatsSchema = z.object({
  id: text(),
  disk_space_bytes: z.number().int(),
  disk_used_bytes: z.number().int().nullable(),
  /** 0–100 with one decimal; null until measured. */
  disk_used_percent: z.number().nullable(),
  file_count: z.number().int().nullable(),
  ...serviceFeatureCountsSchema.shape,
  /** Users the plan allows. */
  users_total: z.number().int(),
  /** Monthly bandwidth, GB: twice the disk space (spec §9). */
  bandwidth_gb: z.number().int(),
  uptime: z.number().int().nullable(),
  started_at: text().nullable(),
  reported_at: text().nullable(),
  valid_until: text(),
  days_left: z.number().int().nullable(),
});
export type ServiceStats = z.infer<typeof serviceStatsSchema>;

/** Workspace settings the owner may change (Samba, VPN, … settings live in their own tabs). */
export const SERVICE_NAME_MAX = 80;
export const SERVICE_DESCRIPTION_MAX = 500;
/** Control characters (line breaks allowed where `allowBreaks`): never part of a name or text. */
function hasControlCharacters(value: string, allowBreaks: boolean): boolean {
  for (const character of value) {
    const code = character.charCodeAt(0);
    if (allowBreaks && (code === 9 || code === 10 || code === 13)) continue;
    if (code < 32 || code === 127) return true;
  }
  return false;
}

export const serviceNameSchema = text()
  .trim()
  .min(1, 'required')
  .max(SERVICE_NAME_MAX, 'too_long')
  .refine((value) => !hasControlCharacters(value, false), 'invalid_format');
const serviceDescriptionSchema = text()
  .trim()
  .max(SERVICE_DESCRIPTION_MAX, 'too_long')
  .refine((value) => !hasControlCharacters(value, true), 'invalid_format');

export const serviceConfigSchema = z.object({
  name: text(),
  description: text(),
  /** Mail the owner as valid_until comes near (expiring soon, critical). */
  expiry_reminders: z.boolean(),
  /** Renew with the account's kept card RENEWAL_LEAD_DAYS before valid_until (issue 38). */
  auto_renew: z.boolean(),
});
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;

/** PUT /services/{id}/config: any of the settings; at least one. */
export const serviceConfigUpdateSchema = z
  .object({
    name: serviceNameSchema.optional(),
    description: serviceDescriptionSchema.optional(),
    expiry_reminders: z.boolean().optional(),
    auto_renew: z.boolean().optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'required', path: ['name'] });
export type ServiceConfigUpdate = z.infer<typeof serviceConfigUpdateSchema>;

/** PUT /services/{id}: rename or describe the service; answers the overview item. */
export const serviceUpdateSchema = z
  .object({ name: serviceNameSchema.optional(), description: serviceDescriptionSchema.optional() })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'required', path: ['name'] });
export type ServiceUpdate = z.infer<typeof serviceUpdateSchema>;
