// The only SQL on sessions, refresh tokens, mailed link tokens and login history.
import { and, desc, eq, gt, isNull, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import type { UserWithSettings } from '../users/users.queries.ts';
import { userSettings, users } from '../users/users.table.ts';
import { emailTokens, loginHistory, refreshTokens, sessions } from './auth.table.ts';

export type SessionRow = typeof sessions.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export interface ActiveSession {
  sessionId: string;
  userId: string;
  revokedAt: Date | null;
  active: boolean;
  emailVerified: boolean;
  account: UserWithSettings | undefined;
}
export type EmailTokenPurpose = (typeof emailTokens.$inferSelect)['purpose'];

/** What admitting a request reads of its session (auth.service.ts admitSession). */
const sessionColumns = {
  sessionId: sessions.id,
  userId: sessions.userId,
  revokedAt: sessions.revokedAt,
  active: users.active,
  emailVerified: users.emailVerified,
};

/**
 * Reads keyed by the caller's account made in the session check's own statement, for a hot route
 * whose answer is one query (the services overview): one database round trip instead of two,
 * which on PostgreSQL is most of what such a request costs besides its answer. `read` receives
 * the session's account id and returns a scalar subquery; it runs only for a session that
 * stands, and its value is used only once admitSession has admitted the session read with it
 * (http/access.ts, route config `sessionReadByRoute`). The read may name placeholders of its own
 * (`sql.placeholder`), given as `parameters` on each call: one prepared statement for every filter.
 */
export function createSessionBoundReads(db: Executor) {
  return {
    prepare<T, P extends Record<string, unknown> = Record<never, never>>(
      name: string,
      read: (accountId: SQLWrapper) => SQL<T>,
    ) {
      const prepare = () =>
        db
          .select({
            ...sessionColumns,
            value: sql<T | null>`case when ${sessions.revokedAt} is null and ${users.active} then ${read(sessions.userId)} end`,
          })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(eq(sessions.id, sql.placeholder('sessionId')))
          .limit(1)
          .prepare(name);
      let statement: ReturnType<typeof prepare> | undefined;
      return async (
        sessionId: string,
        ...[parameters]: keyof P extends never ? [] : [P]
      ): Promise<{ session: ActiveSession | undefined; value: T | null }> => {
        statement ??= prepare();
        const [row] = await statement.execute({ ...parameters, sessionId });
        if (!row) return { session: undefined, value: null };
        const { value, ...session } = row;
        return { session: { ...session, account: undefined }, value };
      };
    },
  };
}
export type SessionBoundReads = ReturnType<typeof createSessionBoundReads>;

export function createAuthQueries(db: Executor) {
  // Every signed-in request asks one of these two, so their SQL is built once, not per request
  // (drizzle's query building was about a tenth of such a request's CPU). Most routes need only
  // whether the session stands and whose it is: five columns. A route that shows the account
  // (`GET /users/me`, route config `readsAccount`) has the whole account read with the session
  // (one join), so it needs no second query: a database round trip is what a signed-in read costs
  // most, and decoding forty columns it does not show cost the others ~15% of their CPU.
  let activeSession: ReturnType<typeof prepareActiveSession> | undefined;
  const prepareActiveSession = () =>
    db
      .select(sessionColumns)
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, sql.placeholder('sessionId')))
      .limit(1)
      .prepare('auth_find_active_session');
  let activeSessionWithAccount: ReturnType<typeof prepareActiveSessionWithAccount> | undefined;
  const prepareActiveSessionWithAccount = () =>
    db
      .select({ ...sessionColumns, user: users, settings: userSettings })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .where(eq(sessions.id, sql.placeholder('sessionId')))
      .limit(1)
      .prepare('auth_find_active_session_account');

  return {
    async createSession(values: {
      userId: string;
      method: string;
      ip: string | null;
      userAgent: string | null;
      now: Date;
    }): Promise<SessionRow> {
      const [row] = await db
        .insert(sessions)
        .values({ ...values, createdAt: values.now, lastUsedAt: values.now })
        .returning();
      if (!row) throw new Error('session insert returned no row');
      return row;
    },

    /**
     * The session as it is now, for authenticating a request: one primary-key join. With
     * `withAccount`, the account too (`account` is undefined only for an account without its
     * settings row); without, `account` is undefined.
     */
    async findActiveSession(
      sessionId: string,
      { withAccount = false }: { withAccount?: boolean } = {},
    ): Promise<ActiveSession | undefined> {
      if (!withAccount) {
        activeSession ??= prepareActiveSession();
        const [row] = await activeSession.execute({ sessionId });
        return row && { ...row, account: undefined };
      }
      activeSessionWithAccount ??= prepareActiveSessionWithAccount();
      const [row] = await activeSessionWithAccount.execute({ sessionId });
      if (!row) return undefined;
      const { user, settings, ...session } = row;
      return { ...session, account: settings ? { ...user, settings } : undefined };
    },

    async revokeSession(sessionId: string, reason: string, at: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** Ends one session of this user; false when it is not theirs or had already ended. */
    async revokeSessionOf(userId: string, sessionId: string, reason: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length === 1;
    },

    /** Ends every session of the user but `keepSessionId`; answers how many ended. */
    async revokeOtherSessions(
      userId: string,
      keepSessionId: string,
      reason: string,
      at: Date,
    ): Promise<number> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length;
    },

    /**
     * Sessions not ended and renewed after `usedSince` (older ones hold only expired refresh
     * tokens), most recently used first.
     */
    async listLiveSessions(userId: string, usedSince: Date): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(
          and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.lastUsedAt, usedSince)),
        )
        .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
    },

    /** Whether the account signed in from `ip` since `since` (an address of the owner's own). */
    async signedInFrom(userId: string, ip: string, since: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.ip, ip), gt(sessions.createdAt, since)))
        .limit(1);
      return row !== undefined;
    },

    async revokeAllSessions(userId: string, reason: string, at: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    async insertRefreshToken(values: {
      sessionId: string;
      tokenHash: string;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(refreshTokens).values(values);
    },

    async findRefreshToken(tokenHash: string) {
      const [row] = await db
        .select({ token: refreshTokens, session: sessions })
        .from(refreshTokens)
        .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /**
     * Marks a refresh token used, atomically: true for the one caller that used it first. A
     * second caller (a replay, or a thief racing the owner) gets false.
     */
    async markRefreshTokenUsed(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(refreshTokens)
        .set({ usedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
        .returning({ id: refreshTokens.id });
      return rows.length === 1;
    },

    async touchSession(sessionId: string, at: Date): Promise<void> {
      await db.update(sessions).set({ lastUsedAt: at }).where(eq(sessions.id, sessionId));
    },

    async insertEmailToken(values: {
      userId: string;
      purpose: EmailTokenPurpose;
      tokenHash: string;
      expiresAt: Date;
      newEmail?: string;
    }): Promise<string> {
      const [row] = await db.insert(emailTokens).values(values).returning({ id: emailTokens.id });
      if (!row) throw new Error('email token insert returned no row');
      return row.id;
    },

    async findEmailToken(tokenHash: string, purpose: EmailTokenPurpose) {
      const [row] = await db
        .select()
        .from(emailTokens)
        .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)))
        .limit(1);
      return row;
    },

    async markEmailTokenUsed(id: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(emailTokens)
        .set({ usedAt: at })
        .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
        .returning({ id: emailTokens.id });
      return rows.length === 1;
    },

    /** A new link replaces the old ones of the same purpose. */
    async expireEmailTokens(userId: string, purpose: EmailTokenPurpose, at: Date): Promise<void> {
      await db
        .update(emailTokens)
        .set({ usedAt: at })
        .where(
          and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)),
        );
    },

    async insertLogin(values: {
      userId: string;
      method: string;
      ip: string | null;
      userAgent: string | null;
      at: Date;
    }): Promise<void> {
      await db.insert(loginHistory).values({
        userId: values.userId,
        method: values.method,
        ip: values.ip,
        userAgent: values.userAgent,
        createdAt: values.at,
      });
    },

    async countLogins(userId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`count(*)::int` })
        .from(loginHistory)
        .where(eq(loginHistory.userId, userId));
      return row?.total ?? 0;
    },
  };
}

export type AuthQueries = ReturnType<typeof createAuthQueries>;
