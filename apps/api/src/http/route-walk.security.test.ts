// Walks every route the app registers (http/access.ts records each with its declared level), with
// the real ids of a first account's resources, as each kind of caller the level speaks of: nobody
// (401 unless public), an account whose email is not verified (`email_not_verified` on verified
// routes), a stranger (a second verified account: 404 for each of the owner's ids, nothing leaked,
// nothing changed), a node on customer routes and a customer on node routes (refused), and the
// owner without the CSRF header; a subuser (its own service's backup routes and its own session's
// routes, 403 `subuser_not_allowed` everywhere else) and a subuser of another service (403 on the
// backup routes too). What each route must answer comes from its declaration, so a new
// route is walked without editing this file; a route without a level stops the app at startup,
// and one whose path parameter the walk cannot fill fails here by name (see `fillPath`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, type TestContext } from '../test/test-app.ts';
import { register, sessionBeforeVerification, signedInUser } from '../test/factories.ts';
import { buyService } from '../test/payments.ts';
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
  SUBUSER,
  subuserSignIn,
  linuxUserSignIn,
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
  'GET /payments-sandbox/setups/{id}':
    'the sandbox card form of Billing is a capability URL (the setup id is the secret), like the card page',
  'POST /payments-sandbox/setups/{id}/save': 'the sandbox card form (see above)',
  'GET /api/v1/payments/session/{id}/verify':
    'documented capability: "no sign-in: the session id is the key" (the page the provider returns to)',
  'GET /api/v1/payments/session/{id}/status': 'the same capability as …/verify',
};

/** Answers other than 404 that a route documents for a stranger holding the owner's ids. */
const DOCUMENTED_REFUSAL: Record<string, number> = {
  // A node route naming a service (a standby's pull): a customer's token is no node's, refused
  // before the id is looked at.
  'GET /api/v1/nodes/replicas/{serviceId}/stream': 401,
};

/** The levels an owner's token is taken on. */
const CUSTOMER_LEVELS = new Set(['signed-in', 'verified', 'backups']);
/** The levels that want a verified owner (`backups` also takes a subuser of the service). */
const VERIFIED_LEVELS = new Set(['verified', 'backups']);

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
      if (VERIFIED_LEVELS.has(operation.access) && (statusCode !== 403 || detail !== 'email_not_verified')) {
        failures.push(`${nameOf(operation)} (${operation.access}) → ${statusCode} ${detail ?? ''}`);
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

  it('serves a Linux user the portal’s routes and refuses every other route with 403', async () => {
    const before = await ownerSnapshot(ctx, owner);
    // One token for the walk: no route it may call changes the password (the walk sends a wrong one).
    const token = await linuxUserSignIn(ctx, owner.serviceId);
    const failures: string[] = [];
    let served = 0;
    for (const operation of operationsOf(ctx)) {
      const name = nameOf(operation);
      if (NOT_WALKED[name] || operation.access === 'public' || operation.access === 'node') continue;
      const result = await call(operation, { authorization: `Bearer ${token}` });
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      const { statusCode } = result.response;
      const detail = detailOf(result.response);
      if (operation.access === 'linux-user') {
        served += 1;
        if (statusCode >= 500 || statusCode === 401 || statusCode === 403) {
          failures.push(`${name} (linux-user) → ${statusCode} ${detail ?? ''}`);
        }
      } else if (statusCode !== 403 || detail !== 'linux_user_not_allowed') {
        failures.push(
          `${name} (${operation.access}) → ${statusCode} ${detail ?? ''}, not linux_user_not_allowed`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(served).toBe(5);
    // And the owner's token is refused on the portal's routes.
    const portal = await send(ctx, { method: 'GET', url: '/api/v1/api/linux-user/me', auth: owner.auth });
    expect([portal.statusCode, detailOf(portal)]).toEqual([403, 'linux_user_token_required']);
    const after = await ownerSnapshot(ctx, owner);
    for (const [url, value] of Object.entries(before)) {
      if (!url.includes('/activity/')) expect(after[url], url).toEqual(value);
    }
  }, 60_000);

  // Last: a subuser may change the owner's backups (that is its job), which the walks above compare.
  it('serves a subuser its own service’s backup routes and its own session’s, and refuses every other route with 403', async () => {
    const before = await ownerSnapshot(ctx, owner);
    let token = await subuserSignIn(ctx, owner.serviceId);
    const failures: string[] = [];
    let served = 0;
    for (const operation of operationsOf(ctx)) {
      const name = nameOf(operation);
      if (NOT_WALKED[name] || operation.access === 'public' || operation.access === 'node') continue;
      const result = await call(operation, { authorization: `Bearer ${token}` });
      // Signing out (walked here) ends the session it is sent with: the walk goes on with another.
      if (name === 'POST /api/v1/subusers/auth/logout') token = await subuserSignIn(ctx, owner.serviceId);
      if (typeof result === 'string') {
        failures.push(result);
        continue;
      }
      const { statusCode } = result.response;
      const detail = detailOf(result.response);
      if (operation.access === 'backups' || operation.access === 'subuser') {
        served += 1;
        if (statusCode >= 500 || statusCode === 401 || statusCode === 403) {
          failures.push(`${name} (${operation.access}) → ${statusCode} ${detail ?? ''}`);
        }
      } else if (statusCode !== 403 || detail !== 'subuser_not_allowed') {
        failures.push(
          `${name} (${operation.access}) → ${statusCode} ${detail ?? ''}, not subuser_not_allowed`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(15);
    // Nothing outside the backups changed (a backup change is a new generation of the service's
    // desired state, so every status shows the new generation; the log and the sessions show the walk).
    const after = await ownerSnapshot(ctx, owner);
    const moved = ['/subusers/', '/activity/', '/status'];
    for (const [url, value] of Object.entries(before)) {
      if (!moved.some((part) => url.includes(part))) expect(after[url], url).toEqual(value);
    }
  }, 60_000);

  it('refuses a subuser of another service on every backup route of this one', async () => {
    const other = await signedInUser(ctx);
    const { service_id: otherService } = await buyService(ctx, other.auth, {
      product_id: 'mini',
      disk_space: 50,
      users_count: 5,
      period_id: '12m',
    });
    const made = await send(ctx, {
      method: 'POST',
      url: `/api/v1/subusers/${otherService}`,
      auth: other.auth,
      payload: { username: SUBUSER.username, password: SUBUSER.password, password_confirm: SUBUSER.password },
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = await subuserSignIn(ctx, otherService);
    const failures: string[] = [];
    for (const operation of operationsOf(ctx).filter((op) => op.access === 'backups')) {
      const result = await call(operation, { authorization: `Bearer ${token}` });
      if (typeof result === 'string') failures.push(result);
      else if (result.response.statusCode !== 403 || detailOf(result.response) !== 'subuser_not_allowed') {
        failures.push(`${nameOf(operation)} → ${result.response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
