// The only SQL on a workspace's network row and its traffic per month. Every function takes the
// handle it runs on, so a report runs them inside its transaction.
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { serviceNetwork, serviceTraffic } from './network.table.ts';

export type NetworkRow = typeof serviceNetwork.$inferSelect;

export interface MonthTraffic {
  received: number;
  sent: number;
}

export function createNetworkQueries(db: Executor) {
  return {
    /** The service's row, locked for the report's transaction (two reports of it take turns). */
    async findForUpdate(serviceId: string): Promise<NetworkRow | undefined> {
      const [row] = await db
        .select()
        .from(serviceNetwork)
        .where(eq(serviceNetwork.serviceId, serviceId))
        .for('update');
      return row;
    },
    async find(serviceId: string): Promise<NetworkRow | undefined> {
      const [row] = await db.select().from(serviceNetwork).where(eq(serviceNetwork.serviceId, serviceId));
      return row;
    },
    async save(row: NetworkRow): Promise<void> {
      const { serviceId: _key, ...rest } = row;
      await db
        .insert(serviceNetwork)
        .values(row)
        .onConflictDoUpdate({ target: serviceNetwork.serviceId, set: rest });
    },

    /** Adds to the month's traffic; its totals after. */
    async addTraffic(
      serviceId: string,
      periodStart: Date,
      growth: MonthTraffic,
      at: Date,
    ): Promise<MonthTraffic> {
      const [row] = await db
        .insert(serviceTraffic)
        .values({
          serviceId,
          periodStart,
          receivedBytes: growth.received,
          sentBytes: growth.sent,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [serviceTraffic.serviceId, serviceTraffic.periodStart],
          set: {
            receivedBytes: sql`${serviceTraffic.receivedBytes} + excluded.received_bytes`,
            sentBytes: sql`${serviceTraffic.sentBytes} + excluded.sent_bytes`,
            updatedAt: at,
          },
        })
        .returning({ received: serviceTraffic.receivedBytes, sent: serviceTraffic.sentBytes });
      return row ?? { received: 0, sent: 0 };
    },

    /** The month's traffic so far (none counted: zeros). */
    async monthTraffic(serviceId: string, periodStart: Date): Promise<MonthTraffic> {
      const [row] = await db
        .select({ received: serviceTraffic.receivedBytes, sent: serviceTraffic.sentBytes })
        .from(serviceTraffic)
        .where(and(eq(serviceTraffic.serviceId, serviceId), eq(serviceTraffic.periodStart, periodStart)));
      return row ?? { received: 0, sent: 0 };
    },
  };
}

export type NetworkQueries = ReturnType<typeof createNetworkQueries>;
