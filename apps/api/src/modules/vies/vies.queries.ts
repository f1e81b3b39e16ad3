// The only SQL on the VIES answer cache.
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { viesChecks } from './vies.table.ts';

export type ViesCheckRow = typeof viesChecks.$inferSelect;

export function createViesQueries(db: Db) {
  return {
    async find(vatNumber: string): Promise<ViesCheckRow | undefined> {
      const [row] = await db.select().from(viesChecks).where(eq(viesChecks.vatNumber, vatNumber)).limit(1);
      return row;
    },

    /** Keeps the newest answer per number. */
    async save(row: ViesCheckRow): Promise<void> {
      const { valid, name, address, requestDate, requestIdentifier, checkedAt } = row;
      await db.insert(viesChecks).values(row).onConflictDoUpdate({
        target: viesChecks.vatNumber,
        set: { valid, name, address, requestDate, requestIdentifier, checkedAt },
      });
    },

    async pruneBefore(before: Date): Promise<void> {
      await db.delete(viesChecks).where(lt(viesChecks.checkedAt, before));
    },
  };
}

export type ViesQueries = ReturnType<typeof createViesQueries>;
