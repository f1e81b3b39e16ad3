import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { DriverStatus, ResourceFailure } from '@debesis/contract';
import { accountIdColumn, createdAtColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * A purchased workspace. Created in `processing` by the payment of its order (exactly once: the
 * order id is unique here), then placed on a node and moved through the lifecycle of
 * lifecycle.ts. A node address and id block belong to one service on its node (unique indexes),
 * so two placement jobs racing cannot hand out the same one.
 */
export const services = pgTable(
  'services',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    orderId: uuid('order_id').notNull(),
    productId: text('product_id').notNull(),
    name: text('name').notNull(),
    status: text('status', {
      enum: [
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
      ],
    }).notNull(),
    /** When the status last changed (a cancelled service's data is kept for a while from here). */
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The owner's start/stop: what an active service's node does with it. */
    runState: text('run_state', { enum: ['running', 'stopped'] })
      .notNull()
      .default('running'),
    /** The generation at which the owner last asked for a restart (the desired state's restart_token). */
    restartGeneration: integer('restart_generation'),
    description: text('description').notNull().default(''),
    /** Mail the owner as valid_until comes near (the overview warns either way). */
    expiryReminders: boolean('expiry_reminders').notNull().default(true),
    /**
     * Renew automatically with the account's kept card RENEWAL_LEAD_DAYS before valid_until
     * (modules/billing/renewals.ts). On by default; the owner switches it per service.
     */
    autoRenew: boolean('auto_renew').notNull().default(true),
    /** The last expiry reminder sent for the current valid_until, so each goes out once. */
    expiryNotice: text('expiry_notice', { enum: ['expiring_soon', 'critical'] }),
    diskSpace: integer('disk_space').notNull(),
    /**
     * A larger disk (GB) paid for in a plan change that waits for room on this workspace's node
     * (plan_changes awaiting_room). Counted as promised where new workspaces are placed, so the
     * room the node frees goes to the waiting change first; null when nothing waits.
     */
    pendingDiskSpace: integer('pending_disk_space'),
    usersCount: integer('users_count').notNull(),
    periodId: text('period_id').notNull(),
    monthlyPriceMinor: integer('monthly_price_minor').notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /**
     * The paid span ending at valid_until: its start and its length in months. A plan change is
     * prorated over it; an extension bought before valid_until lengthens it, a later one starts
     * a new span.
     */
    paidFrom: timestamp('paid_from', { withTimezone: true }).notNull(),
    paidMonths: integer('paid_months').notNull(),
    /** Bytes the workspace stores, as its node last reported. */
    diskUsedBytes: bigint('disk_used_bytes', { mode: 'number' }),
    /**
     * The size its storage has on the node as last reported (null: not reported, or no size
     * limit there); differs from the plan's disk while a resize is pending or was refused.
     */
    storageBytes: bigint('storage_bytes', { mode: 'number' }),
    /** Where it runs: its node, its address there and the first id of its Unix id block. */
    nodeId: uuid('node_id'),
    address: text('address'),
    idBase: integer('id_base'),
    /**
     * The node keeping its standby copy (replicas.ts, modules/replicas): never the primary's, on
     * the same address and id block, so that a promotion changes only `node_id`.
     */
    standbyNodeId: uuid('standby_node_id'),
    /** The standby's newest replica as it last reported it; null before its first. */
    replicaName: text('replica_name'),
    replicaTakenAt: timestamp('replica_taken_at', { withTimezone: true }),
    replicaReceivedAt: timestamp('replica_received_at', { withTimezone: true }),
    /** Bytes the standby's last pull carried (the bench's cost per changed byte). */
    replicaBytes: bigint('replica_bytes', { mode: 'number' }),
    /**
     * An operator's move (modules/replicas/moves.ts): the node it goes to, the phase it is in,
     * when the primary reported itself stopped, and the final sync's token; null when none runs.
     */
    moveTargetNodeId: uuid('move_target_node_id'),
    movePhase: text('move_phase', { enum: ['syncing', 'stopping', 'final_sync'] }),
    moveStoppedAt: timestamp('move_stopped_at', { withTimezone: true }),
    moveSyncToken: text('move_sync_token'),
    /**
     * Desired-state generation: every accepted change to the workspace adds one. The node's
     * agent reports the generation it has applied (`observed_generation`) and what failed.
     */
    generation: integer('generation').notNull().default(0),
    observedGeneration: integer('observed_generation').notNull().default(0),
    failures: jsonb('failures').$type<ResourceFailure[]>().notNull().default([]),
    drivers: jsonb('drivers').$type<DriverStatus[]>().notNull().default([]),
    /**
     * The node's last report says a daemon of the workspace is down while it should serve (a
     * driver with `serving: false`): it is not shown as running. Kept apart from `drivers` so the
     * services list need not read those.
     */
    notServing: boolean('not_serving').notNull().default(false),
    lastError: text('last_error'),
    fileCount: integer('file_count'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    ...timestampColumns(),
  },
  (table) => [
    uniqueIndex('services_order_unique').on(table.orderId),
    index('services_account_idx').on(table.accountId),
    index('services_node_idx').on(table.nodeId),
    index('services_standby_node_idx').on(table.standbyNodeId),
    uniqueIndex('services_node_address_unique').on(table.nodeId, table.address),
    uniqueIndex('services_node_id_base_unique').on(table.nodeId, table.idBase),
    // The sweep looks services up by status and valid_until.
    index('services_status_valid_until_idx').on(table.status, table.validUntil),
  ],
);

/**
 * What a service's node reported doing with it, as lines of the service's log: a line when the
 * applied generation or the error changes, not one per report (agents report every few seconds).
 */
export const serviceEvents = pgTable(
  'service_events',
  {
    id: uuidPrimaryKey(),
    serviceId: uuid('service_id').notNull(),
    accountId: accountIdColumn(),
    level: text('level', { enum: ['success', 'info', 'warning', 'error'] }).notNull(),
    /** NODE_LOG_CODES, shown in the owner's language with `details` as its params; null on old lines. */
    code: text('code'),
    /** The line in plain English (the only text of a line written before codes). */
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAtColumn(),
  },
  (table) => [index('service_events_service_idx').on(table.serviceId, table.createdAt)],
);
