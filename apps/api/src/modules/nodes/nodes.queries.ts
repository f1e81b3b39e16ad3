// The only SQL on the nodes table.
import { asc, count, eq, gt, sql } from 'drizzle-orm';
import type { NodeCapacity } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { nodes } from './nodes.table.ts';

export type NodeRow = typeof nodes.$inferSelect;

export function createNodesQueries(db: Db) {
  return {
    async upsertByName(values: {
      name: string;
      hostname: string;
      agentVersion: string;
      tokenHash: string;
      capacity: NodeCapacity;
      now: Date;
    }): Promise<NodeRow> {
      const fields = {
        hostname: values.hostname,
        agentVersion: values.agentVersion,
        tokenHash: values.tokenHash,
        diskTotalBytes: values.capacity.disk_total_bytes,
        diskFreeBytes: values.capacity.disk_free_bytes,
        addresses: values.capacity.addresses,
        lastSeenAt: values.now,
      };
      const [row] = await db
        .insert(nodes)
        .values({ name: values.name, ...fields })
        .onConflictDoUpdate({ target: nodes.name, set: fields })
        .returning();
      if (!row) throw new Error('node upsert returned no row');
      return row;
    },

    async findByTokenHash(tokenHash: string): Promise<NodeRow | undefined> {
      const [row] = await db.select().from(nodes).where(eq(nodes.tokenHash, tokenHash)).limit(1);
      return row;
    },

    async recordReport(id: string, values: { agentVersion: string; capacity: NodeCapacity; now: Date }) {
      await db
        .update(nodes)
        .set({
          agentVersion: values.agentVersion,
          diskTotalBytes: values.capacity.disk_total_bytes,
          diskFreeBytes: values.capacity.disk_free_bytes,
          addresses: values.capacity.addresses,
          lastSeenAt: values.now,
        })
        .where(eq(nodes.id, id));
    },

    async findById(id: string): Promise<NodeRow | undefined> {
      const [row] = await db.select().from(nodes).where(eq(nodes.id, id)).limit(1);
      return row;
    },

    /** Nodes heard from since `since`: the ones placement may use. */
    async onlineSince(since: Date): Promise<NodeRow[]> {
      return db.select().from(nodes).where(gt(nodes.lastSeenAt, since)).orderBy(asc(nodes.name));
    },

    /** All nodes, and those heard from since `since`, in one pass over the table. */
    async countNodes(since: Date): Promise<{ total: number; online: number }> {
      const [row] = await db
        .select({ total: count(), online: count(sql`case when ${nodes.lastSeenAt} > ${since} then 1 end`) })
        .from(nodes);
      return { total: row?.total ?? 0, online: row?.online ?? 0 };
    },
  };
}

export type NodesQueries = ReturnType<typeof createNodesQueries>;
