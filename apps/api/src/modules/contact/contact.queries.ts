// The only SQL on contact messages.
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { contactMessages } from './contact.table.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;
export type NewContactMessage = typeof contactMessages.$inferInsert;

export function createContactQueries(db: Db) {
  return {
    async insert(message: NewContactMessage): Promise<ContactMessageRow> {
      const [row] = await db.insert(contactMessages).values(message).returning();
      if (!row) throw new Error('contact message not stored');
      return row;
    },
    /** Deletes the messages received before `before`; answers how many. */
    async pruneBefore(before: Date): Promise<number> {
      const deleted = await db
        .delete(contactMessages)
        .where(lt(contactMessages.createdAt, before))
        .returning({ id: contactMessages.id });
      return deleted.length;
    },
    async findById(id: string): Promise<ContactMessageRow | undefined> {
      const [row] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
      return row;
    },
  };
}

export type ContactQueries = ReturnType<typeof createContactQueries>;
