import { bigserial, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';

/** One row per counted event (a failed sign-in, a reset request…), pruned after a day. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [index('rate_limit_events_lookup_idx').on(table.bucket, table.subject, table.createdAt)],
);
