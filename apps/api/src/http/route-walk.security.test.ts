// Walks every route the app registers (http/access.ts records each with its declared level), with
// the real ids of a first account's resources, as each kind of caller the level speaks of: nobody
// (401 unless public), an account whose email is not verified (`email_not_verified` on verified
// routes), a stranger (a second verified account: 404 for each of the owner's ids, nothing leaked,
// nothing changed), a node on customer routes and a customer on node routes (refused), and the
// owner without the CSRF header. What each route must answer comes from its declaration, so a new
// route is walked without editing this file; a route without a level stops the app at startup,
// and one whose path parameter the walk cannot fill fails here by name (see `fillPath`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../test/test-app.ts';
import { register, sessionBeforeVerification, signedInUser } from '../test/factories.ts';
import { capacity, registerNode } from '../test/services.ts';
import {
  CHANGES,
  documentedOperations,
  fillPath,
  nameOf,
  operationsOf,
  ownerSnapshot,
  ownerWithEverything,
  sampleBody,
  sampleQuery,
  send,
  WORKSPACE,
  type DeclaredOperation,
  type OwnerResources,
} from '../test/security.ts';
import { ACCESS_LEVELS } from './access.ts';
import { isCsrfExempt } from './csrf-exempt.ts';

/** Routes the walks do not call, each with the reason. */
const NOT_WALKED: Record<string, string> = {
  'POST /api/v1/auth/logout': 'ends the caller’s own session, nobody else’s (auth.test.ts signs out)',
  'GET /payments-sandbox/sessions/{id}':
    'the sandbox card page is a capability URL (the session id is the secret), as the provider’s own page is',
  'POST /payments-sandbox/sessions/{id}/pay': 'the sandbox card page (see above)',
  'GET /api/v1/payments/session/{id}/verify':
    'documented capability: "no sign-in: the session id is the key" (the page the provider returns to)',
  'GET /api/v1/payments/session/{id}/status': 'the same capability as …/verify',
};

/** Answers other than 404 that a route documents for a stranger holding the owner's ids. */
const DOCUMENTED_REFUSAL: Record<string, number> = {};

const CUSTOMER_LEVELS = new Set(['signed-in', 'verified']);

describe('every route, as each kind of caller its access level speaks of', () => {
  let ctx: TestContext;
  let owner: OwnerResources;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  /** A registered account that has not verified its email yet. */
  let unverifiedUserId: string;
  let nodeAuth: { authorization: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await ownerWithEverything(ctx);
    stranger = await signedInUser(ctx);
    unverifiedUserId = (await register(ctx)).user.id;
    const node = await registerNode(ctx, `walk-node-${Date.now()}`, capacity(1000));
    nodeAuth = { authorization: `Bearer ${node.token}` };
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Sends `operation` with the owner's ids and a valid body, as `auth`. */
  async function call(
    operation: DeclaredOperation,
    auth: Record<string, string> | undefined,
  ): Promise<{ sent: string; response: LightMyRequestResponse } | string> {
    const path = fillPath(operation.route, owner);
    if (!path)
      return `${nameOf(operation)}: a path parameter the walk cannot fill; give it the owner's id in fillPath`;
    const query = sampleQuery(operation, owner);
    const url = query ? `${path}?${query}` : path;
    const body = CHANGES.has(operation.method) ? (sampleBody(operation, owner) ?? {}) : undefined;
    const response = await send(ctx, { method: operation.method, url, auth, payload: body });
    return { sent: `${url} ${JSON.stringify(body ?? {})}`, response };
  }

  const detailOf = (response: LightMyRequestResponse) => {
    try {
      return response.json<{ detail?: string }>().detail;
    } catch {
      return undefined;
    }
  };

  it('every route declares a level, and the walk covers every documented route', () => {
    const walked = operationsOf(ctx);
    expect(walked.length).toBeGreaterThan(80);
    for (const operation of walked) expect(ACCESS_LEVELS).toContain(operation.access);
    const names = new Set(walked.map(nameOf));
    expect(documentedOperations(ctx).filter((operation) => !names.has(nameOf(operation)))).toEqual([]);
    // Each level the walk checks is in use, so none of the walks below passes by walking nothing.
    expect(new Set(walked.map((operation) => operation.access))).toEqual(new Set(ACCESS_LEVELS));
  });

  it('answers 401 to a caller without a session on every route that is not public', async () => {
    const before = await ownerSnapshot(ctx, owner);
    const failures: string[] = [];
    for (const operation of operationsOf(ctx)) {
      if (NOT_WALKED[nameOf(operation)]) continue;
      const result = await call(operation, undefined);
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      const { statusCode } = result.response;
      const refused = statusCode === 401 && detailOf(result.response) === 'unauthorized';
      if (operation.access === 'public' ? statusCode >= 500 : !refused) {
        failures.push(
          `${nameOf(operation)} (${operation.access}) → ${statusCode} ${result.response.body.slice(0, 120)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(await ownerSnapshot(ctx, owner)).toEqual(before);
  });

  it('answers email_not_verified to an unverified account on verified routes, and serves it on signed-in ones', async () => {
    const failures: string[] = [];
    let signedIn = 0;
    for (const operation of operationsOf(ctx)) {
      if (!CUSTOMER_LEVELS.has(operation.access)) continue;
      // A session of its own for each call: signing out (walked here) ends the one it is sent with.
      const tokens = await sessionBeforeVerification(ctx, unverifiedUserId);
      const result = await call(operation, { authorization: `Bearer ${tokens.access_token}` });
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      const { statusCode } = result.response;
      const detail = detailOf(result.response);
      if (operation.access === 'verified' && (statusCode !== 403 || detail !== 'email_not_verified')) {
        failures.push(`${nameOf(operation)} (verified) → ${statusCode} ${detail ?? ''}`);
      }
      if (operation.access === 'signed-in') {
        signedIn += 1;
        if (statusCode >= 500 || statusCode === 401 || detail === 'email_not_verified') {
          failures.push(`${nameOf(operation)} (signed-in) → ${statusCode} ${detail ?? ''}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(signedIn).toBeGreaterThan(0);
  });

  it('refuses a node’s token on every customer route and a customer’s token on every node route', async () => {
    const before = await ownerSnapshot(ctx, owner);
    const failures: string[] = [];
    for (const operation of operationsOf(ctx)) {
      const auth = CUSTOMER_LEVELS.has(operation.access)
        ? nodeAuth
        : operation.access === 'node'
          ? owner.auth
          : undefined;
      if (!auth) continue;
      const result = await call(operation, auth);
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      if (result.response.statusCode !== 401) {
        failures.push(`${nameOf(operation)} (${operation.access}) → ${result.response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await ownerSnapshot(ctx, owner)).toEqual(before);
  });

  it('attack 12.walk: answers 404 to each of the owner’s ids, leaks nothing and changes nothing', async () => {
    const ownerIds = [
      owner.serviceId,
      owner.paidOrderId,
      owner.extensionOrderId,
      owner.planChangeOrderId,
      owner.sessionId,
      owner.signInSessionId,
      owner.planChangeId,
      owner.invoiceId,
      owner.vpnUserId,
    ];
    const ownerData = [
      ...ownerIds,
      owner.email,
      WORKSPACE.user,
      WORKSPACE.group,
      WORKSPACE.share,
      WORKSPACE.vpnUser,
    ];
    const before = await ownerSnapshot(ctx, owner);
    const failures: string[] = [];
    let walked = 0;
    for (const operation of operationsOf(ctx)) {
      const name = nameOf(operation);
      if (NOT_WALKED[name]) continue;
      const result = await call(operation, stranger.auth);
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      const { sent, response } = result;
      const namesOwnerResource = ownerIds.some((id) => sent.includes(id));
      walked += 1;
      const expected = DOCUMENTED_REFUSAL[name] ?? (namesOwnerResource ? 404 : undefined);
      if (response.statusCode >= 500 || (expected !== undefined && response.statusCode !== expected)) {
        failures.push(
          `${name} → ${response.statusCode} (expected ${expected ?? '< 500'}) ${response.body.slice(0, 160)}`,
        );
      }
      const leaked = ownerData.filter((value) => response.body.includes(value) && !sent.includes(value));
      if (leaked.length > 0) failures.push(`${name} leaks the owner's ${leaked.join(', ')}`);
    }
    expect(failures).toEqual([]);
    expect(walked).toBeGreaterThan(80);
    // The stranger's own session still works, so no 404 above was a signed-out 401 in disguise.
    const me = await send(ctx, { method: 'GET', url: '/api/v1/users/me', auth: stranger.auth });
    expect(me.statusCode).toBe(200);
    expect(await ownerSnapshot(ctx, owner)).toEqual(before);
  });

  it('attack 12.walk: refuses every change without the CSRF header, even from the signed-in owner', async () => {
    const before = await ownerSnapshot(ctx, owner);
    const failures: string[] = [];
    for (const operation of operationsOf(ctx).filter((op) => CHANGES.has(op.method))) {
      if (isCsrfExempt(operation.method, operation.route)) continue;
      const url = fillPath(operation.route, owner);
      if (!url) {
        failures.push(`${nameOf(operation)}: a path parameter the walk cannot fill`);
        continue;
      }
      const response = await send(ctx, {
        method: operation.method,
        url,
        auth: owner.auth,
        payload: sampleBody(operation, owner) ?? {},
        csrf: false,
      });
      if (response.statusCode !== 403 || !response.body.includes('csrf_invalid')) {
        failures.push(`${nameOf(operation)} → ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await ownerSnapshot(ctx, owner)).toEqual(before);
  });
});
