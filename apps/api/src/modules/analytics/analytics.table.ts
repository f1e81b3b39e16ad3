import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';

/**
 * Analytics events from visitors who consented to "all" cookies. Holds no personal data: no
 * user, no IP address, no query string; only what happened, on which path, in which language.
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    path: text('path').notNull(),
    target: text('target'),
    language: text('language', { enum: ['en', 'lt'] }),
    createdAt: createdAtColumn(),
  },
  (table) => [
    index('analytics_events_name_created_idx').on(table.name, table.createdAt),
    // The hourly retention delete (RETENTION_MONTHS) looks by time alone.
    index('analytics_events_created_idx').on(table.createdAt),
  ],
);
