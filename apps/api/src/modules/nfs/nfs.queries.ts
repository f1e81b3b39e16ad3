// The only SQL on NFS exports, the server row and the reported clients. Every function takes the
// handle it runs on, so a change or a report runs them inside its transaction.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { nfsClients, nfsExports, nfsServers } from './nfs.table.ts';

export type NfsExportRow = typeof nfsExports.$inferSelect;
export type NfsClientRow = typeof nfsClients.$inferSelect;
export type NfsServerRow = typeof nfsServers.$inferSelect;

export type NfsExportChange = Partial<
  Pick<NfsExportRow, 'client' | 'access' | 'description' | 'ownerUserId'>
> & {
  changedGeneration: number;
  updatedAt: Date;
};

export function createNfsQueries(db: Executor) {
  return {
    async listExports(serviceId: string): Promise<NfsExportRow[]> {
      return db
        .select()
        .from(nfsExports)
        .where(eq(nfsExports.serviceId, serviceId))
        .orderBy(asc(nfsExports.path));
    },
    async findExport(serviceId: string, path: string): Promise<NfsExportRow | undefined> {
      const [row] = await db
        .select()
        .from(nfsExports)
        .where(and(eq(nfsExports.serviceId, serviceId), eq(nfsExports.path, path)))
        .limit(1);
      return row;
    },
    async countExports(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(nfsExports)
        .where(eq(nfsExports.serviceId, serviceId));
      return row?.total ?? 0;
    },
    async insertExport(values: typeof nfsExports.$inferInsert): Promise<NfsExportRow> {
      const [row] = await db.insert(nfsExports).values(values).returning();
      if (!row) throw new Error('nfs export insert returned no row');
      return row;
    },
    async updateExport(id: string, values: NfsExportChange): Promise<NfsExportRow> {
      const [row] = await db.update(nfsExports).set(values).where(eq(nfsExports.id, id)).returning();
      if (!row) throw new Error('nfs export update returned no row');
      return row;
    },
    async setCounters(
      id: string,
      counters: Pick<NfsExportRow, 'reads' | 'readBytes' | 'writes' | 'writeBytes'>,
    ): Promise<void> {
      await db.update(nfsExports).set(counters).where(eq(nfsExports.id, id));
    },
    async deleteExport(id: string): Promise<void> {
      await db.delete(nfsExports).where(eq(nfsExports.id, id));
    },
    /** Exports written as the user lose their owner (the workspace itself), stamped with the change. */
    async dropOwner(userId: string, generation: number, at: Date): Promise<void> {
      await db
        .update(nfsExports)
        .set({ ownerUserId: null, changedGeneration: generation, updatedAt: at })
        .where(eq(nfsExports.ownerUserId, userId));
    },
    async countsByService(serviceIds: string[]): Promise<Array<{ serviceId: string; total: number }>> {
      if (serviceIds.length === 0) return [];
      return db
        .select({ serviceId: nfsExports.serviceId, total: count() })
        .from(nfsExports)
        .where(inArray(nfsExports.serviceId, serviceIds))
        .groupBy(nfsExports.serviceId);
    },

    async findServer(serviceId: string): Promise<NfsServerRow | undefined> {
      const [row] = await db.select().from(nfsServers).where(eq(nfsServers.serviceId, serviceId)).limit(1);
      return row;
    },
    async clientsReported(serviceId: string, accountId: string, at: Date): Promise<void> {
      await db
        .insert(nfsServers)
        .values({ serviceId, accountId, clientsReportedAt: at, updatedAt: at })
        .onConflictDoUpdate({ target: nfsServers.serviceId, set: { clientsReportedAt: at, updatedAt: at } });
    },
    async clientsOf(serviceId: string): Promise<NfsClientRow[]> {
      return db
        .select()
        .from(nfsClients)
        .where(eq(nfsClients.serviceId, serviceId))
        .orderBy(asc(nfsClients.address), asc(nfsClients.id));
    },
    async replaceClients(serviceId: string, rows: Array<typeof nfsClients.$inferInsert>): Promise<void> {
      await db.delete(nfsClients).where(eq(nfsClients.serviceId, serviceId));
      if (rows.length > 0) await db.insert(nfsClients).values(rows);
    },
  };
}

export type NfsQueries = ReturnType<typeof createNfsQueries>;
