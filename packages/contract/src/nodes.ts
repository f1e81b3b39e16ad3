// What a storage node's agent and the control plane say to each other. The agent authenticates
// with a registration token once, then with its own node token (`Authorization: Bearer …`).
import { z } from 'zod';
import { planAddressKindSchema, type PlanAddressKind } from './products.ts';
import { text } from './strings.ts';
import { WORKSPACE_NAME_PATTERN } from './workspace-names.ts';
import { featureNodeReports, featureNodeSections } from './features/node-parts.ts';
import { VPN_TUNNEL_SERVER_ADDRESS } from './features/vpn/vpn-node.ts';
import {
  snapshotBrowsePayloadSchema,
  snapshotBrowseResultSchema,
  snapshotDownloadPayloadSchema,
  snapshotTakePayloadSchema,
  snapshotTakeResultSchema,
} from './features/snapshots/snapshots.ts';
import { REPLICA_ROLES, replicaReportSchema, replicaSendPayloadSchema } from './replicas.ts';
import {
  backupBrowsePayloadSchema,
  backupBrowseResultSchema,
  backupDownloadPayloadSchema,
} from './features/backups/backups-node.ts';
import {
  shareDescribePayloadSchema,
  shareDescribeResultSchema,
  shareDownloadPayloadSchema,
  storageBrowsePayloadSchema,
  storageBrowseResultSchema,
} from './features/share-links/share-links-node.ts';

export const nodeCapacitySchema = z.object({
  /** Bytes the node can hand out to workspace storage, and how much of that is still free. */
  disk_total_bytes: z.number().int().nonnegative(),
  disk_free_bytes: z.number().int().nonnegative(),
  /** Addresses this node can give to workspaces (a loopback alias range locally). */
  addresses: z.array(text().min(1)).max(4096),
});
export type NodeCapacity = z.infer<typeof nodeCapacitySchema>;

export const nodeRegisterRequestSchema = z.object({
  name: text()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'invalid_format'),
  hostname: text().min(1).max(255),
  agent_version: text().min(1).max(40),
  capacity: nodeCapacitySchema,
});
export type NodeRegisterRequest = z.infer<typeof nodeRegisterRequestSchema>;

export const nodeRegisterResponseSchema = z.object({
  node_id: text().uuid(),
  node_token: text(),
});
export type NodeRegisterResponse = z.infer<typeof nodeRegisterResponseSchema>;

export { WORKSPACE_NAME_PATTERN };
/** Names a customer may not take: they mean something to the system or to Samba. */
export const RESERVED_WORKSPACE_NAMES = [
  'root',
  'daemon',
  'bin',
  'sys',
  'sync',
  'games',
  'man',
  'lp',
  'mail',
  'news',
  'uucp',
  'proxy',
  'www-data',
  'backup',
  'list',
  'irc',
  'gnats',
  'nobody',
  'nogroup',
  'users',
  'staff',
  'adm',
  'sudo',
  'admin',
  'administrator',
  'guest',
  'homes',
  'printers',
  'print',
  'ipc',
  'global',
  'sshd',
  'ftp',
  'systemd-network',
  'messagebus',
  'openldap',
  'debesis',
] as const;

/**
 * Each workspace owns a block of Unix ids, `id_base … id_base + WORKSPACE_ID_BLOCK − 1`, for its
 * users and groups, so the same name in two workspaces is two different owners on disk.
 * `id_base` itself is the workspace's default group (`users` inside the workspace): the primary
 * group of a user who is primary member of no group.
 */
export const WORKSPACE_ID_BLOCK = 10_000;
export const WORKSPACE_ID_FIRST_BASE = 1_000_000;

/**
 * Where a workspace's services other than OpenVPN answer, by its plan's kind of address (issue 36
 * point 13): a dedicated plan's on the workspace's own address; a NAT plan's (Starter) only inside
 * the tunnel, at VPN_TUNNEL_SERVER_ADDRESS (its own address is the VPN's door alone). The one rule:
 * the agent binds its daemons by it and the API names it in every status and connect field.
 */
export function servicesAddress(address: string, kind: PlanAddressKind): string {
  return kind === 'nat' ? VPN_TUNNEL_SERVER_ADDRESS : address;
}

/**
 * The sections of a workspace's desired state that its features fill: each feature's node part
 * (features/node-parts.ts; the API's workspace feature registry assembles them), plus the
 * platform's own. Every section may be absent: the feature is not used there (no users, no Samba).
 */
export const workspaceFeatureSectionsSchema = z.object({
  ...featureNodeSections,
  /**
   * The workspace has moved its plan's bandwidth this month of its billing period: the node
   * throttles its network link (both ways) to BANDWIDTH_THROTTLE_KBIT until the API clears this
   * (a new month of the period, a bigger plan). Its storage stays served, only slower. Absent:
   * not throttled.
   */
  bandwidth_throttled: z.boolean().optional(),
});
export type WorkspaceFeatureSections = z.infer<typeof workspaceFeatureSectionsSchema>;

/**
 * One workspace as the node should run it. `generation` grows with every change the API
 * accepts; the agent reports back the generation it has applied. Its features' sections are
 * workspaceFeatureSectionsSchema's.
 */
export const workspaceDesiredStateSchema = z.object({
  service_id: text(),
  generation: z.number().int().nonnegative(),
  /** running: serve it; stopped: keep data, serve nothing; removed: delete everything. */
  state: z.enum(['running', 'stopped', 'removed']),
  /** The workspace's own address on the node (its pool address): see `address_kind`. */
  address: text(),
  /**
   * The plan's kind of address (products.address). `dedicated`: every daemon answers on
   * `address`. `nat`: the address is the VPN's door only; every other daemon answers on the
   * workspace's VPN-side address (VPN_TUNNEL_SERVER_ADDRESS) and nowhere else, so a customer
   * connects the VPN first. Absent from an API before this field: dedicated, as then.
   */
  address_kind: planAddressKindSchema.optional(),
  /**
   * What this node is to the workspace (replicas.ts). `primary` (absent: as before) serves it.
   * `standby` keeps a replica only: its storage holds the replicas it pulls from the primary, with
   * no `data`, no network and no daemons; `state` is then the primary's, and the sections are
   * there only so that a promotion needs nothing more. A standby turned primary (failover, move)
   * makes its `data` from its newest replica and serves.
   */
  role: z.enum(REPLICA_ROLES).optional(),
  /**
   * A primary with a standby elsewhere: it may be failed over, so it stops serving once it has not
   * reached the API for PRIMARY_FENCE_AFTER_MS. Absent: it serves whatever happens to the API.
   */
  failover: z.boolean().optional(),
  /**
   * A standby pulls at once when this changes (a move's final sync, taken after the primary
   * stopped), besides every REPLICA_SYNC_INTERVAL_SECONDS.
   */
  sync_token: text().max(64).optional(),
  /** Hard size limit of its storage, bytes (the plan's disk space). */
  storage_bytes: z.number().int().positive(),
  /** First id of its Unix id block (see WORKSPACE_ID_BLOCK). */
  id_base: z.number().int().positive(),
  ...workspaceFeatureSectionsSchema.shape,
  /**
   * Changes when the owner asks for a restart (POST /services/{id}/restart): the agent restarts
   * the workspace's daemons once when the token differs from the one it acted on last, even if
   * nothing else changed. Absent until the first restart is asked for.
   */
  restart_token: text().max(64).optional(),
});
export type WorkspaceDesiredState = z.infer<typeof workspaceDesiredStateSchema>;

/**
 * The rate a throttled workspace's link keeps each way, kbit/s (10 Mbit/s): slow enough to be felt
 * and to cost little, fast enough that files stay usable.
 */
export const BANDWIDTH_THROTTLE_KBIT = 10_000;

export const nodeDesiredStateResponseSchema = z.object({
  node_id: text().uuid(),
  workspaces: z.array(workspaceDesiredStateSchema),
});
export type NodeDesiredStateResponse = z.infer<typeof nodeDesiredStateResponseSchema>;

/**
 * A node's drivers, by the names their statuses carry in a report (`driver`): the agent names its
 * drivers so and the API reads their statuses by them, both from here. Frozen wire values: some
 * predate the feature ids (`backup` serves the `backups` feature, `users` the directory), and an
 * agent older than its API must still be understood, so they are not renamed to match.
 */
export const NODE_DRIVERS = {
  workspaceDir: 'workspace-dir',
  storage: 'storage',
  network: 'network',
  users: 'users',
  samba: 'samba',
  vpn: 'vpn',
  nfs: 'nfs',
  ftp: 'ftp',
  sftp: 'sftp',
  ldap: 'ldap',
  backup: 'backup',
  backupClients: 'backup-clients',
} as const;
export type NodeDriverName = (typeof NODE_DRIVERS)[keyof typeof NODE_DRIVERS];

export const driverStatusSchema = z.object({
  driver: text(),
  /** live: the real program runs it; not_live: rendered and checked only, `reason` says why. */
  live: z.boolean(),
  reason: text().optional(),
  /**
   * A daemon's driver (samba): whether its daemon serves now. False while the workspace should
   * serve and the daemon does not (`reason` says why); absent where nothing should run.
   */
  serving: z.boolean().optional(),
  /** A daemon's driver, while its daemon serves: when it started (ISO time), for its uptime. */
  started_at: text().max(40).optional(),
  /**
   * The storage driver: a resize to this many bytes was refused because the data does not fit
   * (`reason` says how much it needs); the storage stays at its size, mounted and serving.
   */
  refused_bytes: z.number().int().positive().optional(),
});

/**
 * A resource the agent could not apply (a user, group, share…), so the API can show it as failed.
 * `kind` is one a workspace feature of the API claims (users and groups: `user`, `group`; Samba:
 * `share`); text, so that an agent with a feature its API does not have yet is still heard (the
 * API keeps only the kinds it knows).
 */
export const resourceFailureSchema = z.object({
  kind: text().regex(/^[a-z][a-z0-9_]{0,39}$/),
  name: text().max(64),
  error: text().max(1000),
});

export type ResourceFailure = z.infer<typeof resourceFailureSchema>;

/** How far a user, group or share has got on its node: see the API's resourceStatus. */
export const RESOURCE_APPLY_STATUSES = ['applied', 'applying', 'failed'] as const;
export type ResourceApplyStatus = (typeof RESOURCE_APPLY_STATUSES)[number];

export const workspaceFactsSchema = z.object({
  /** Bytes and files stored in the workspace's storage. */
  disk_used_bytes: z.number().int().nonnegative(),
  file_count: z.number().int().nonnegative(),
  /** When its daemons last started (ISO time); null while nothing runs. */
  started_at: text().nullable(),
  /**
   * The size the storage has now (its file system), bytes: equal to storage_bytes once a resize
   * is done, the old size while one is refused or failed (the storage driver's `reason` says
   * why). Absent when the storage has no size limit (a plain folder).
   */
  storage_bytes: z.number().int().nonnegative().optional(),
});
export type WorkspaceFacts = z.infer<typeof workspaceFactsSchema>;

export type DriverStatus = z.infer<typeof driverStatusSchema>;

/**
 * Why the agent could not apply a workspace, as a code the owner's log shows in the reader's
 * language (`error` keeps the node's own words for the operator): a driver threw and the pass
 * stopped there; a driver applied what it could but not all (a resize that failed); a shrink
 * refused because the data does not fit; the workspace's folder could not even be named.
 */
export const WORKSPACE_ERROR_CODES = [
  'driver_failed',
  'driver_incomplete',
  'resize_refused',
  'workspace_invalid',
] as const;
export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[number];

export function isWorkspaceErrorCode(code: unknown): code is WorkspaceErrorCode {
  return typeof code === 'string' && (WORKSPACE_ERROR_CODES as readonly string[]).includes(code);
}

/** A code's parameters: names and numbers (the driver, bytes), never prose to translate. */
export const logParamsSchema = z
  .record(text().max(40), z.union([text().max(200), z.number()]))
  .refine((params) => Object.keys(params).length <= 10, 'too_many');
export type LogParams = z.infer<typeof logParamsSchema>;

/**
 * The codes of the lines a service's node adds to its log (GET /services/{id}/logs, source
 * `agent`), each with its parameters: a generation applied (`generation`, `failures` it could not
 * apply, `not_live` drivers), applied again after a failure, a failure (one of
 * WORKSPACE_ERROR_CODES with `driver`, `bytes`; `apply_failed` from an agent that sends no code;
 * `detail` the node's own words), the data deleted from the node (`address`), the workspace
 * failed over to its standby because its node went silent or an operator declared it failed
 * (`replica_taken_at`: the newest data kept, ISO), moved by an operator, and a standby placed
 * (replicas.ts).
 */
export const NODE_LOG_CODES = [
  'generation_applied',
  'recovered',
  'apply_failed',
  ...WORKSPACE_ERROR_CODES,
  'data_deleted',
  'failed_over',
  'moved',
  'standby_placed',
] as const;
export type NodeLogCode = (typeof NODE_LOG_CODES)[number];

/**
 * Who can reach a workspace's address, as its node is set up: `node_only` (the default,
 * AGENT_CLIENT_ROUTES empty): the workspace answers the node itself and nothing beyond it, so a
 * VPN or share client on another machine times out; `routes`: it answers the CIDR blocks in
 * `client_routes` too (AGENT_CLIENT_ROUTES). The dashboard never says a client can connect while
 * this is `node_only`.
 */
export const REACHABLE_FROM = ['node_only', 'routes'] as const;
export type ReachableFrom = (typeof REACHABLE_FROM)[number];

/**
 * The workspace's traffic on its own network link (the node end of its veth pair), as a running
 * total the node keeps: it adds each sample's growth of the kernel's counters, so a counter reset
 * (the veth made again) or an agent restart never counts a byte twice nor loses the total.
 * `counter_id` names that total; a new one (the node's record of it lost) starts again from 0.
 * The API counts the growth between two reports, so a report sent twice counts nothing twice.
 * `received_bytes`: what reached the workspace (clients' uploads); `sent_bytes`: what it sent.
 */
export const trafficReportSchema = z.object({
  counter_id: text().min(1).max(64),
  received_bytes: z.number().int().nonnegative(),
  sent_bytes: z.number().int().nonnegative(),
});
export type TrafficReport = z.infer<typeof trafficReportSchema>;

/** The workspace's network link as the node sees it. */
export const networkReportSchema = z.object({
  reachable_from: z.enum(REACHABLE_FROM),
  /** With `routes`: the blocks beyond the node it answers (CIDR); empty with `node_only`. */
  client_routes: z.array(text().max(49)).max(256),
  /** Absent where the node does not count (not live). */
  traffic: trafficReportSchema.optional(),
  /** Whether its link is throttled now (the desired state's `bandwidth_throttled`, applied). */
  throttled: z.boolean().optional(),
});
export type NetworkReport = z.infer<typeof networkReportSchema>;

/**
 * What a workspace's features observed on the node, one optional key per feature (the API's
 * workspace feature registry hands each section to its feature). Sent with every report.
 */
export const workspaceFeatureReportsSchema = z.object({
  /** Not one feature's: the workspace's own network link (reachability, traffic). */
  network: networkReportSchema.optional(),
  ...featureNodeReports,
  /** A standby's storage: the newest replica it holds (replicas.ts). */
  replica: replicaReportSchema.optional(),
});
export type WorkspaceFeatureReports = z.infer<typeof workspaceFeatureReportsSchema>;

export const workspaceReportSchema = z.object({
  service_id: text(),
  observed_generation: z.number().int().nonnegative(),
  ok: z.boolean(),
  error: text().max(4000).optional(),
  /**
   * With `error`: why, as one of WORKSPACE_ERROR_CODES (text, so an API older than its agent
   * still takes the report; a code it does not know is logged as `apply_failed`).
   */
  error_code: text().max(60).optional(),
  error_params: logParamsSchema.optional(),
  drivers: z.array(driverStatusSchema),
  /** Resources that failed at observed_generation (the rest of the workspace may be applied). */
  failures: z.array(resourceFailureSchema).max(10_000).default([]),
  /** Live facts, when the agent could measure them. */
  facts: workspaceFactsSchema.optional(),
  /** What its features observed (absent: nothing to say). */
  features: workspaceFeatureReportsSchema.optional(),
});
export type WorkspaceReport = z.infer<typeof workspaceReportSchema>;

export const nodeReportRequestSchema = z.object({
  agent_version: text().min(1).max(40),
  capacity: nodeCapacitySchema,
  workspaces: z.array(workspaceReportSchema).max(10_000),
});
export type NodeReportRequest = z.infer<typeof nodeReportRequestSchema>;

export const nodeReportResponseSchema = z.object({ ok: z.literal(true) });

/**
 * Node calls: a question the API asks one node and waits for (a VPN user's config, which holds a
 * key that never leaves the node otherwise; ending sessions now). The agent long-polls
 * GET /api/v1/nodes/calls (node token), runs each call and answers with
 * POST /api/v1/nodes/calls/{callId}/result. A call not answered by its deadline fails for the
 * caller with `node_unreachable`; the agent drops calls past their deadline.
 */
export const NODE_CALL_KINDS = [
  'vpn.config',
  'vpn.disconnect',
  'vpn.kill_all',
  'backup.browse',
  'storage.browse',
  'share.describe',
  'nfs.disconnect',
  'snapshot.take',
  'snapshot.browse',
] as const;
export type NodeCallKind = (typeof NODE_CALL_KINDS)[number];

/**
 * Stream node calls: a call answered with bytes (a file of a snapshot; share links' downloads
 * next), not JSON. The agent polls them like any call and answers with
 * POST /api/v1/nodes/calls/{callId}/stream, `application/octet-stream`, the file's name in
 * NODE_STREAM_NAME_HEADER (URI-encoded) and its length in NODE_STREAM_SIZE_HEADER; the API pipes
 * the body to the caller as it comes, and answers the agent once the caller has it all (or went
 * away: then the agent's upload is cut). A refusal goes to /result like any call's. The deadline
 * is the node's to start answering, not to finish.
 */
export const NODE_STREAM_CALL_KINDS = [
  'backup.download',
  'share.download',
  'replica.send',
  'snapshot.download',
] as const;
export type NodeStreamCallKind = (typeof NODE_STREAM_CALL_KINDS)[number];
export const NODE_STREAM_NAME_HEADER = 'x-debesis-file-name';
export const NODE_STREAM_SIZE_HEADER = 'x-debesis-file-size';
/** What else a stream may say of its bytes (share links' downloads): one header each. */
export const NODE_STREAM_RANGE_HEADER = 'x-debesis-file-range';
export const NODE_STREAM_MODIFIED_HEADER = 'x-debesis-file-modified';
export const NODE_STREAM_ETAG_HEADER = 'x-debesis-file-etag';
export const NODE_STREAM_TYPE_HEADER = 'x-debesis-file-type';
export const nodeStreamCallPayloadSchemas = {
  'backup.download': backupDownloadPayloadSchema,
  'share.download': shareDownloadPayloadSchema,
  /** A replica taken now, whole or from `parent` (replicas.ts); its size is not known up front. */
  'replica.send': replicaSendPayloadSchema,
  /** One file of one of the storage's own snapshots (snapshots.ts). */
  'snapshot.download': snapshotDownloadPayloadSchema,
} as const satisfies Record<NodeStreamCallKind, z.ZodType>;

/**
 * The part of a file a stream holds: bytes `start`–`end` (inclusive) of `total`, or none when the
 * range asked for starts past the end (the body is then empty; HTTP answers 416).
 */
export type NodeStreamRange =
  { start: number; end: number; total: number } | { unsatisfiable: true; total: number };

/** What a stream's node said of its bytes beyond name and size; each part optional. */
export interface NodeStreamMeta {
  /** Present when the node answered a range (a full file has none). */
  range?: NodeStreamRange;
  /** ISO time the file was last modified. */
  modified_at?: string;
  /** A strong entity tag of the file's version (quoted), for If-Range and ETag. */
  etag?: string;
  /** `file`: the file's own bytes; `zip`: a folder, zipped as it is read. */
  type?: 'file' | 'zip';
}

const RANGE_VALUE = /^bytes (?:(\d{1,15})-(\d{1,15})|\*)\/(\d{1,15})$/;

/** The headers that carry `meta` (only the parts it has). */
export function nodeStreamMetaHeaders(meta: NodeStreamMeta): Record<string, string> {
  const headers: Record<string, string> = {};
  const { range } = meta;
  if (range)
    headers[NODE_STREAM_RANGE_HEADER] =
      'unsatisfiable' in range
        ? `bytes */${range.total}`
        : `bytes ${range.start}-${range.end}/${range.total}`;
  if (meta.modified_at) headers[NODE_STREAM_MODIFIED_HEADER] = meta.modified_at;
  if (meta.etag) headers[NODE_STREAM_ETAG_HEADER] = meta.etag;
  if (meta.type) headers[NODE_STREAM_TYPE_HEADER] = meta.type;
  return headers;
}

/** `meta` read back from the headers (`header(name)`: its value, if any); malformed parts are left out. */
export function nodeStreamMetaFromHeaders(header: (name: string) => string | undefined): NodeStreamMeta {
  const meta: NodeStreamMeta = {};
  const range = RANGE_VALUE.exec(header(NODE_STREAM_RANGE_HEADER) ?? '');
  if (range) {
    const total = Number(range[3]);
    if (range[1] === undefined) meta.range = { unsatisfiable: true, total };
    else {
      const start = Number(range[1]);
      const end = Number(range[2]);
      if (start <= end && end < total) meta.range = { start, end, total };
    }
  }
  const modified = header(NODE_STREAM_MODIFIED_HEADER);
  if (modified && !Number.isNaN(Date.parse(modified))) meta.modified_at = modified;
  const etag = header(NODE_STREAM_ETAG_HEADER);
  if (etag && /^"[\x21\x23-\x7e]{1,200}"$/.test(etag)) meta.etag = etag;
  const type = header(NODE_STREAM_TYPE_HEADER);
  if (type === 'file' || type === 'zip') meta.type = type;
  return meta;
}
export type NodeStreamCallPayload<K extends NodeStreamCallKind> = z.infer<
  (typeof nodeStreamCallPayloadSchemas)[K]
>;

export const nodeCallPayloadSchemas = {
  /** The user's inline .ovpn, with a certificate of this generation (issued if it has none). */
  'vpn.config': z.object({
    user: text().regex(WORKSPACE_NAME_PATTERN),
    cert_generation: z.number().int().positive(),
  }),
  /** End every session of the user. */
  'vpn.disconnect': z.object({ user: text().regex(WORKSPACE_NAME_PATTERN) }),
  /** End every session of the workspace. */
  'vpn.kill_all': z.object({}),
  /** One folder of one of the workspace's snapshots. */
  'backup.browse': backupBrowsePayloadSchema,
  /** One folder of the workspace's storage (the owner picks what a share link shares). */
  'storage.browse': storageBrowsePayloadSchema,
  /** What a share link shares (or a folder inside it): its type, size and entries. */
  'share.describe': shareDescribePayloadSchema,
  /** Refuse an NFS client's address for a while (longer than the server's lease). */
  'nfs.disconnect': z.object({ address: z.ipv4() }),
  /** Take a snapshot of the workspace's storage now. */
  'snapshot.take': snapshotTakePayloadSchema,
  /** One folder of one of the storage's own snapshots (not a backup's). */
  'snapshot.browse': snapshotBrowsePayloadSchema,
} as const satisfies Record<NodeCallKind, z.ZodType>;

export const nodeCallResultSchemas = {
  'vpn.config': z.object({ ovpn: text().max(64_000) }),
  'vpn.disconnect': z.object({ disconnected: z.number().int().nonnegative() }),
  'vpn.kill_all': z.object({ disconnected: z.number().int().nonnegative() }),
  'backup.browse': backupBrowseResultSchema,
  'storage.browse': storageBrowseResultSchema,
  'share.describe': shareDescribeResultSchema,
  /** ISO time until which the address is refused. */
  'nfs.disconnect': z.object({ blocked_until: text() }),
  'snapshot.take': snapshotTakeResultSchema,
  'snapshot.browse': snapshotBrowseResultSchema,
} as const satisfies Record<NodeCallKind, z.ZodType>;

export type NodeCallPayload<K extends NodeCallKind> = z.infer<(typeof nodeCallPayloadSchemas)[K]>;
export type NodeCallResult<K extends NodeCallKind> = z.infer<(typeof nodeCallResultSchemas)[K]>;

export const nodeCallSchema = z.object({
  call_id: text().uuid(),
  service_id: text(),
  /** Text, so an agent older than its API skips a kind it does not know (answers `unsupported`). */
  kind: text().max(60),
  payload: z.record(text(), z.unknown()),
  /** ISO time after which the caller no longer waits. */
  deadline: text(),
});
export type NodeCall = z.infer<typeof nodeCallSchema>;

export const nodeCallsQuerySchema = z.object({
  /** How long the API may hold the request open when no call is waiting (long poll). */
  wait_ms: z.coerce.number().int().min(0).max(30_000).default(25_000),
});
export const nodeCallsResponseSchema = z.object({
  calls: z.array(nodeCallSchema).max(100),
  /**
   * The node's desired state changed while the poll was held (or just before): pull it now
   * rather than at the next poll interval. The long poll doubles as the standalone agent's
   * wake-up; an API that never says so leaves the agent to its interval.
   */
  wake: z.boolean().default(false),
});
export type NodeCallsResponse = z.infer<typeof nodeCallsResponseSchema>;

export const nodeCallParamsSchema = z.object({ callId: text().uuid() });
/** How a node refuses a call (nodeCallResultRequestSchema): codes, so the API never reads its words. */
export const NODE_CALL_REFUSALS = ['unsupported', 'not_found', 'busy', 'too_large', 'failed'] as const;
export type NodeCallRefusal = (typeof NODE_CALL_REFUSALS)[number];

export const nodeCallResultRequestSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.record(text(), z.unknown()) }),
  z.object({
    ok: z.literal(false),
    /**
     * `unsupported` (unknown kind), `not_found` (no such user/workspace here), `busy` (the node
     * takes no more of this kind now: try again soon), `too_large` (what was asked for is more
     * than the node will send in one answer), `failed` (with the reason in `error`).
     */
    code: z.enum(NODE_CALL_REFUSALS),
    error: text().max(4000),
  }),
]);
export type NodeCallResultRequest = z.infer<typeof nodeCallResultRequestSchema>;
/** The API took the node's answer (a call that is no longer awaited answers 404). */
export const nodeCallResultResponseSchema = z.object({ ok: z.literal(true) });
