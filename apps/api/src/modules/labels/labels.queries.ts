// The only SQL on workspaces' labels. Every function takes the handle it runs on.
import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { serviceLabels } from './labels.table.ts';

export type LabelRow = typeof serviceLabels.$inferSelect;

export function createLabelsQueries(db: Executor) {
  const one = (serviceId: string, key: string) =>
    and(eq(serviceLabels.serviceId, serviceId), eq(serviceLabels.key, key));
  return {
    list(serviceId: string): Promise<LabelRow[]> {
      return db
        .select()
        .from(serviceLabels)
        .where(eq(serviceLabels.serviceId, serviceId))
        .orderBy(asc(serviceLabels.key));
    },
    async find(serviceId: string, key: string): Promise<LabelRow | undefined> {
      const [row] = await db.select().from(serviceLabels).where(one(serviceId, key));
      return row;
    },
    async count(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(serviceLabels)
        .where(eq(serviceLabels.serviceId, serviceId));
      return row?.n ?? 0;
    },
    /** Makes the label, or gives the one there its new value. */
    async put(values: Omit<typeof serviceLabels.$inferInsert, 'createdAt'> & { updatedAt: Date }) {
      const [row] = await db
        .insert(serviceLabels)
        .values({ ...values, createdAt: values.updatedAt })
        .onConflictDoUpdate({
          target: [serviceLabels.serviceId, serviceLabels.key],
          set: { value: values.value, updatedAt: values.updatedAt },
        })
        .returning();
      if (!row) throw new Error('label upsert returned no row');
      return row;
    },
    async remove(serviceId: string, key: string): Promise<LabelRow | undefined> {
      const [row] = await db.delete(serviceLabels).where(one(serviceId, key)).returning();
      return row;
    },
  };
}
