import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Snapshot } from '@debesis/contract';
import { serviceKeyColumn } from '../services/service-columns.ts';

/**
 * A workspace's snapshots as its node last reported them (contract SnapshotsReport), newest
 * first, with one taken on demand since added at once: one row per service, made by its first
 * report (or its first snapshot on demand).
 */
export const serviceSnapshots = pgTable('service_snapshots', {
  serviceId: serviceKeyColumn(),
  /** Whether its storage takes snapshots (btrfs); `reason` says why not. */
  supported: boolean('supported').notNull(),
  reason: text('reason'),
  snapshots: jsonb('snapshots').$type<Snapshot[]>().notNull().default([]),
  reportedAt: timestamp('reported_at', { withTimezone: true }),
});
