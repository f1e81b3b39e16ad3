// Builds accounts the way a customer does: through the API, reading the mailed link.
import type { LoginResponse, RegisterRequest, User } from '@debesis/contract';
import type { Db } from '../db/database.ts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { createAuthQueries } from '../modules/auth/auth.queries.ts';
import { sessions } from '../modules/auth/auth.table.ts';
import {
  createAccessTokens,
  hashOpaqueToken,
  newOpaqueToken,
  REFRESH_TOKEN_TTL_MS,
} from '../modules/auth/tokens.ts';
import { injectWithCsrf, type TestContext } from './test-app.ts';

let counter = 0;
export const PASSWORD = 'Correct-Horse-7';

export function registration(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  counter += 1;
  return {
    email: `user${counter}-${Date.now()}@example.lt`,
    password: PASSWORD,
    firstName: 'Ona',
    lastName: 'Onaitė',
    accountType: 'personal',
    country: 'LT',
    ...overrides,
  };
}

export async function register(ctx: TestContext, overrides: Partial<RegisterRequest> = {}) {
  const body = registration(overrides);
  // Each from an address of its own, so that a file's many owners stay under the per-IP limit
  // on registrations (LIMITS.registrationsPerIp).
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: body,
    remoteAddress: `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`,
  });
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { body, ...response.json<{ user: User; token: null }>() };
}

/**
 * A session of an account whose address is not verified yet. Registration no longer opens one,
 * but versions before it did, so such sessions may still exist; tests of what they may do, and
 * of their end, open one straight in the database.
 */
export async function sessionBeforeVerification(
  ctx: TestContext | { database: { db: Db }; jwtSecret: string },
  userId: string,
) {
  const queries = createAuthQueries(ctx.database.db);
  const now = 'now' in ctx ? () => ctx.now() : () => new Date();
  const jwtSecret = 'config' in ctx ? ctx.config.jwtSecret : ctx.jwtSecret;
  const at = now();
  const session = await queries.createSession({
    userId,
    method: 'register',
    ip: null,
    userAgent: null,
    now: at,
  });
  const refreshToken = newOpaqueToken();
  await queries.insertRefreshToken({
    sessionId: session.id,
    tokenHash: hashOpaqueToken(refreshToken),
    expiresAt: new Date(at.getTime() + REFRESH_TOKEN_TTL_MS),
  });
  const accessToken = await createAccessTokens(jwtSecret, now).sign({
    userId,
    sessionId: session.id,
  });
  return { access_token: accessToken, refresh_token: refreshToken };
}

export async function verify(ctx: TestContext, email: string) {
  const token = ctx.mailbox.linkToken(email, 'verify-email');
  const response = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: '/api/v1/auth/verify-email',
    payload: { token },
  });
  if (response.statusCode !== 200) throw new Error(`verify failed: ${response.statusCode} ${response.body}`);
}

/** Signs in with a password as the sign-in form does (any app with the auth routes will do). */
export function login(
  ctx: Pick<TestContext, 'app'>,
  email: string,
  password = PASSWORD,
  remoteAddress = '127.0.0.1',
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password, grant_type: 'password' }).toString(),
  });
}

/** A registered, verified, signed-in owner. */
export async function signedInUser(ctx: TestContext, overrides: Partial<RegisterRequest> = {}) {
  const registered = await register(ctx, overrides);
  await verify(ctx, registered.body.email);
  const response = await login(ctx, registered.body.email, registered.body.password);
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const tokens = response.json<LoginResponse>();
  return {
    email: registered.body.email,
    user: registered.user,
    tokens,
    auth: { authorization: `Bearer ${tokens.access_token}` },
  };
}

/**
 * A token's two calls of the auth tests: who it signs in as (`me`) and a refresh. `ctx` is read at
 * each call, so a describe block can take them before its beforeAll has built the app.
 */
export function tokenCalls(ctx: () => TestContext) {
  return {
    me: (accessToken: string) =>
      ctx().app.inject({
        method: 'GET',
        url: '/api/v1/users/me',
        headers: { authorization: `Bearer ${accessToken}` },
      }),
    refresh: (refreshToken: string) =>
      ctx().app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refresh_token: refreshToken },
      }),
  };
}

/** Signs out as the web app does: with the session's refresh token when given. */
export function signOut(ctx: TestContext, auth: Record<string, string>, refreshToken?: string) {
  return injectWithCsrf(ctx.app, {
    method: 'POST',
    url: '/api/v1/auth/logout',
    headers: auth,
    ...(refreshToken ? { payload: { refresh_token: refreshToken } } : {}),
  });
}

/** Revokes every session of the user, as a sign-out everywhere or an operator does. */
export async function revokeSessions(ctx: TestContext, userId: string): Promise<void> {
  await ctx.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, userId));
}

/**
 * What a read bound to the caller's session (`url`) answers as sessions end: 200 while signed in,
 * 401 at the next request once signed out or revoked and without a session, 403
 * `email_not_verified` for an owner whose address is not verified yet. `prepare` gives the first
 * owner something to read before it signs out.
 */
export async function expectEndedSessionsRefused(
  ctx: TestContext,
  url: string,
  prepare: (owner: Awaited<ReturnType<typeof signedInUser>>) => Promise<void> = async () => undefined,
): Promise<void> {
  const status = async (headers: Record<string, string>) =>
    (await ctx.app.inject({ method: 'GET', url, headers })).statusCode;

  const signedOut = await signedInUser(ctx);
  await prepare(signedOut);
  expect(await status(signedOut.auth)).toBe(200);
  const logout = await signOut(ctx, signedOut.auth);
  expect(logout.statusCode).toBe(200);
  expect(await status(signedOut.auth)).toBe(401);

  const revoked = await signedInUser(ctx);
  expect(await status(revoked.auth)).toBe(200);
  await revokeSessions(ctx, revoked.user.id);
  expect(await status(revoked.auth)).toBe(401);
  expect(await status({})).toBe(401);

  const unverified = await register(ctx);
  const tokens = await sessionBeforeVerification(ctx, unverified.user.id);
  const refused = await ctx.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ detail: 'email_not_verified' });
}

/** A Lithuanian VAT number of the right shape whose check digits fail: a typo. */
export const VAT_NUMBER_TYPO = 'LT100001919018';

/** The answer to a VAT number typo (VAT_NUMBER_TYPO) in `field`, as a Lithuanian reader gets it. */
export function expectVatTypoRefused(response: { statusCode: number; json(): unknown }, field: string): void {
  expect(response.statusCode).toBe(422);
  expect(response.json()).toMatchObject({
    errors: [
      {
        field,
        code: 'invalid_vat_checksum',
        message:
          'Tai netinkamas PVM mokėtojo kodas: nesutampa kontroliniai skaitmenys. Patikrinkite, ar nėra klaidos',
      },
    ],
  });
}
