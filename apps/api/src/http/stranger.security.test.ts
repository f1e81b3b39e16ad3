// Walks every route of the OpenAPI document as a stranger (a second verified account) with the
// real ids of a first account's resources, and every change without the CSRF header as the owner.
// A route that names another account's resource answers 404, no answer carries the owner's data,
// and nothing the owner can read has changed afterwards. A new route whose path parameter the
// walk cannot fill fails here by name (see `fillPath`), so it is never skipped silently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.ts';
import { signedInUser } from '../test/factories.ts';
import {
  CHANGES,
  fillPath,
  nameOf,
  operationsOf,
  ownerSnapshot,
  ownerWithEverything,
  sampleBody,
  send,
  WORKSPACE,
  type OwnerResources,
} from '../test/security.ts';
import { isCsrfExempt } from './csrf-exempt.ts';

/** Routes the stranger walk leaves out, each with the reason. */
const NOT_WALKED: Record<string, string> = {
  'POST /api/v1/auth/logout': 'ends the caller’s own session, nobody else’s (robustness.test.ts walks it)',
  'GET /payments-sandbox/sessions/{id}':
    'the sandbox card page is a capability URL (the session id is the secret), as the provider’s own page is',
  'POST /payments-sandbox/sessions/{id}/pay': 'the sandbox card page (see above)',
  'GET /api/v1/payments/session/{id}/verify':
    'documented capability: "no sign-in: the session id is the key" (the page the provider returns to)',
  'GET /api/v1/payments/session/{id}/status': 'the same capability as …/verify',
};

/** Answers other than 404 that a route documents for a stranger holding the owner's ids. */
const DOCUMENTED_REFUSAL: Record<string, number> = {};

describe('every route as a stranger with another account’s ids', () => {
  let ctx: TestContext;
  let owner: OwnerResources;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await ownerWithEverything(ctx);
    stranger = await signedInUser(ctx);
  });
  afterAll(async () => {
    await ctx.close();
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
    ];
    const ownerData = [...ownerIds, owner.email, WORKSPACE.user, WORKSPACE.group, WORKSPACE.share];
    const before = await ownerSnapshot(ctx, owner);
    const failures: string[] = [];
    let walked = 0;
    for (const operation of operationsOf(ctx)) {
      const name = nameOf(operation);
      if (NOT_WALKED[name]) continue;
      const url = fillPath(operation.route, owner);
      if (!url) {
        failures.push(`${name}: a path parameter the walk cannot fill; give it the owner's id in fillPath`);
        continue;
      }
      const body = CHANGES.has(operation.method) ? (sampleBody(operation, owner) ?? {}) : undefined;
      const sent = `${url} ${JSON.stringify(body ?? {})}`;
      const namesOwnerResource = ownerIds.some((id) => sent.includes(id));
      const response = await send(ctx, { method: operation.method, url, auth: stranger.auth, payload: body });
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
