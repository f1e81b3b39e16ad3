// Standby replicas, failover and moves (issue 37): what the API, the nodes and the operator say of
// a workspace's second copy.
//
// Decisions (docs/features/replicas.md):
// - A workspace with two or more eligible nodes has a **standby** on another node: a btrfs storage
//   of the same size holding the read-only replica snapshots it received, with no `data`, no
//   network and no daemons. It is chosen by placement's disk-room rule on a node whose address pool
//   holds the workspace's address (nodes of one room share its routed block, so the address can
//   follow) and whose id block is free, never on the primary's node.
// - The standby **pulls**: at least every REPLICA_SYNC_INTERVAL_SECONDS it asks the API for the
//   primary's changes since the newest replica both hold (GET /api/v1/nodes/replicas/{serviceId}/stream,
//   node token, `parent` = that replica's name). The API relays it as a stream node call
//   `replica.send` to the primary, which takes a replica snapshot now and streams
//   `btrfs send [-p parent]`. Nodes need no route to each other, only to the API.
// - **Failover**: a node silent for NODE_FAILOVER_AFTER_MS (or `ops nodes fail <name>`) has each of
//   its workspaces that has a standby promoted there: the workspace's node becomes the standby's,
//   its generation grows, the standby makes `data` from its newest replica and serves on the same
//   address. The old node's desired state lists the workspace as `removed` until it reports it gone
//   (fencing: its reports of a workspace it no longer holds change nothing). A primary that can be
//   failed over (`failover: true`) stops serving by itself once it has not reached the API for
//   PRIMARY_FENCE_AFTER_MS, so a node cut off from the API never serves beside its successor.
// - **Move** (`ops services move`, `ops nodes evacuate`): the target becomes the standby, syncs
//   while the workspace serves, then the primary stops, the standby pulls once more (a replica
//   taken after the stop: nothing written is lost) and is promoted as in a failover.
// - What is replicated is the live data. The customer's own snapshots (Previous Versions) stay on
//   the node that took them; after a failover the history starts again there. Backups are off the
//   node already (BACKUP_TARGET_URL).
import { z } from 'zod';
import { text } from './strings.ts';

/** The most time between two pulls of a standby (its RPO, with the transfer's own time). */
export const REPLICA_SYNC_INTERVAL_SECONDS = 30;
/** A node not heard from for this long has its workspaces failed over to their standbys. */
export const NODE_FAILOVER_AFTER_MS = 60_000;
/**
 * A primary with `failover: true` that has not reached the API for this long stops serving it (it
 * may be failed over): well before NODE_FAILOVER_AFTER_MS, with room for a pass in between.
 */
export const PRIMARY_FENCE_AFTER_MS = 40_000;

/** What a node is to a workspace in its desired state. */
export const REPLICA_ROLES = ['primary', 'standby'] as const;
export type ReplicaRole = (typeof REPLICA_ROLES)[number];

/**
 * A replica snapshot's name: `r-` and the UTC time it was taken to the millisecond
 * (`r-20261207T014512345Z`), so names sort by time and never clash with the customer's `@GMT-`
 * snapshots (replicas live in their own `replicas` subvolume, out of Samba's sight).
 */
export const REPLICA_NAME_PATTERN = /^r-\d{8}T\d{9}Z$/;

/** The stream's replica name (the snapshot the standby receives), a response header. */
export const REPLICA_NAME_HEADER = 'x-debesis-replica';
/** The stream's parent (absent: a whole send), a response header. */
export const REPLICA_PARENT_HEADER = 'x-debesis-replica-parent';

/** GET /api/v1/nodes/replicas/{serviceId}/stream (the standby's node token). */
export const replicaStreamParamsSchema = z.object({ serviceId: text().uuid() });
export const replicaStreamQuerySchema = z.object({
  /** The newest replica the standby holds; absent or unknown to the primary: a whole send. */
  parent: text().regex(REPLICA_NAME_PATTERN).optional(),
});

/** Stream node call `replica.send`: the primary takes a replica now and sends it. */
export const replicaSendPayloadSchema = z.object({
  parent: text().regex(REPLICA_NAME_PATTERN).optional(),
});

/**
 * The standby's report of its replica (`features.replica` of the node's report, from its storage driver);
 * absent before its first replica.
 */
export const replicaReportSchema = z.object({
  /** The newest replica it holds whole. */
  name: text().regex(REPLICA_NAME_PATTERN),
  /** ISO time the primary took it: what a failover now would keep (RPO is measured from here). */
  taken_at: text(),
  /** ISO time it arrived. */
  received_at: text(),
  /** Bytes the last pull carried. */
  bytes: z.number().int().nonnegative(),
});
export type ReplicaReport = z.infer<typeof replicaReportSchema>;

/**
 * The owner's view of the second copy (the overview's service and GET /services/{id}): where the
 * standby is in words the owner can use, and when it was last in sync. `none`: no eligible node
 * (a one-node installation); `syncing`: placed, first copy under way.
 */
export const REPLICA_STATES = ['none', 'syncing', 'in_sync', 'behind'] as const;
export type ReplicaState = (typeof REPLICA_STATES)[number];
export const serviceReplicaSchema = z.object({
  state: z.enum(REPLICA_STATES),
  /** The standby's node name; null for `none`. */
  node: text().nullable(),
  /** ISO time of the newest data the standby holds; null before its first replica. */
  last_in_sync_at: text().nullable(),
});
export type ServiceReplica = z.infer<typeof serviceReplicaSchema>;

/** A replica older than this (twice the interval and a transfer) shows `behind`. */
export const REPLICA_BEHIND_AFTER_MS = 3 * REPLICA_SYNC_INTERVAL_SECONDS * 1000;
