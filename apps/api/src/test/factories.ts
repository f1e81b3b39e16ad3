// Builds accounts the way a customer does: through the API, reading the mailed link.
import type { LoginResponse, RegisterRequest, User } from '@debesis/contract';
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
  const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: body });
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { body, ...response.json<{ user: User; token: { access_token: string; refresh_token: string } }>() };
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

export function login(ctx: TestContext, email: string, password = PASSWORD, remoteAddress = '127.0.0.1') {
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
