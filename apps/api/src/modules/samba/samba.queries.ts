// The only SQL on Samba shares, their users and groups, and the Samba settings. Every function
// takes the handle it runs on, so a change runs them inside its transaction.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { sambaSettings, sambaShareGroups, sambaShares, sambaShareUsers } from './samba.table.ts';

export type SambaShareRow = typeof sambaShares.$inferSelect;
export type SambaShareUserRow = typeof sambaShareUsers.$inferSelect;
export type SambaShareGroupRow = typeof sambaShareGroups.$inferSelect;
export type SambaSettingsRow = typeof sambaSettings.$inferSelect;
export type SharePermissionsValues = Pick<SambaShareUserRow, 'read' | 'write' | 'execute' | 'admin'>;

export function createSambaQueries(db: Db) {
  const sharesOf = (serviceId: string) =>
    db.select({ id: sambaShares.id }).from(sambaShares).where(eq(sambaShares.serviceId, serviceId));

  return {
    async listShares(serviceId: string): Promise<SambaShareRow[]> {
      return db
        .select()
        .from(sambaShares)
        .where(eq(sambaShares.serviceId, serviceId))
        .orderBy(asc(sambaShares.name));
    },
    async findShare(serviceId: string, name: string): Promise<SambaShareRow | undefined> {
      const [row] = await db
        .select()
        .from(sambaShares)
        .where(and(eq(sambaShares.serviceId, serviceId), eq(sambaShares.name, name)))
        .limit(1);
      return row;
    },
    async countShares(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(sambaShares)
        .where(eq(sambaShares.serviceId, serviceId));
      return row?.total ?? 0;
    },
    async insertShare(values: typeof sambaShares.$inferInsert): Promise<SambaShareRow> {
      const [row] = await db.insert(sambaShares).values(values).returning();
      if (!row) throw new Error('samba share insert returned no row');
      return row;
    },
    async updateShare(
      id: string,
      values: Partial<
        Pick<SambaShareRow, 'path' | 'description' | 'guestOk' | 'browseable' | 'bindPublicIp'>
      > & {
        changedGeneration: number;
        updatedAt: Date;
      },
    ): Promise<void> {
      await db.update(sambaShares).set(values).where(eq(sambaShares.id, id));
    },
    async markSharesChanged(ids: string[], generation: number, at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(sambaShares)
        .set({ changedGeneration: generation, updatedAt: at })
        .where(inArray(sambaShares.id, ids));
    },
    async deleteShare(id: string): Promise<void> {
      await db.delete(sambaShares).where(eq(sambaShares.id, id));
    },

    async usersOfService(serviceId: string): Promise<SambaShareUserRow[]> {
      return db
        .select()
        .from(sambaShareUsers)
        .where(inArray(sambaShareUsers.shareId, sharesOf(serviceId)));
    },
    async groupsOfService(serviceId: string): Promise<SambaShareGroupRow[]> {
      return db
        .select()
        .from(sambaShareGroups)
        .where(inArray(sambaShareGroups.shareId, sharesOf(serviceId)));
    },
    async usersOfShare(shareId: string): Promise<SambaShareUserRow[]> {
      return db.select().from(sambaShareUsers).where(eq(sambaShareUsers.shareId, shareId));
    },
    async groupsOfShare(shareId: string): Promise<SambaShareGroupRow[]> {
      return db.select().from(sambaShareGroups).where(eq(sambaShareGroups.shareId, shareId));
    },
    async insertShareUsers(rows: Array<typeof sambaShareUsers.$inferInsert>): Promise<void> {
      if (rows.length === 0) return;
      await db.insert(sambaShareUsers).values(rows);
    },
    async updateShareUser(shareId: string, userId: string, values: SharePermissionsValues): Promise<void> {
      await db
        .update(sambaShareUsers)
        .set(values)
        .where(and(eq(sambaShareUsers.shareId, shareId), eq(sambaShareUsers.userId, userId)));
    },
    async deleteShareUser(shareId: string, userId: string): Promise<void> {
      await db
        .delete(sambaShareUsers)
        .where(and(eq(sambaShareUsers.shareId, shareId), eq(sambaShareUsers.userId, userId)));
    },
    async deleteShareUsers(shareId: string): Promise<void> {
      await db.delete(sambaShareUsers).where(eq(sambaShareUsers.shareId, shareId));
    },
    async insertShareGroups(rows: Array<typeof sambaShareGroups.$inferInsert>): Promise<void> {
      if (rows.length === 0) return;
      await db.insert(sambaShareGroups).values(rows);
    },
    async deleteShareGroups(shareId: string): Promise<void> {
      await db.delete(sambaShareGroups).where(eq(sambaShareGroups.shareId, shareId));
    },

    /** Takes the user out of every share; the ids of the shares that had them. */
    async removeUserEverywhere(userId: string): Promise<string[]> {
      const rows = await db
        .delete(sambaShareUsers)
        .where(eq(sambaShareUsers.userId, userId))
        .returning({ shareId: sambaShareUsers.shareId });
      return rows.map((row) => row.shareId);
    },
    /** The ids of the shares that let the group in. */
    async sharesOfGroup(groupId: string): Promise<string[]> {
      const rows = await db
        .select({ shareId: sambaShareGroups.shareId })
        .from(sambaShareGroups)
        .where(eq(sambaShareGroups.groupId, groupId));
      return rows.map((row) => row.shareId);
    },
    /** Takes the group out of every share; the ids of the shares that had it. */
    async removeGroupEverywhere(groupId: string): Promise<string[]> {
      const rows = await db
        .delete(sambaShareGroups)
        .where(eq(sambaShareGroups.groupId, groupId))
        .returning({ shareId: sambaShareGroups.shareId });
      return rows.map((row) => row.shareId);
    },

    async findSettings(serviceId: string): Promise<SambaSettingsRow | undefined> {
      const [row] = await db
        .select()
        .from(sambaSettings)
        .where(eq(sambaSettings.serviceId, serviceId))
        .limit(1);
      return row;
    },
    async saveSettings(values: typeof sambaSettings.$inferInsert): Promise<SambaSettingsRow> {
      const [row] = await db
        .insert(sambaSettings)
        .values(values)
        .onConflictDoUpdate({
          target: sambaSettings.serviceId,
          set: {
            workgroup: values.workgroup,
            serverString: values.serverString,
            minProtocol: values.minProtocol,
            changedGeneration: values.changedGeneration,
            updatedAt: values.updatedAt,
          },
        })
        .returning();
      if (!row) throw new Error('samba settings upsert returned no row');
      return row;
    },

    async countsByService(serviceIds: string[]): Promise<Array<{ serviceId: string; total: number }>> {
      if (serviceIds.length === 0) return [];
      return db
        .select({ serviceId: sambaShares.serviceId, total: count() })
        .from(sambaShares)
        .where(inArray(sambaShares.serviceId, serviceIds))
        .groupBy(sambaShares.serviceId);
    },
  };
}

export type SambaQueries = ReturnType<typeof createSambaQueries>;
