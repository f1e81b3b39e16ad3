// The only SQL on backup clients. Every function takes the handle it runs on, so a change or a
// report runs it inside its transaction.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { backupClients } from './backups.table.ts';

export type BackupClientRow = typeof backupClients.$inferSelect;

/** What a node report says of one client's repository. */
export type BackupClientObserved = Pick<
  BackupClientRow,
  'snapshots' | 'repositoryBytes' | 'lastPushAt' | 'pushing' | 'offNodeAt'
>;

export function createBackupClientsQueries(db: Executor) {
  return {
    list(serviceId: string): Promise<BackupClientRow[]> {
      return db
        .select()
        .from(backupClients)
        .where(eq(backupClients.serviceId, serviceId))
        .orderBy(asc(backupClients.name));
    },
    async find(serviceId: string, id: string, lock = false): Promise<BackupClientRow | undefined> {
      const query = db
        .select()
        .from(backupClients)
        .where(and(eq(backupClients.serviceId, serviceId), eq(backupClients.id, id)))
        .limit(1);
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },
    async count(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(backupClients)
        .where(eq(backupClients.serviceId, serviceId));
      return row?.total ?? 0;
    },
    async insert(values: typeof backupClients.$inferInsert): Promise<BackupClientRow> {
      const [row] = await db.insert(backupClients).values(values).returning();
      if (!row) throw new Error('backup client insert returned no row');
      return row;
    },
    async revoke(id: string, at: Date): Promise<BackupClientRow> {
      const [row] = await db
        .update(backupClients)
        .set({ revokedAt: at, pushing: false, updatedAt: at })
        .where(eq(backupClients.id, id))
        .returning();
      if (!row) throw new Error('backup client update returned no row');
      return row;
    },
    async remove(id: string): Promise<void> {
      await db.delete(backupClients).where(eq(backupClients.id, id));
    },
    /** Stores what the node saw of the client named `name`; a name it no longer has is ignored. */
    async observe(serviceId: string, name: string, observed: BackupClientObserved): Promise<void> {
      await db
        .update(backupClients)
        .set(observed)
        .where(
          and(eq(backupClients.serviceId, serviceId), sql`lower(${backupClients.name}) = lower(${name})`),
        );
    },
  };
}
