// The only SQL on a workspace's snapshots row. Every function takes the handle it runs on, so a
// report runs them inside its transaction.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { serviceSnapshots } from './snapshots.table.ts';

export type SnapshotsRow = typeof serviceSnapshots.$inferSelect;

export function createSnapshotsQueries(db: Executor) {
  return {
    async find(serviceId: string, lock = false): Promise<SnapshotsRow | undefined> {
      const query = db.select().from(serviceSnapshots).where(eq(serviceSnapshots.serviceId, serviceId));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },
    async save(row: SnapshotsRow): Promise<void> {
      const { serviceId: _key, ...rest } = row;
      await db
        .insert(serviceSnapshots)
        .values(row)
        .onConflictDoUpdate({ target: serviceSnapshots.serviceId, set: rest });
    },
  };
}
