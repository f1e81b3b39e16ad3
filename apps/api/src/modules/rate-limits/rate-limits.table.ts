import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per counted event (a failed sign-in, a reset request…), pruned after a day. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('rate_limit_events_lookup_idx').on(table.bucket, table.subject, table.createdAt)],
);
