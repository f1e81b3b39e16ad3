import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/** Storage hosts. Each runs one agent that authenticates with its own token (kept hashed). */
export const nodes = pgTable('nodes', {
  id: uuidPrimaryKey(),
  name: text('name').notNull().unique(),
  hostname: text('hostname').notNull(),
  agentVersion: text('agent_version').notNull(),
  tokenHash: text('token_hash').notNull(),
  diskTotalBytes: bigint('disk_total_bytes', { mode: 'number' }).notNull().default(0),
  diskFreeBytes: bigint('disk_free_bytes', { mode: 'number' }).notNull().default(0),
  addresses: jsonb('addresses').$type<string[]>().notNull().default([]),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  /**
   * Set by an operator (`npm run ops -- nodes drain`): placement gives it nothing new, while it
   * keeps serving what it holds. Null: it takes new workspaces.
   */
  drainedAt: timestamp('drained_at', { withTimezone: true }),
  /**
   * Declared failed by an operator (`ops nodes fail`): its workspaces fail over at once, and it
   * gets nothing new. Cleared by its next report.
   */
  failedAt: timestamp('failed_at', { withTimezone: true }),
  createdAt: createdAtColumn(),
});

/**
 * One-time enrollment tokens, one per node name, kept hashed: the only way to give a name (new,
 * or an existing node's after an operator reset) a node token. Spent by the registration that
 * uses it; a newer token for the same name replaces an unused one.
 */
export const nodeEnrollments = pgTable('node_enrollments', {
  name: text('name').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAtColumn(),
});

/** The audit trail of node identities: every registration and every refused takeover attempt. */
export const nodeRegistrations = pgTable(
  'node_registrations',
  {
    id: uuidPrimaryKey(),
    nodeName: text('node_name').notNull(),
    /** The node it concerns; null for a refused attempt on a name that does not exist. */
    nodeId: uuid('node_id').references(() => nodes.id, { onDelete: 'set null' }),
    outcome: text('outcome', { enum: ['enrolled', 're-registered', 'refused'] }).notNull(),
    /** Which credential was presented. */
    via: text('via', { enum: ['enrollment_token', 'registration_token'] }).notNull(),
    hostname: text('hostname').notNull(),
    ip: text('ip'),
    createdAt: createdAtColumn(),
  },
  (table) => [index('node_registrations_name_idx').on(table.nodeName, table.createdAt)],
);

/**
 * Node calls offered across API processes (node-calls-relay.ts): a call made in one process, for
 * whichever process holds its node's long poll to hand out, and the address of the process that
 * waits for the answer. Only the question is kept (never an answer: a VPN config holds a key),
 * and only until it is answered or its deadline passes.
 */
export const nodeCalls = pgTable(
  'node_calls',
  {
    callId: uuid('call_id').primaryKey(),
    nodeId: uuid('node_id').notNull(),
    /** The call as the node receives it (contract NodeCall). */
    call: jsonb('call').notNull(),
    /** Where the process that made the call takes its answer (its INTERNAL_URL). */
    ownerUrl: text('owner_url').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    /** When a node's poll took it; null while it waits. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (table) => [index('node_calls_waiting_idx').on(table.nodeId, table.createdAt)],
);
