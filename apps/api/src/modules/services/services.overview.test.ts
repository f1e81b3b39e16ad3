// The services overview is the dashboard's first call: what one request costs in database round
// trips must not grow with the account's services, and its fast paths (the list read as one JSON
// value, the answer serialized by a serializer compiled from the contract) must answer exactly
// what drizzle's rows and zod's serializer would have.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceOverviewItemSchema, type ServiceOverviewItem } from '@debesis/contract';
import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { signedInUser, expectEndedSessionsRefused } from '../../test/factories.ts';
import { sessions } from '../auth/auth.table.ts';
import { createAccessTokens } from '../auth/tokens.ts';
import { users } from '../users/users.table.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { createTestContext, injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { createSessionBoundReads } from '../auth/auth.queries.ts';
import { createServicesQueries } from './services.queries.ts';
import { services } from './services.table.ts';

describe('services overview', () => {
  let ctx: TestContext;
  let queries: string[] = [];
  type Owner = Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({
      // Plan names come from the catalogue's in-memory copy, read again now and then whatever
      // the services: not what this file counts.
      onQuery: (text) => {
        if (!/from "product/.test(text)) queries.push(text);
      },
    });
    await seedCatalogue(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Services of every kind the list shows: ended, running, reported on, with odd text. */
  async function addServices(owner: Owner, count: number): Promise<void> {
    const statuses = ['active', 'processing', 'cancelled', 'expired', 'resourcePending'] as const;
    const base = Date.UTC(2026, 10, 1);
    for (let made = 0; made < count; made += 1) {
      const reported = made % 2 === 0;
      await ctx.database.db.insert(services).values({
        accountId: owner.user.id,
        orderId: randomUUID(),
        productId: made % 3 === 0 ? 'mini' : 'starter',
        name: `Svc ${made} "quoted" \\ ąčę 🙂`,
        description: made % 2 === 0 ? 'line\nbreak\ttab' : '',
        status: statuses[made % statuses.length] ?? 'active',
        runState: made % 4 === 3 ? 'stopped' : 'running',
        diskSpace: 3,
        usersCount: 2,
        periodId: '1m',
        monthlyPriceMinor: 499,
        // Microseconds, which a Date drops: both reads must drop them alike.
        validUntil: sql`${new Date(base + made * 86_400_000).toISOString()}::timestamptz + interval '123457 microseconds'`,
        statusChangedAt: sql`now() - interval '1 day 0.000999 seconds'`,
        paidFrom: new Date(base),
        paidMonths: 1,
        ...(reported
          ? {
              diskUsedBytes: 5_000_000_000_123,
              fileCount: 42,
              startedAt: new Date(base + 1),
              reportedAt: sql`now()`,
              generation: 3,
              observedGeneration: 2,
              lastError: 'smbd: "no" \u00e9',
              notServing: made % 4 === 0,
            }
          : {}),
        createdAt: new Date(base + made * 1000),
      });
    }
  }

  async function overview(owner: Owner): Promise<{ body: string; queries: string[] }> {
    queries = [];
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/services/overview',
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(200);
    return { body: response.body, queries: [...queries] };
  }

  it('answers in as many queries for twelve services as for one', async () => {
    const owner = await signedInUser(ctx);
    await addServices(owner, 1);
    const coldOne = (await overview(owner)).queries;
    const warmOne = (await overview(owner)).queries;
    await addServices(owner, 11);
    const coldTwelve = (await overview(owner)).queries;
    const warmTwelve = (await overview(owner)).queries;

    const { body } = await overview(owner);
    expect((JSON.parse(body) as { services: unknown[] }).services).toHaveLength(12);
    // New services' counts are read once, for all of them at once; then one statement reads the
    // session and the list together.
    expect(coldTwelve, coldOne.join('\n')).toHaveLength(coldOne.length);
    expect(warmTwelve, warmOne.join('\n')).toHaveLength(warmOne.length);
    expect(warmTwelve, warmTwelve.join('\n')).toHaveLength(1);
  });

  it('refuses at the next request a session signed out, revoked or of a closed account, and an unverified owner', async () => {
    const status = async (headers: Record<string, string>) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/services/overview', headers })).statusCode;

    await expectEndedSessionsRefused(ctx, '/api/v1/services/overview', (owner) => addServices(owner, 2));

    const closed = await signedInUser(ctx);
    expect(await status(closed.auth)).toBe(200);
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, closed.user.id));
    expect(await status(closed.auth)).toBe(401);

    // A well-signed token naming one account with another's session.
    const owner = await signedInUser(ctx);
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, owner.user.id));
    const other = await signedInUser(ctx);
    const crossed = await createAccessTokens(ctx.config.jwtSecret, () => ctx.now()).sign({
      userId: other.user.id,
      sessionId: session?.id ?? '',
    });
    expect(await status({ authorization: `Bearer ${crossed}` })).toBe(401);
    expect(await status({ authorization: 'Bearer not-a-token' })).toBe(401);
  });

  it('reads the list as drizzle’s select of the same rows would', async () => {
    const owner = await signedInUser(ctx);
    await addServices(owner, 8);
    const listed = await createServicesQueries(ctx.database.db).listForAccount(owner.user.id);
    const rows = await ctx.database.db
      .select()
      .from(services)
      .where(eq(services.accountId, owner.user.id))
      .orderBy(desc(services.createdAt));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).toEqual(
      rows.map((row) =>
        Object.fromEntries(Object.keys(listed[0] ?? {}).map((key) => [key, row[key as keyof typeof row]])),
      ),
    );
    expect(await createServicesQueries(ctx.database.db).listForAccount(randomUUID())).toEqual([]);
  });

  it('answers what the contract’s zod schema reads back unchanged, with its keys and no other', async () => {
    const owner = await signedInUser(ctx);
    await addServices(owner, 8);
    const { body } = await overview(owner);
    const parsed = JSON.parse(body) as { services: ServiceOverviewItem[] };
    // The route writes through the contract's compiled JSON Schema, which checks no values: this
    // is where they are checked, every field of every item, strictly.
    const strict = z.object({ services: z.array(serviceOverviewItemSchema.strict()) });
    const checked = strict.safeParse(parsed);
    expect(checked.success, checked.error?.message).toBe(true);
    expect(checked.data).toEqual(parsed);
    // Both sides of the nullable and optional fields are in the answer.
    expect(new Set(parsed.services.map((item) => item.disk_usage === null))).toEqual(new Set([true, false]));
    expect(new Set(parsed.services.map((item) => item.display_reason === null))).toEqual(
      new Set([true, false]),
    );
    expect(parsed.services.every((item) => item.shares === 0)).toBe(true);
  });

  it('reads the list only when the account’s rows changed since the version it is told', async () => {
    const owner = await signedInUser(ctx);
    await addServices(owner, 3);
    const queries = createServicesQueries(ctx.database.db);
    const read = createSessionBoundReads(ctx.database.db).prepare<
      [version: string, list: unknown[][] | null],
      { known: string }
    >(`services_overview_test_${randomUUID().slice(0, 8)}`, (accountId) =>
      queries.listUnlessKnown(accountId),
    );
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, owner.user.id));
    const at = async (known: string) => (await read(session?.id ?? '', { known })).value ?? ['', null];

    const [version, list] = await at('-');
    expect(list).toHaveLength(3);
    expect(await at(version)).toEqual([version, null]);
    // Any write to any of the rows, by any column, moves the version; so do a new row and a
    // deleted one. Another account's rows do not.
    const moved = async (change: () => Promise<unknown>) => {
      const [before] = await at('-');
      await change();
      const [after, rows] = await at(before);
      expect(after).not.toBe(before);
      return rows;
    };
    const [first] = await ctx.database.db
      .select()
      .from(services)
      .where(eq(services.accountId, owner.user.id));
    await moved(() =>
      ctx.database.db
        .update(services)
        .set({ fileCount: 43 })
        .where(eq(services.id, first?.id ?? '')),
    );
    await moved(() =>
      ctx.database.db
        .update(services)
        .set({ fileCount: 43 })
        .where(eq(services.id, first?.id ?? '')),
    );
    expect(await moved(() => addServices(owner, 1))).toHaveLength(4);
    expect(
      await moved(() => ctx.database.db.delete(services).where(eq(services.id, first?.id ?? ''))),
    ).toHaveLength(3);
    const [steady] = await at('-');
    await addServices(await signedInUser(ctx), 2);
    expect(await at(steady)).toEqual([steady, null]);
  });

  it('answers a 20-service account what presenting it afresh answers, whatever changed between', async () => {
    const owner = await signedInUser(ctx);
    await addServices(owner, 20);
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, owner.user.id));
    let now = new Date(ctx.now().getTime());
    const clock = () => now;
    // A token of the test's clock, which moves a day.
    const tokens = createAccessTokens(ctx.config.jwtSecret, clock);
    const appOn = () =>
      buildApp({
        config: ctx.config,
        database: ctx.database,
        queue: ctx.queue,
        logger: false,
        sendMail: async () => {},
        now: clock,
      });
    const keeping = await appOn();
    const get = async (app: Awaited<ReturnType<typeof appOn>>) => {
      const token = await tokens.sign({ userId: owner.user.id, sessionId: session?.id ?? '' });
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/services/overview',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      return response.body;
    };
    /** The answer of an app that has kept nothing: the overview as presented before answers were kept. */
    const afresh = async () => {
      const app = await appOn();
      try {
        return await get(app);
      } finally {
        await app.close();
      }
    };
    const same = async () => {
      const kept = await get(keeping);
      expect(kept).toBe(await afresh());
      return kept;
    };
    try {
      const first = await same();
      expect((JSON.parse(first) as { services: unknown[] }).services).toHaveLength(20);
      expect(await same()).toBe(first);
      // A second of uptime later.
      now = new Date(now.getTime() + 1_000);
      expect(await same()).not.toBe(first);
      // A node's report on one service, another renamed by its owner, one deleted.
      const rows = await ctx.database.db
        .select()
        .from(services)
        .where(eq(services.accountId, owner.user.id))
        .orderBy(desc(services.createdAt));
      await ctx.database.db
        .update(services)
        .set({ diskUsedBytes: 7, reportedAt: now })
        .where(eq(services.id, rows[0]?.id ?? ''));
      const reported = await same();
      const renamed = await injectWithCsrf(keeping, {
        method: 'PUT',
        url: `/api/v1/services/${rows[1]?.id ?? ''}`,
        headers: owner.auth,
        payload: { name: 'Renamed' },
      });
      expect(renamed.statusCode).toBe(200);
      expect(await same()).not.toBe(reported);
      await ctx.database.db.delete(services).where(eq(services.id, rows[2]?.id ?? ''));
      expect((JSON.parse(await same()) as { services: unknown[] }).services).toHaveLength(19);
      // A day later: days left, expiry warnings, silent nodes.
      now = new Date(now.getTime() + 86_400_000);
      await same();
    } finally {
      await keeping.close();
    }
  });
});
