// The only SQL on services (the workspace issue adds the lifecycle queries).
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { services } from './services.table.ts';

export type ServiceRow = typeof services.$inferSelect;

export function createServicesQueries(db: Db) {
  return {
    /** Creates the service of a paid order; the existing one when the order already has it. */
    async createForOrder(values: typeof services.$inferInsert): Promise<ServiceRow> {
      const [created] = await db.insert(services).values(values).onConflictDoNothing().returning();
      if (created) return created;
      const [existing] = await db
        .select()
        .from(services)
        .where(eq(services.orderId, values.orderId))
        .limit(1);
      if (!existing) throw new Error('service neither created nor found');
      return existing;
    },
    async findForAccount(accountId: string, id: string): Promise<ServiceRow | undefined> {
      const [row] = await db
        .select()
        .from(services)
        .where(and(eq(services.id, id), eq(services.accountId, accountId)))
        .limit(1);
      return row;
    },
    async listForAccount(accountId: string): Promise<ServiceRow[]> {
      return db
        .select()
        .from(services)
        .where(eq(services.accountId, accountId))
        .orderBy(desc(services.createdAt));
    },
    /** Moves valid_until forward by whole months from the later of now and the current end. */
    async extend(id: string, months: number, at: Date): Promise<void> {
      const [row] = await db.select().from(services).where(eq(services.id, id)).limit(1);
      if (!row) return;
      const from = row.validUntil > at ? row.validUntil : at;
      const until = new Date(from);
      until.setUTCMonth(until.getUTCMonth() + months);
      await db.update(services).set({ validUntil: until, updatedAt: at }).where(eq(services.id, id));
    },
    async countForOrder(orderId: string): Promise<number> {
      return (await db.select({ id: services.id }).from(services).where(eq(services.orderId, orderId)))
        .length;
    },
  };
}

export type ServicesQueries = ReturnType<typeof createServicesQueries>;
