// The agent's configuration: read once at start from the environment, checked against one
// schema, and refused with a message naming every wrong variable. Standalone, main.ts reads
// process.env; the API, when it runs the agent in-process, passes its own record. What each
// variable means is its `.describe()` below, from which docs/configuration.md is generated.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  PRIMARY_FENCE_AFTER_MS,
  REPLICA_SYNC_INTERVAL_SECONDS,
  CLIENT_MIRROR_INTERVAL_SECONDS,
  nodeRegisterRequestSchema,
} from '@debesis/contract';
import { expandAddressPool } from './capacity.ts';
import { clientBlocks } from './system/netns.ts';

export interface AgentConfig {
  apiUrl: string;
  /** The one-time enrollment token; undefined once the node has its node token. */
  registrationToken: string | undefined;
  nodeName: string;
  /** Absolute path. */
  dataDir: string;
  pollIntervalMs: number;
  addresses: string[];
  /** AGENT_CLIENT_ROUTES: CIDR blocks, canonical; empty: the node only. */
  clientRoutes: string[];
  requestTimeoutMs: number;
  maxBackoffMs: number;
  fullCheckEvery: number;
  /** False: AGENT_LIVE_WORKSPACES=off. */
  liveWorkspaces: boolean;
  smbPort: number;
  /** AGENT_BACKUP_CONCURRENCY. */
  backupConcurrency: number;
  /** AGENT_USAGE_FULL_SCAN_HOURS, in milliseconds. */
  usageFullScanMs: number;
  /** AGENT_REPLICA_INTERVAL_MS. */
  replicaIntervalMs: number;
  /** AGENT_CLIENT_MIRROR_INTERVAL_MS. */
  clientMirrorIntervalMs: number;
  /** AGENT_FENCE_AFTER_MS. */
  fenceAfterMs: number;
  /** AGENT_INSTANCE; undefined: none. */
  instance?: string;
  /** AGENT_WORKSPACE_DEADLINE_MS; default DEFAULT_WORKSPACE_DEADLINE_MS. */
  workspaceDeadlineMs?: number;
  /** AGENT_WORKSPACE_CONCURRENCY; default 1. */
  workspaceConcurrency?: number;
  /** AGENT_HEARTBEAT_MS; default DEFAULT_HEARTBEAT_MS. */
  heartbeatMs?: number;
}

export const DEFAULT_WORKSPACE_DEADLINE_MS = 120_000;
export const DEFAULT_HEARTBEAT_MS = 20_000;

export const DEFAULT_ADDRESS_POOL = '198.18.0.1-198.18.0.254';

export class AgentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid agent configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'AgentConfigError';
  }
}

/** A valid node name made from a hostname: `Box_1.example.COM` → `box-1-example-com`. */
export function nodeNameFromHostname(host: string): string {
  const name = host
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return name === '' ? 'node' : name;
}

// The default goes in as text, before the number is checked, so that the configuration page can
// read it off the schema (docs/configuration.md); an unset variable is never checked against it.
const whole = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .default(String(fallback))
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Every variable the agent reads (AGENT_LOG_LEVEL aside: main.ts reads it, standalone only). */
export const agentEnvironmentSchema = z.object({
  AGENT_API_URL: z
    .string({ error: 'required (the base URL of the API, e.g. http://127.0.0.1:3000)' })
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
    .describe(
      'Base URL of the API (origin, optionally with a path prefix), e.g. `http://127.0.0.1:3000`. ' +
        'Calls go to `<url>/api/v1/nodes/…`.',
    ),
  AGENT_REGISTRATION_TOKEN: z
    .string()
    .optional()
    .describe(
      'The one-time enrollment token an operator issued for this node (`npm run nodes -- enroll <name>` ' +
        'where the API runs); used only when the agent has no node token (`node.json`), and spent by ' +
        "that registration. Needed again only after an operator reset. (The API's shared " +
        '`NODE_REGISTRATION_TOKEN`, if set, enrolls new names only.)',
    ),
  AGENT_NODE_NAME: nodeRegisterRequestSchema.shape.name
    .optional()
    .describe(
      'Must be the name the enrollment token was issued for. Unset: the hostname, lowercased, other ' +
        'characters turned into `-`.',
    ),
  AGENT_DATA_DIR: z
    .string({ error: 'required (the folder for the node token and the workspaces)' })
    .describe(
      'Holds `node.json` (the node token, mode 0600) and `workspaces/<service_id>/` for each workspace. ' +
        'Not under `/srv` (the daemons see the storage there).',
    ),
  AGENT_POLL_INTERVAL_MS: whole(5000, 10, 3_600_000).describe(
    'Time between reconcile passes, in milliseconds.',
  ),
  AGENT_ADDRESS_POOL: z
    .string()
    .default(DEFAULT_ADDRESS_POOL)
    .transform((value, ctx) => {
      try {
        return expandAddressPool(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .describe(
      'Addresses this node may give to workspaces: ranges `a-b` and single addresses, comma separated. ' +
        "A workspace whose desired address is outside it is refused. Each lives in its workspace's " +
        'network namespace, routed from the node over a veth pair, so not 127.x (the loopback range is ' +
        "not routed over an interface). The default is RFC 2544's benchmarking range 198.18.0.0/15, " +
        "which is never a machine's real network; in production: the public addresses routed to this node.",
    ),
  AGENT_CLIENT_ROUTES: z
    .string()
    .optional()
    .describe(
      'CIDR blocks, comma separated, a workspace may answer beyond the node (production: `0.0.0.0/0`): ' +
        "routes to them inside its namespace, forwarding on its veth's node end only, and a policy rule " +
        'that forwards what comes from it to these blocks only, never to the pool. None inside the pool. ' +
        'Unset: a workspace answers the node only.',
    ),
  AGENT_REQUEST_TIMEOUT_MS: whole(10_000, 100, 600_000).describe(
    'Time-out of one API call, in milliseconds.',
  ),
  AGENT_MAX_BACKOFF_MS: whole(60_000, 10, 3_600_000).describe(
    'Longest wait between passes while the API fails, and between two retries of a workspace that ' +
      'keeps failing (its first retry comes after AGENT_POLL_INTERVAL_MS, each next one waits twice as ' +
      'long: controller/work-queue.ts), in milliseconds.',
  ),
  AGENT_FULL_CHECK_EVERY: whole(60, 1, 1_000_000).describe(
    'Every Nth pass re-applies unchanged workspaces too, to repair drift.',
  ),
  AGENT_WORKSPACE_DEADLINE_MS: whole(DEFAULT_WORKSPACE_DEADLINE_MS, 100, 24 * 3_600_000).describe(
    'A workspace still applying after this long, in milliseconds, no longer holds the others or the ' +
      "pass's report: it goes on, and is retried after its backoff once it has ended.",
  ),
  AGENT_WORKSPACE_CONCURRENCY: whole(1, 1, 64).describe(
    'Workspaces applied at once (never one twice at once).',
  ),
  AGENT_HEARTBEAT_MS: whole(DEFAULT_HEARTBEAT_MS, 100, 3_600_000).describe(
    'The node reports (its capacity, the last known state of each workspace) whenever no report has ' +
      'gone for this long, in milliseconds, so a long pass never makes the API count it offline (after 60 s).',
  ),
  AGENT_USAGE_FULL_SCAN_HOURS: whole(6, 1, 24 * 30).describe(
    "How often each workspace's storage is walked whole to count what each user owns " +
      "(activity/usage-count.ts); between walks only the folders the daemons' activity names are read again.",
  ),
  AGENT_LIVE_WORKSPACES: z
    .enum(['auto', 'off'], { error: 'must be auto or off' })
    .default('auto')
    .describe(
      '`auto`: as root, with the programs installed, workspaces are real (disk image, network ' +
        'namespace, smbd). `off`: drivers render and check their files but mount, make and start ' +
        'nothing (test runs of the whole product that must not leave mounts and daemons).',
    ),
  AGENT_SMB_PORT: whole(445, 1, 65_535).describe("The port of each workspace's smbd on its own address."),
  AGENT_BACKUP_CONCURRENCY: whole(1, 1, 64).describe(
    'Backup and restore jobs (restic) running at once on this node, every workspace together; one per ' +
      "workspace whatever it is. More finish a night's backups sooner but share the disks with the " +
      'daemons (restic runs at a low CPU and IO priority all the same).',
  ),
  AGENT_REPLICA_INTERVAL_MS: whole(REPLICA_SYNC_INTERVAL_SECONDS * 1000, 100, 3_600_000).describe(
    'The most time between two pulls of a workspace this node holds as a standby (replicas/; ' +
      '`REPLICA_SYNC_INTERVAL_SECONDS`), in milliseconds.',
  ),
  AGENT_FENCE_AFTER_MS: whole(PRIMARY_FENCE_AFTER_MS, 1000, 3_600_000).describe(
    'A workspace with `failover` stops serving here once the API has not been reached for this long ' +
      '(it may be failed over to its standby: replicas/fence.ts; `PRIMARY_FENCE_AFTER_MS`), in milliseconds.',
  ),
  AGENT_CLIENT_MIRROR_INTERVAL_MS: whole(CLIENT_MIRROR_INTERVAL_SECONDS * 1000, 100, 3_600_000).describe(
    "How often the backup clients' repositories are copied to the backup target when a push ended " +
      'since the last copy (backup/client-mirror.ts; `CLIENT_MIRROR_INTERVAL_SECONDS`), in milliseconds.',
  ),
  AGENT_INSTANCE: z
    .string()
    .regex(/^[a-z0-9-]{1,20}$/, 'must be 1 to 20 lowercase letters, digits and "-"')
    .optional()
    .describe(
      'Several agents on one host (a test cluster): a name of this one, `[a-z0-9-]{1,20}`, that the ' +
        'host-wide names of its workspaces (network namespace, veth, `/run/debesis/<short>`) are made ' +
        "from too, so the same workspace on two agents never shares them. Unset: the service id's alone.",
    ),
});

/** Parses the environment (empty values count as unset). Throws AgentConfigError listing every problem. */
export function loadAgentConfig(env: Record<string, string | undefined> = process.env): AgentConfig {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(agentEnvironmentSchema.shape)) {
    const value = env[key]?.trim();
    if (value) cleaned[key] = value;
  }
  const parsed = agentEnvironmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new AgentConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'configuration');
        const message =
          name === 'AGENT_NODE_NAME'
            ? 'must be lowercase letters, digits and "-", starting with a letter or digit, at most 63 characters'
            : issue.message;
        return `${name}: ${message}`;
      }),
    );
  }
  const e = parsed.data;
  let clientRoutes: string[];
  try {
    clientRoutes = clientBlocks(
      (e.AGENT_CLIENT_ROUTES ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
      e.AGENT_ADDRESS_POOL,
    );
  } catch (error) {
    throw new AgentConfigError([`AGENT_CLIENT_ROUTES: ${(error as Error).message}`]);
  }
  return {
    apiUrl: e.AGENT_API_URL,
    registrationToken: e.AGENT_REGISTRATION_TOKEN,
    nodeName: e.AGENT_NODE_NAME ?? nodeNameFromHostname(hostname()),
    dataDir: resolve(e.AGENT_DATA_DIR),
    pollIntervalMs: e.AGENT_POLL_INTERVAL_MS,
    addresses: e.AGENT_ADDRESS_POOL,
    clientRoutes,
    requestTimeoutMs: e.AGENT_REQUEST_TIMEOUT_MS,
    maxBackoffMs: e.AGENT_MAX_BACKOFF_MS,
    fullCheckEvery: e.AGENT_FULL_CHECK_EVERY,
    workspaceDeadlineMs: e.AGENT_WORKSPACE_DEADLINE_MS,
    workspaceConcurrency: e.AGENT_WORKSPACE_CONCURRENCY,
    heartbeatMs: e.AGENT_HEARTBEAT_MS,
    liveWorkspaces: e.AGENT_LIVE_WORKSPACES !== 'off',
    smbPort: e.AGENT_SMB_PORT,
    backupConcurrency: e.AGENT_BACKUP_CONCURRENCY,
    usageFullScanMs: e.AGENT_USAGE_FULL_SCAN_HOURS * 3_600_000,
    replicaIntervalMs: e.AGENT_REPLICA_INTERVAL_MS,
    fenceAfterMs: e.AGENT_FENCE_AFTER_MS,
    clientMirrorIntervalMs: e.AGENT_CLIENT_MIRROR_INTERVAL_MS,
    ...(e.AGENT_INSTANCE ? { instance: e.AGENT_INSTANCE } : {}),
  };
}
