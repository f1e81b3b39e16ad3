// The only SQL on VPN users, the server row, the reported sessions and usage, the traffic history
// and the one-time config links. Every function takes the handle it runs on, so a change or a
// report runs them inside its transaction.
import { and, asc, count, countDistinct, eq, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { vpnConfigLinks, vpnServers, vpnSessions, vpnTraffic, vpnUsage, vpnUsers } from './vpn.table.ts';

export type VpnUserRow = typeof vpnUsers.$inferSelect;
export type VpnServerRow = typeof vpnServers.$inferSelect;
export type VpnSessionRow = typeof vpnSessions.$inferSelect;
export type VpnUsageRow = typeof vpnUsage.$inferSelect;
export type VpnConfigLinkRow = typeof vpnConfigLinks.$inferSelect;

export type VpnUserChange = Partial<
  Pick<
    VpnUserRow,
    'enabled' | 'fullName' | 'email' | 'trafficLimitBytes' | 'passwordCrypt' | 'certGeneration' | 'revokedAt'
  >
> & { changedGeneration: number; updatedAt: Date };

/** Bytes per bucket of the traffic chart. */
export interface TrafficRow {
  start: Date;
  bytesSent: number;
  bytesReceived: number;
}

/** The VPN users the owner manages (not the logins of backup clients). */
const isPerson = eq(vpnUsers.purpose, 'person');

export function createVpnQueries(db: Executor) {
  return {
    /** The owner's VPN users. */
    async listUsers(serviceId: string): Promise<VpnUserRow[]> {
      return db
        .select()
        .from(vpnUsers)
        .where(and(eq(vpnUsers.serviceId, serviceId), isPerson))
        .orderBy(asc(vpnUsers.username));
    },
    /** Every login the server serves: the VPN users and the backup clients' logins. */
    async listLogins(serviceId: string): Promise<VpnUserRow[]> {
      return db
        .select()
        .from(vpnUsers)
        .where(eq(vpnUsers.serviceId, serviceId))
        .orderBy(asc(vpnUsers.username));
    },
    /** One of the owner's VPN users. */
    async findUser(serviceId: string, userId: string): Promise<VpnUserRow | undefined> {
      const [row] = await db
        .select()
        .from(vpnUsers)
        .where(and(eq(vpnUsers.serviceId, serviceId), eq(vpnUsers.id, userId), isPerson))
        .limit(1);
      return row;
    },
    /** Any login of the service, a backup client's too. */
    async findLogin(serviceId: string, loginId: string): Promise<VpnUserRow | undefined> {
      const [row] = await db
        .select()
        .from(vpnUsers)
        .where(and(eq(vpnUsers.serviceId, serviceId), eq(vpnUsers.id, loginId)))
        .limit(1);
      return row;
    },
    async findUserNamed(serviceId: string, username: string): Promise<VpnUserRow | undefined> {
      const [row] = await db
        .select()
        .from(vpnUsers)
        .where(and(eq(vpnUsers.serviceId, serviceId), sql`lower(${vpnUsers.username}) = lower(${username})`))
        .limit(1);
      return row;
    },
    async countUsers(serviceId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(vpnUsers)
        .where(and(eq(vpnUsers.serviceId, serviceId), isPerson));
      return row?.total ?? 0;
    },
    async insertUser(values: typeof vpnUsers.$inferInsert): Promise<VpnUserRow> {
      const [row] = await db.insert(vpnUsers).values(values).returning();
      if (!row) throw new Error('vpn user insert returned no row');
      return row;
    },
    async updateUser(id: string, values: VpnUserChange): Promise<VpnUserRow> {
      const [row] = await db.update(vpnUsers).set(values).where(eq(vpnUsers.id, id)).returning();
      if (!row) throw new Error('vpn user update returned no row');
      return row;
    },
    async deleteUser(id: string): Promise<void> {
      await db.delete(vpnUsers).where(eq(vpnUsers.id, id));
    },

    async findServer(serviceId: string): Promise<VpnServerRow | undefined> {
      const [row] = await db.select().from(vpnServers).where(eq(vpnServers.serviceId, serviceId)).limit(1);
      return row;
    },
    async saveRestart(serviceId: string, accountId: string, generation: number, at: Date): Promise<void> {
      await db
        .insert(vpnServers)
        .values({ serviceId, accountId, restartGeneration: generation, updatedAt: at })
        .onConflictDoUpdate({
          target: vpnServers.serviceId,
          set: { restartGeneration: generation, updatedAt: at },
        });
    },
    async sessionsReported(serviceId: string, accountId: string, at: Date): Promise<void> {
      await db
        .insert(vpnServers)
        .values({ serviceId, accountId, sessionsReportedAt: at, updatedAt: at })
        .onConflictDoUpdate({ target: vpnServers.serviceId, set: { sessionsReportedAt: at, updatedAt: at } });
    },

    async sessionsOf(serviceId: string): Promise<VpnSessionRow[]> {
      return db
        .select()
        .from(vpnSessions)
        .where(eq(vpnSessions.serviceId, serviceId))
        .orderBy(asc(vpnSessions.connectedSince), asc(vpnSessions.id));
    },
    async replaceSessions(serviceId: string, rows: Array<typeof vpnSessions.$inferInsert>): Promise<void> {
      await db.delete(vpnSessions).where(eq(vpnSessions.serviceId, serviceId));
      if (rows.length > 0) await db.insert(vpnSessions).values(rows);
    },

    async usageOf(serviceId: string): Promise<VpnUsageRow[]> {
      return db.select().from(vpnUsage).where(eq(vpnUsage.serviceId, serviceId));
    },
    async saveUsage(rows: Array<typeof vpnUsage.$inferInsert>): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(vpnUsage)
        .values(rows)
        .onConflictDoUpdate({
          target: vpnUsage.userId,
          set: {
            month: sql`excluded.month`,
            bytesSent: sql`excluded.bytes_sent`,
            bytesReceived: sql`excluded.bytes_received`,
            overLimit: sql`excluded.over_limit`,
            reportedAt: sql`excluded.reported_at`,
          },
        });
    },

    /** Adds bytes to the users' hours (a row per user and hour). */
    async addTraffic(rows: Array<typeof vpnTraffic.$inferInsert>): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(vpnTraffic)
        .values(rows)
        .onConflictDoUpdate({
          target: [vpnTraffic.userId, vpnTraffic.hour],
          set: {
            bytesSent: sql`${vpnTraffic.bytesSent} + excluded.bytes_sent`,
            bytesReceived: sql`${vpnTraffic.bytesReceived} + excluded.bytes_received`,
          },
        });
    },
    async pruneTraffic(serviceId: string, before: Date): Promise<void> {
      await db
        .delete(vpnTraffic)
        .where(and(eq(vpnTraffic.serviceId, serviceId), lt(vpnTraffic.hour, before)));
    },
    /** Bytes per hour or per day (UTC) from `from` on, only the buckets that have any. */
    async traffic(
      serviceId: string,
      options: { from: Date; unit: 'hour' | 'day'; userId?: string | undefined },
    ): Promise<TrafficRow[]> {
      // The unit is written into the text (one of two words), so the select and the group by
      // are the same expression; as two parameters PostgreSQL would not know them equal.
      const unit = sql.raw(options.unit === 'hour' ? `'hour'` : `'day'`);
      const start = sql<Date>`date_trunc(${unit}, ${vpnTraffic.hour}, 'UTC')`;
      const rows = await db
        .select({
          start,
          bytesSent: sql<string>`sum(${vpnTraffic.bytesSent})`,
          bytesReceived: sql<string>`sum(${vpnTraffic.bytesReceived})`,
        })
        .from(vpnTraffic)
        .where(
          and(
            eq(vpnTraffic.serviceId, serviceId),
            gte(vpnTraffic.hour, options.from),
            options.userId ? eq(vpnTraffic.userId, options.userId) : undefined,
          ),
        )
        .groupBy(start);
      // Sums of bigint come back as numeric (text), and a computed timestamp as text on PGlite.
      return rows.map((row) => ({
        start: new Date(row.start),
        bytesSent: Number(row.bytesSent),
        bytesReceived: Number(row.bytesReceived),
      }));
    },

    async countsByService(
      serviceIds: string[],
    ): Promise<Array<{ serviceId: string; users: number; online: number }>> {
      if (serviceIds.length === 0) return [];
      const users = await db
        .select({ serviceId: vpnUsers.serviceId, total: count() })
        .from(vpnUsers)
        .where(and(inArray(vpnUsers.serviceId, serviceIds), isPerson))
        .groupBy(vpnUsers.serviceId);
      const online = await db
        .select({ serviceId: vpnSessions.serviceId, total: countDistinct(vpnSessions.userId) })
        .from(vpnSessions)
        .innerJoin(vpnUsers, eq(vpnUsers.id, vpnSessions.userId))
        .where(and(inArray(vpnSessions.serviceId, serviceIds), isPerson))
        .groupBy(vpnSessions.serviceId);
      const onlineOf = new Map(online.map((row) => [row.serviceId, row.total]));
      return users.map((row) => ({
        serviceId: row.serviceId,
        users: row.total,
        online: onlineOf.get(row.serviceId) ?? 0,
      }));
    },

    async insertLink(values: typeof vpnConfigLinks.$inferInsert): Promise<void> {
      await db.insert(vpnConfigLinks).values(values);
    },
    async pruneLinks(serviceId: string, before: Date): Promise<void> {
      await db
        .delete(vpnConfigLinks)
        .where(and(eq(vpnConfigLinks.serviceId, serviceId), lt(vpnConfigLinks.expiresAt, before)));
    },
    /**
     * Takes the link if it is unused and alive: one conditional update, so of two requests with
     * the same token only one gets the row.
     */
    async claimLink(tokenHash: string, at: Date): Promise<VpnConfigLinkRow | undefined> {
      const [row] = await db
        .update(vpnConfigLinks)
        .set({ usedAt: at })
        .where(
          and(
            eq(vpnConfigLinks.tokenHash, tokenHash),
            isNull(vpnConfigLinks.usedAt),
            gt(vpnConfigLinks.expiresAt, at),
          ),
        )
        .returning();
      return row;
    },
    /** Gives a claimed link back (the node could not answer; the owner's phone may try again). */
    async releaseLink(tokenHash: string): Promise<void> {
      await db.update(vpnConfigLinks).set({ usedAt: null }).where(eq(vpnConfigLinks.tokenHash, tokenHash));
    },
  };
}

export type VpnQueries = ReturnType<typeof createVpnQueries>;
