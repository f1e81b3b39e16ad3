// The only SQL on service users, groups, memberships and id counters. Every function takes the
// handle it runs on, so a change runs them inside its transaction.
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { WORKSPACE_ID_BLOCK } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import {
  workspaceGroupMembers,
  workspaceGroups,
  workspaceIdCounters,
  workspaceUsers,
} from './directory.table.ts';

export type WorkspaceUserRow = typeof workspaceUsers.$inferSelect;
export type WorkspaceGroupRow = typeof workspaceGroups.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceGroupMembers.$inferSelect;

const LAST_OFFSET = WORKSPACE_ID_BLOCK - 1;

export function createDirectoryQueries(db: Db) {
  /** The next offset from the counter; once past the block, the lowest one no row holds. */
  async function allocateOffset(serviceId: string, kind: 'user' | 'group'): Promise<number | null> {
    const counter =
      kind === 'user' ? workspaceIdCounters.nextUserOffset : workspaceIdCounters.nextGroupOffset;
    const [row] = await db
      .insert(workspaceIdCounters)
      .values(kind === 'user' ? { serviceId, nextUserOffset: 2 } : { serviceId, nextGroupOffset: 2 })
      .onConflictDoUpdate({
        target: workspaceIdCounters.serviceId,
        set:
          kind === 'user'
            ? { nextUserOffset: sql`${counter} + 1` }
            : { nextGroupOffset: sql`${counter} + 1` },
      })
      .returning({ next: counter });
    const offset = (row?.next ?? 2) - 1;
    if (offset <= LAST_OFFSET) return offset;
    const table = kind === 'user' ? workspaceUsers : workspaceGroups;
    const [free] = await db
      .select({ offset: sql<number | null>`min(candidate)::int` })
      .from(sql`generate_series(1, ${LAST_OFFSET}) as candidate`)
      .where(
        sql`not exists (select 1 from ${table} where ${table.serviceId} = ${serviceId} and ${table.idOffset} = candidate)`,
      );
    return free?.offset ?? null;
  }

  return {
    allocateOffset,

    async listUsers(serviceId: string): Promise<WorkspaceUserRow[]> {
      return db
        .select()
        .from(workspaceUsers)
        .where(eq(workspaceUsers.serviceId, serviceId))
        .orderBy(asc(workspaceUsers.name));
    },
    async findUser(serviceId: string, name: string): Promise<WorkspaceUserRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaceUsers)
        .where(and(eq(workspaceUsers.serviceId, serviceId), eq(workspaceUsers.name, name)))
        .limit(1);
      return row;
    },
    async findUserById(serviceId: string, id: string): Promise<WorkspaceUserRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaceUsers)
        .where(and(eq(workspaceUsers.serviceId, serviceId), eq(workspaceUsers.id, id)))
        .limit(1);
      return row;
    },
    /** A user of any of the account's services, by id (monitoring's per-user routes name no service). */
    async findAccountUser(accountId: string, id: string): Promise<WorkspaceUserRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaceUsers)
        .where(and(eq(workspaceUsers.accountId, accountId), eq(workspaceUsers.id, id)))
        .limit(1);
      return row;
    },
    async usersNamed(serviceId: string, names: string[]): Promise<WorkspaceUserRow[]> {
      if (names.length === 0) return [];
      return db
        .select()
        .from(workspaceUsers)
        .where(and(eq(workspaceUsers.serviceId, serviceId), inArray(workspaceUsers.name, names)));
    },
    /** Users who may sign in: the ones the plan's users count limits. */
    async countActiveUsers(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(workspaceUsers)
        .where(and(eq(workspaceUsers.serviceId, serviceId), eq(workspaceUsers.active, true)));
      return row?.total ?? 0;
    },
    async insertUser(values: typeof workspaceUsers.$inferInsert): Promise<WorkspaceUserRow> {
      const [row] = await db.insert(workspaceUsers).values(values).returning();
      if (!row) throw new Error('workspace user insert returned no row');
      return row;
    },
    async updateUser(
      id: string,
      values: Partial<Pick<WorkspaceUserRow, 'active' | 'passwordCrypt' | 'passwordNt'>> & {
        changedGeneration: number;
        updatedAt: Date;
      },
    ): Promise<void> {
      await db.update(workspaceUsers).set(values).where(eq(workspaceUsers.id, id));
    },
    async markUsersChanged(ids: string[], generation: number, at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(workspaceUsers)
        .set({ changedGeneration: generation, updatedAt: at })
        .where(inArray(workspaceUsers.id, ids));
    },
    async deleteUser(id: string): Promise<void> {
      await db.delete(workspaceUsers).where(eq(workspaceUsers.id, id));
    },

    async listGroups(serviceId: string): Promise<WorkspaceGroupRow[]> {
      return db
        .select()
        .from(workspaceGroups)
        .where(eq(workspaceGroups.serviceId, serviceId))
        .orderBy(asc(workspaceGroups.name));
    },
    async findGroup(serviceId: string, name: string): Promise<WorkspaceGroupRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaceGroups)
        .where(and(eq(workspaceGroups.serviceId, serviceId), eq(workspaceGroups.name, name)))
        .limit(1);
      return row;
    },
    async groupsNamed(serviceId: string, names: string[]): Promise<WorkspaceGroupRow[]> {
      if (names.length === 0) return [];
      return db
        .select()
        .from(workspaceGroups)
        .where(and(eq(workspaceGroups.serviceId, serviceId), inArray(workspaceGroups.name, names)));
    },
    async countGroups(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(workspaceGroups)
        .where(eq(workspaceGroups.serviceId, serviceId));
      return row?.total ?? 0;
    },
    async insertGroup(values: typeof workspaceGroups.$inferInsert): Promise<WorkspaceGroupRow> {
      const [row] = await db.insert(workspaceGroups).values(values).returning();
      if (!row) throw new Error('workspace group insert returned no row');
      return row;
    },
    async updateGroup(
      id: string,
      values: { name?: string; description?: string; changedGeneration: number; updatedAt: Date },
    ): Promise<void> {
      await db.update(workspaceGroups).set(values).where(eq(workspaceGroups.id, id));
    },
    async markGroupsChanged(ids: string[], generation: number, at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(workspaceGroups)
        .set({ changedGeneration: generation, updatedAt: at })
        .where(inArray(workspaceGroups.id, ids));
    },
    async deleteGroup(id: string): Promise<void> {
      await db.delete(workspaceGroups).where(eq(workspaceGroups.id, id));
    },

    async membersOfService(serviceId: string): Promise<WorkspaceMemberRow[]> {
      return db.select().from(workspaceGroupMembers).where(eq(workspaceGroupMembers.serviceId, serviceId));
    },
    async membershipsOfUser(userId: string): Promise<WorkspaceMemberRow[]> {
      return db.select().from(workspaceGroupMembers).where(eq(workspaceGroupMembers.userId, userId));
    },
    async membersOfGroup(groupId: string): Promise<WorkspaceMemberRow[]> {
      return db.select().from(workspaceGroupMembers).where(eq(workspaceGroupMembers.groupId, groupId));
    },
    async insertMembers(rows: Array<typeof workspaceGroupMembers.$inferInsert>): Promise<void> {
      if (rows.length === 0) return;
      await db.insert(workspaceGroupMembers).values(rows);
    },
    async setPrimary(groupId: string, userId: string, primary: boolean): Promise<void> {
      await db
        .update(workspaceGroupMembers)
        .set({ primary })
        .where(and(eq(workspaceGroupMembers.groupId, groupId), eq(workspaceGroupMembers.userId, userId)));
    },
    /** Takes the primary role from the user's memberships except in `keepGroupId`. */
    async clearPrimary(userId: string, keepGroupId: string | null): Promise<void> {
      await db
        .update(workspaceGroupMembers)
        .set({ primary: false })
        .where(
          and(
            eq(workspaceGroupMembers.userId, userId),
            eq(workspaceGroupMembers.primary, true),
            keepGroupId ? ne(workspaceGroupMembers.groupId, keepGroupId) : undefined,
          ),
        );
    },
    async removeMember(groupId: string, userId: string): Promise<void> {
      await db
        .delete(workspaceGroupMembers)
        .where(and(eq(workspaceGroupMembers.groupId, groupId), eq(workspaceGroupMembers.userId, userId)));
    },

    /** Users (all and active) and groups of each service, for the services overview. */
    async countsByService(serviceIds: string[]): Promise<{
      users: Array<{ serviceId: string; total: number; active: number }>;
      groups: Array<{ serviceId: string; total: number }>;
    }> {
      if (serviceIds.length === 0) return { users: [], groups: [] };
      const users = await db
        .select({
          serviceId: workspaceUsers.serviceId,
          total: count(),
          active: sql<number>`count(*) filter (where ${workspaceUsers.active})::int`,
        })
        .from(workspaceUsers)
        .where(inArray(workspaceUsers.serviceId, serviceIds))
        .groupBy(workspaceUsers.serviceId);
      const groups = await db
        .select({ serviceId: workspaceGroups.serviceId, total: count() })
        .from(workspaceGroups)
        .where(inArray(workspaceGroups.serviceId, serviceIds))
        .groupBy(workspaceGroups.serviceId);
      return { users, groups };
    },
  };
}

export type DirectoryQueries = ReturnType<typeof createDirectoryQueries>;
