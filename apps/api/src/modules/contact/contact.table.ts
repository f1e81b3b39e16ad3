import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * Messages sent through the public contact form (spec §3 "Contact message"). Kept so that a
 * message survives a mail outage and support can see what arrived; the mail to support is sent
 * from the same row.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuidPrimaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The language the visitor wrote from, so support can answer in it. */
    language: text('language', { enum: ['en', 'lt'] }).notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [index('contact_messages_created_idx').on(table.createdAt)],
);
