import { sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Storage hosts. Each runs one agent that authenticates with its own token (kept hashed). */
export const nodes = pgTable('nodes', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: text('name').notNull().unique(),
  hostname: text('hostname').notNull(),
  agentVersion: text('agent_version').notNull(),
  tokenHash: text('token_hash').notNull(),
  diskTotalBytes: bigint('disk_total_bytes', { mode: 'number' }).notNull().default(0),
  diskFreeBytes: bigint('disk_free_bytes', { mode: 'number' }).notNull().default(0),
  addresses: jsonb('addresses').$type<string[]>().notNull().default([]),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
