// Helpers for the tests of the workspace features (users and groups, Samba): an owner with a
// paid service, calls made as the web app makes them, and direct looks at the service row.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  builtLater,
  createTestContext,
  injectWithCsrf,
  type TestContext,
  useTestContext,
} from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, type TestNode } from '../../test/services.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { activityEvents } from '../activity/activity.table.ts';
import { services } from '../services/services.table.ts';
import { activityInTransaction } from '../workspace/activity-in-transaction.ts';
import { createWorkspaceChanges } from '../workspace/workspace-change.ts';

/** MINI: 5 users. */
export const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
export const PASSWORD = 'sekret-pass-1';

export type Auth = Record<string, string>;

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A route of a table of routes: its method, its path below the feature's base and its body. */
export type Route = readonly [RouteMethod, string, object?];

export function workspaceCalls(ctx: TestContext) {
  const change =
    (method: Exclude<RouteMethod, 'GET'>) =>
    (auth: Auth, url: string, payload?: object): Promise<LightMyRequestResponse> =>
      injectWithCsrf(ctx.app, { method, url, headers: auth, ...(payload ? { payload } : {}) });
  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  return {
    get,
    post: change('POST'),
    put: change('PUT'),
    patch: change('PATCH'),
    del: change('DELETE'),
    /** Any method, for tables of routes. */
    send: (method: RouteMethod, auth: Auth, url: string, payload?: object) =>
      method === 'GET' ? get(auth, url) : change(method)(auth, url, payload),
  };
}

export type WorkspaceCalls = ReturnType<typeof workspaceCalls>;

type ContextOptions = NonNullable<Parameters<typeof createTestContext>[0]>;
/**
 * A node with room for every test's workspaces; its addresses default to capacity()'s. The
 * services a test places on it take the next address of `subnet` (`10.16.1`: 10.16.1.1, then .2…)
 * and a block of 10 000 ids above `idBase` each, as placement would give them.
 */
type NodeOptions = { name: string; addresses?: string[]; subnet?: string; idBase?: number };

/** Services placed on the test's node without placement itself (see NodeOptions). */
function placement(
  ctx: TestContext,
  node: TestNode,
  { subnet = '10.16.1', idBase = 7_000_000 }: NodeOptions,
) {
  let placed = 0;
  /** Puts the service on the node; answers its address. */
  const place = async (serviceId: string): Promise<string> => {
    placed += 1;
    const address = `${subnet}.${placed}`;
    await setService(ctx, serviceId, { nodeId: node.id, address, idBase: idBase + placed * 10_000 });
    return address;
  };
  return {
    place,
    /** A new owner with a paid service, placed on the node. */
    placedService: async () => {
      const owned = await ownerWithService(ctx);
      await place(owned.serviceId);
      return owned;
    },
  };
}

export type WorkspacePlacement = ReturnType<typeof placement>;

/** The test's node, with room for every test's workspaces. */
function registerTestNode(ctx: TestContext, node: NodeOptions): Promise<TestNode> {
  return registerNode(ctx, node.name, capacity(1000, node.addresses));
}

/**
 * useWorkspaceTestApp's app and node for a single test, to build in a beforeEach and close in its
 * afterEach.
 */
export async function workspaceTestApp({ node, ...options }: ContextOptions & { node: NodeOptions }) {
  const ctx = await createTestContext(options);
  await seedCatalogue(ctx);
  const registered = await registerTestNode(ctx, node);
  return { ctx, node: registered, ...placement(ctx, registered, node) };
}

/**
 * What a workspace feature's tests start from, for one describe block: the app with the catalogue
 * on sale, calls made as the web app makes them and, when asked, one registered node to place the
 * workspaces on, with `place` and `placedService` to put them there. It registers the block's
 * beforeAll (that builds all this) and afterAll (that closes the app); what it answers can be
 * taken in the block's body and is read when a test uses it.
 */
export function useWorkspaceTestApp(
  options: ContextOptions & { node: NodeOptions },
): { ctx: TestContext; call: WorkspaceCalls; node: TestNode } & WorkspacePlacement;
export function useWorkspaceTestApp(options?: ContextOptions): { ctx: TestContext; call: WorkspaceCalls };
export function useWorkspaceTestApp({ node, ...options }: ContextOptions & { node?: NodeOptions } = {}) {
  const registered = builtLater<TestNode>('the test node');
  const ctx = useTestContext(options, async (built) => {
    await seedCatalogue(built);
    if (node) registered.set(await registerTestNode(built, node));
  });
  const call = workspaceCalls(ctx);
  if (!node) return { ctx, call };
  const testNode: TestNode = {
    get id() {
      return registered.get().id;
    },
    get token() {
      return registered.get().token;
    },
    desired: () => registered.get().desired(),
    report: (workspaces, free) => registered.get().report(workspaces, free),
    applyAll: (free) => registered.get().applyAll(free),
  };
  return { ctx, call, node: testNode, ...placement(ctx, testNode, node) };
}

/**
 * Every route of an owner's service, as someone else sees it: not found for another owner (whose
 * session may not learn the service exists), refused without a session.
 */
export async function expectHiddenFromStranger(
  call: WorkspaceCalls,
  stranger: Auth,
  base: string,
  routes: readonly Route[],
): Promise<void> {
  for (const [method, path, body] of routes) {
    const response = await call.send(method, stranger, `${base}${path}`, body);
    expect(response.statusCode, `${method} ${path}`).toBe(404);
    expect(response.json()).toMatchObject({ detail: 'not_found' });
    const anonymous = await call.send(method, {}, `${base}${path}`, body);
    expect(anonymous.statusCode, `${method} ${path} without a session`).toBe(401);
  }
}

/**
 * The file the fake nodes stream, `ataskaita už lapkritį.txt` ("hello world"), as the browser
 * downloads it: an attachment named in ASCII and in UTF-8, never cached.
 */
export function expectNodeFileDownloaded(file: LightMyRequestResponse): void {
  expect(file.statusCode, file.body).toBe(200);
  expect(file.body).toBe('hello world');
  expect(file.headers).toMatchObject({
    'content-type': 'application/octet-stream',
    'content-length': '11',
    'cache-control': 'private, no-store',
    'content-disposition': `attachment; filename="ataskaita uz lapkriti.txt"; filename*=UTF-8''ataskaita%20u%C5%BE%20lapkrit%C4%AF.txt`,
  });
}

export async function ownerWithService(ctx: TestContext) {
  const owner = await signedInUser(ctx);
  const order = await buyService(ctx, owner.auth, MINI);
  // Whatever placement did, the service runs its paid time unplaced until a test says otherwise.
  await ctx.database.db
    .update(services)
    .set({ status: 'active', nodeId: null, address: null, idBase: null })
    .where(eq(services.id, order.service_id));
  return { owner, serviceId: order.service_id, auth: owner.auth };
}

export async function serviceRow(ctx: TestContext, serviceId: string) {
  const [row] = await ctx.database.db.select().from(services).where(eq(services.id, serviceId));
  if (!row) throw new Error(`no service ${serviceId}`);
  return row;
}

export async function setService(
  ctx: TestContext,
  serviceId: string,
  values: Partial<typeof services.$inferInsert>,
): Promise<void> {
  await ctx.database.db.update(services).set(values).where(eq(services.id, serviceId));
}

/** The node reports it has applied everything up to now. */
export async function nodeCaughtUp(ctx: TestContext, serviceId: string): Promise<void> {
  const row = await serviceRow(ctx, serviceId);
  await setService(ctx, serviceId, { observedGeneration: row.generation, failures: [] });
}

export async function activityOf(ctx: TestContext, serviceId: string) {
  return (
    await ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.serviceId, serviceId)))
      .orderBy(activityEvents.createdAt)
  ).map((event) => ({ action: event.action, tone: event.tone, details: event.details }));
}

/**
 * The change pipeline on the test's database as the app composes it (activity recorded in the
 * change's own transaction), for tests that build a feature's service themselves.
 */
export function workspaceChanges(
  ctx: TestContext,
  options: Omit<Parameters<typeof createWorkspaceChanges>[0], 'db' | 'recordActivity'> = {},
) {
  return createWorkspaceChanges({
    db: ctx.database.db,
    recordActivity: activityInTransaction(
      createActivityService({ queries: createActivityQueries(ctx.database.db) }),
    ),
    ...options,
  });
}
