// The only SQL on the nodes, node_enrollments and node_registrations tables.
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { NodeCapacity } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { nodeEnrollments, nodeRegistrations, nodes } from './nodes.table.ts';

export type NodeRow = typeof nodes.$inferSelect;
export type NodeRegistrationRow = typeof nodeRegistrations.$inferSelect;

export interface NodeListEntry {
  name: string;
  /** Null while only an enrollment token exists for the name. */
  node: NodeRow | null;
  enrollmentExpiresAt: Date | null;
}

export interface NodeValues {
  name: string;
  hostname: string;
  agentVersion: string;
  tokenHash: string;
  capacity: NodeCapacity;
  now: Date;
}

const nodeFields = (values: NodeValues) => ({
  hostname: values.hostname,
  agentVersion: values.agentVersion,
  tokenHash: values.tokenHash,
  diskTotalBytes: values.capacity.disk_total_bytes,
  diskFreeBytes: values.capacity.disk_free_bytes,
  addresses: values.capacity.addresses,
  lastSeenAt: values.now,
});

export function createNodesQueries(db: Db) {
  return {
    /** Creates the node, or gives an existing one a new identity (its old token stops working). */
    async upsertByName(values: NodeValues): Promise<NodeRow> {
      const fields = nodeFields(values);
      const [row] = await db
        .insert(nodes)
        .values({ name: values.name, ...fields })
        .onConflictDoUpdate({ target: nodes.name, set: fields })
        .returning();
      if (!row) throw new Error('node upsert returned no row');
      return row;
    },

    /** Creates the node only when the name is new; undefined when it exists already. */
    async insertNew(values: NodeValues): Promise<NodeRow | undefined> {
      const [row] = await db
        .insert(nodes)
        .values({ name: values.name, ...nodeFields(values) })
        .onConflictDoNothing({ target: nodes.name })
        .returning();
      return row;
    },

    async findByName(name: string): Promise<NodeRow | undefined> {
      const [row] = await db.select().from(nodes).where(eq(nodes.name, name)).limit(1);
      return row;
    },

    /** Every node, by name, with the expiry of an unused enrollment token for it. */
    async list(): Promise<NodeListEntry[]> {
      const [all, enrollments] = await Promise.all([
        db.select().from(nodes),
        db.select().from(nodeEnrollments),
      ]);
      const byName = new Map<string, NodeListEntry>(
        all.map((node) => [node.name, { name: node.name, node, enrollmentExpiresAt: null }]),
      );
      for (const enrollment of enrollments) {
        const entry = byName.get(enrollment.name) ?? {
          name: enrollment.name,
          node: null,
          enrollmentExpiresAt: null,
        };
        byName.set(enrollment.name, { ...entry, enrollmentExpiresAt: enrollment.expiresAt });
      }
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Makes the node's current token worthless at once (a hash no token has). */
    async revokeToken(name: string, unmatchable: string): Promise<boolean> {
      const rows = await db
        .update(nodes)
        .set({ tokenHash: unmatchable })
        .where(eq(nodes.name, name))
        .returning({ id: nodes.id });
      return rows.length > 0;
    },

    /** Stores a one-time token for the name, replacing an unused one. */
    async issueEnrollment(values: { name: string; tokenHash: string; expiresAt: Date; now: Date }) {
      const fields = { tokenHash: values.tokenHash, expiresAt: values.expiresAt, createdAt: values.now };
      await db
        .insert(nodeEnrollments)
        .values({ name: values.name, ...fields })
        .onConflictDoUpdate({ target: nodeEnrollments.name, set: fields });
    },

    /** Spends the name's enrollment token if it is this one and still valid: true at most once. */
    async consumeEnrollment(name: string, tokenHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .delete(nodeEnrollments)
        .where(
          and(
            eq(nodeEnrollments.name, name),
            eq(nodeEnrollments.tokenHash, tokenHash),
            gt(nodeEnrollments.expiresAt, now),
          ),
        )
        .returning({ name: nodeEnrollments.name });
      return rows.length > 0;
    },

    async recordRegistration(values: typeof nodeRegistrations.$inferInsert): Promise<NodeRegistrationRow> {
      const [row] = await db.insert(nodeRegistrations).values(values).returning();
      if (!row) throw new Error('node registration insert returned no row');
      return row;
    },

    async registrationsOf(name: string): Promise<NodeRegistrationRow[]> {
      return db
        .select()
        .from(nodeRegistrations)
        .where(eq(nodeRegistrations.nodeName, name))
        .orderBy(asc(nodeRegistrations.createdAt));
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
          // A node declared failed that reports again is back (what it held has moved on).
          failedAt: null,
        })
        .where(eq(nodes.id, id));
    },

    async findById(id: string): Promise<NodeRow | undefined> {
      const [row] = await db.select().from(nodes).where(eq(nodes.id, id)).limit(1);
      return row;
    },

    /** Nodes heard from since `since` (drained or not: the monitoring sweep finds silent ones by it). */
    async onlineSince(since: Date): Promise<NodeRow[]> {
      return db.select().from(nodes).where(gt(nodes.lastSeenAt, since)).orderBy(asc(nodes.name));
    },

    /**
     * Online nodes an operator has not drained: the ones placement may give a new workspace. A
     * drained node still counts as online everywhere else (it serves what it holds).
     */
    async placeableSince(since: Date): Promise<NodeRow[]> {
      return db
        .select()
        .from(nodes)
        .where(and(gt(nodes.lastSeenAt, since), isNull(nodes.drainedAt), isNull(nodes.failedAt)))
        .orderBy(asc(nodes.name));
    },

    /** Declares the node failed (`ops nodes fail`); undefined when no node has the name. */
    async setFailed(name: string, at: Date): Promise<NodeRow | undefined> {
      const [row] = await db.update(nodes).set({ failedAt: at }).where(eq(nodes.name, name)).returning();
      return row;
    },

    /** Every node, by name. */
    async listNodes(): Promise<NodeRow[]> {
      return db.select().from(nodes).orderBy(asc(nodes.name));
    },

    /**
     * Drains (a time) or undrains (null) the node; a drained node keeps its first drain time.
     * Undefined when no node has the name.
     */
    async setDrained(name: string, at: Date | null): Promise<NodeRow | undefined> {
      const [row] = await db
        .update(nodes)
        .set({
          drainedAt: at === null ? null : sql`coalesce(${nodes.drainedAt}, ${at.toISOString()}::timestamptz)`,
        })
        .where(eq(nodes.name, name))
        .returning();
      return row;
    },

    /**
     * Deletes the node and any unused enrollment token for its name: its token stops working and
     * the name cannot be registered again without a new `enroll`. Its registrations stay (their
     * node id becomes null, the name and times remain). False when no node has the name.
     */
    async deleteByName(name: string): Promise<boolean> {
      await db.delete(nodeEnrollments).where(eq(nodeEnrollments.name, name));
      const rows = await db.delete(nodes).where(eq(nodes.name, name)).returning({ id: nodes.id });
      return rows.length > 0;
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
