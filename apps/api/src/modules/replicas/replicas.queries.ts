// The only SQL on service_departures: the copies nodes must delete.
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { serviceDepartures } from './replicas.table.ts';

export type DepartureRow = typeof serviceDepartures.$inferSelect;

export const departureKey = (serviceId: string, nodeId: string) => `${serviceId}/${nodeId}`;

export function createDepartures(db: Executor) {
  return {
    /** The node must delete its copy; a newer departure of the same node keeps the higher generation. */
    async add(departure: Omit<DepartureRow, 'createdAt'>, at: Date): Promise<void> {
      await db
        .insert(serviceDepartures)
        .values({ ...departure, createdAt: at })
        .onConflictDoUpdate({
          target: [serviceDepartures.serviceId, serviceDepartures.nodeId],
          set: { generation: sql`greatest(${serviceDepartures.generation}, excluded.generation)` },
        });
    },
    async listForNode(nodeId: string): Promise<DepartureRow[]> {
      return db.select().from(serviceDepartures).where(eq(serviceDepartures.nodeId, nodeId));
    },
    /** Every copy still to be deleted, as `<service id>/<node id>`. */
    async pendingKeys(): Promise<Set<string>> {
      const rows = await db
        .select({ serviceId: serviceDepartures.serviceId, nodeId: serviceDepartures.nodeId })
        .from(serviceDepartures);
      return new Set(rows.map((row) => departureKey(row.serviceId, row.nodeId)));
    },
    /** The node holds the service again (a move back): nothing to delete there. */
    async cancel(serviceId: string, nodeId: string): Promise<void> {
      await db
        .delete(serviceDepartures)
        .where(and(eq(serviceDepartures.serviceId, serviceId), eq(serviceDepartures.nodeId, nodeId)));
    },
    /** The node is gone (`ops nodes remove`): nobody is left to delete those copies. */
    async forgetNode(nodeId: string): Promise<number> {
      const rows = await db
        .delete(serviceDepartures)
        .where(eq(serviceDepartures.nodeId, nodeId))
        .returning({ serviceId: serviceDepartures.serviceId });
      return rows.length;
    },
    /** The node reported the removal applied at `observed`: the departure is done. */
    async settle(serviceId: string, nodeId: string, observed: number): Promise<boolean> {
      const rows = await db
        .delete(serviceDepartures)
        .where(
          and(
            eq(serviceDepartures.serviceId, serviceId),
            eq(serviceDepartures.nodeId, nodeId),
            lte(serviceDepartures.generation, observed),
          ),
        )
        .returning({ serviceId: serviceDepartures.serviceId });
      return rows.length > 0;
    },
  };
}

export type Departures = ReturnType<typeof createDepartures>;
