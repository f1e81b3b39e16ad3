// A signed-in request reads its session in one query: a route that shows the account
// (`readsAccount`, `GET /users/me`) has the account read along, so it costs one database round
// trip; the others read only whether the session stands. The read is made at every request, so a
// revoked session is refused at its next one on either kind of route.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { User } from '@debesis/contract';
import { useTestContext } from '../../test/test-app.ts';
import { signedInUser, signOut } from '../../test/factories.ts';
import { createUsersService } from '../users/users.service.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { users } from '../users/users.table.ts';
import { createAuthQueries } from './auth.queries.ts';
import { createAccessTokens } from './tokens.ts';

describe('the session read', () => {
  const ctx = useTestContext();

  it('brings the account as it is now, with its settings, in the same query', async () => {
    const { tokens, user } = await signedInUser(ctx);
    const claims = await createAccessTokens(ctx.config.jwtSecret).verify(tokens.access_token);
    if (!claims) throw new Error('the test token did not verify');
    await ctx.database.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, user.id));

    const session = await createAuthQueries(ctx.database.db).findActiveSession(claims.sessionId, {
      withAccount: true,
    });

    expect(session?.userId).toBe(user.id);
    expect(session?.account?.id).toBe(user.id);
    expect(session?.account?.firstName).toBe('Renamed');
    expect(session?.account?.settings.userId).toBe(user.id);
  });

  it('shows /users/me from that read and refuses the session at the next request once signed out', async () => {
    const { auth, tokens } = await signedInUser(ctx, { firstName: 'Ona' });
    const me = () => ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: auth });
    const first = await me();
    expect(first.statusCode).toBe(200);
    expect(first.json<User>().first_name).toBe('Ona');

    const logout = await signOut(ctx, auth, tokens.refresh_token);
    expect(logout.statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);
  });

  it('lets users.me present the account that read brought, without reading it again', async () => {
    const { tokens, user } = await signedInUser(ctx);
    const claims = await createAccessTokens(ctx.config.jwtSecret).verify(tokens.access_token);
    if (!claims) throw new Error('the test token did not verify');
    const session = await createAuthQueries(ctx.database.db).findActiveSession(claims.sessionId, {
      withAccount: true,
    });
    const service = createUsersService({
      queries: {
        findById: () => Promise.reject(new Error('read the account a second time')),
      } as unknown as UsersQueries,
      activity: { record: async () => {} },
    });

    expect((await service.me(user.id, session?.account)).email).toBe(user.email);
  });

  it('reads only whether the session stands for a route that does not show the account', async () => {
    const { tokens, user } = await signedInUser(ctx);
    const claims = await createAccessTokens(ctx.config.jwtSecret).verify(tokens.access_token);
    if (!claims) throw new Error('the test token did not verify');

    const session = await createAuthQueries(ctx.database.db).findActiveSession(claims.sessionId);

    expect(session).toEqual({
      sessionId: claims.sessionId,
      userId: user.id,
      revokedAt: null,
      active: true,
      emailVerified: true,
      account: undefined,
    });
  });

  it('refuses a signed-out session, then a deactivated account, at the next request of such a route', async () => {
    const overview = (auth: Record<string, string>) =>
      ctx.app.inject({ method: 'GET', url: '/api/v1/services/overview', headers: auth });
    const signedOut = await signedInUser(ctx);
    expect((await overview(signedOut.auth)).statusCode).toBe(200);
    const logout = await signOut(ctx, signedOut.auth, signedOut.tokens.refresh_token);
    expect(logout.statusCode).toBe(200);
    expect((await overview(signedOut.auth)).statusCode).toBe(401);

    const deactivated = await signedInUser(ctx);
    expect((await overview(deactivated.auth)).statusCode).toBe(200);
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, deactivated.user.id));
    expect((await overview(deactivated.auth)).statusCode).toBe(401);
  });
});
