// Who may call each route, declared once in its options (`config: { access: 'verified' }`) and
// enforced here, so no route calls a guard by hand. Every route the app registers is recorded
// with its level; a route without one stops the app at startup (`app.ready()` rejects, naming
// it), and the security suite's route walk (route-walk.security.test.ts) reads the same record,
// so a new route is walked without editing the test. Whose resource an id names is not a level:
// another account's ids answer 404 from the services, as before.
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';

/**
 * - `public`: anyone (the route may still read a session it is given, as price quotes do);
 * - `signed-in`: a session, even before the email is verified (profile, settings, sign-out);
 * - `verified`: a session whose email is verified (everything an owner does with what they own);
 * - `node`: a storage node's agent with its node token;
 * - `backups`: a verified owner, or a subuser of the service the route's `:serviceId` names (the
 *   spec's subusers work with backups only);
 * - `subuser`: a subuser's session (its own identity and sign-out);
 * - `linux-user`: a workspace user's portal token (the Linux-user portal).
 * Which kind of token may call which level is caller.ts's one table (accessGuards).
 */
export const ACCESS_LEVELS = [
  'public',
  'signed-in',
  'verified',
  'node',
  'backups',
  'subuser',
  'linux-user',
] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route; every route declares one (see http/access.ts). */
    access?: AccessLevel;
    /**
     * The route shows the signed-in account (`request.auth.account`): the session's query reads
     * it along, one query instead of two. Other routes read only whether the session stands.
     */
    readsAccount?: boolean;
    /**
     * A `signed-in` or `verified` route whose one statement reads the caller's session along with
     * its answer (auth.queries.ts createSessionBoundReads): one round trip instead of two. Its
     * guard checks only the token (`request.claims`); the handler admits the session it read with
     * admitSessionRead (caller.ts) before it uses anything. A success answered without admitting
     * is refused here with a 500, so forgetting to admit can never serve a revoked session.
     */
    sessionReadByRoute?: boolean;
  }
}

/** Admits the request for its level or throws the refusal (401, `email_not_verified`, …). */
export type AccessGuards = Record<Exclude<AccessLevel, 'public'>, (request: FastifyRequest) => Promise<void>>;

export interface RouteAccess {
  method: string;
  /** The full URL pattern, e.g. `/api/v1/orders/:id`. */
  url: string;
  /** undefined only for a route that declares none (the app then refuses to start). */
  access: AccessLevel | undefined;
}

const tables = new WeakMap<FastifyInstance, RouteAccess[]>();

/** Every route of the app with its level, once the app is ready (HEAD left out: it is its GET). */
export function routeAccessOf(app: FastifyInstance): readonly RouteAccess[] {
  const table = tables.get(app);
  if (!table) throw new Error('routeAccessOf: the app has no accessPlugin');
  return table;
}

/**
 * Declares `level` for the routes a third-party plugin registers (they take no route config),
 * e.g. the OpenAPI viewer's pages and the web app's files; routes that declare a level keep it.
 */
export async function registerWithAccess(
  app: FastifyInstance,
  level: AccessLevel,
  register: () => PromiseLike<unknown>,
): Promise<void> {
  let registering = true;
  app.addHook('onRoute', (route) => {
    if (!registering) return;
    route.config = { ...route.config, access: route.config?.access ?? level };
  });
  try {
    await register();
  } finally {
    registering = false;
  }
}

const toArray = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/**
 * Registers first, before any route. `guards` is read when a request comes, so the composition
 * root can build the services it needs after the plugins.
 */
export const accessPlugin = fp(async (app: FastifyInstance, options: { guards: () => AccessGuards }) => {
  const table: RouteAccess[] = [];
  const routes: Array<{ entry: RouteAccess; route: RouteOptions; prefixOwn: boolean }> = [];
  tables.set(app, table);
  app.decorateRequest('auth', null);
  app.decorateRequest('node', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('subuser', null);
  app.decorateRequest('linuxUser', null);

  // One hook for every route. It reads the level fastify settled for the route, so a level set by
  // a later onRoute hook (registerWithAccess) counts; it runs on request, so a caller who may not
  // call the route is refused before its body is read.
  const guard: onRequestAsyncHookHandler = async (request) => {
    const level = request.routeOptions.config.access;
    if (level === 'public') return;
    // A route without a level never serves (the app refuses to start); refuse anyway.
    if (!level)
      throw new Error(`${request.method} ${request.routeOptions.url ?? ''} declares no access level`);
    await options.guards()[level](request);
  };

  const refuseUnadmitted: onSendAsyncHookHandler = async (request, reply, payload) => {
    if (request.auth === null && reply.statusCode < 400) {
      throw new Error(
        `${request.method} ${request.routeOptions.url ?? ''} answered without admitting its session`,
      );
    }
    return payload;
  };

  app.addHook('onRoute', (route) => {
    const hooks = toArray(route.onRequest);
    if (!hooks.includes(guard)) route.onRequest = [guard, ...hooks];
    if (route.config?.sessionReadByRoute) {
      route.onSend = [...toArray(route.onSend), refuseUnadmitted] as typeof route.onSend;
    }
    // HEAD answers as its GET does (fastify adds the twin with the same options).
    for (const method of toArray(route.method).filter((name) => name !== 'HEAD')) {
      const prefixOwn = route.routePath === '' && route.prefix !== '';
      routes.push({ entry: { method, url: route.url, access: undefined }, route, prefixOwn });
    }
  });

  app.addHook('onReady', async () => {
    table.length = 0;
    const undeclared: string[] = [];
    for (const { entry, route, prefixOwn } of routes) {
      const level = route.config?.access;
      if (!level || !(ACCESS_LEVELS as readonly string[]).includes(level)) {
        undeclared.push(`${entry.method} ${entry.url}`);
      }
      table.push({ ...entry, access: level });
      // A prefix's own route ('/' in a plugin with a prefix) answers with and without the
      // trailing slash; fastify tells onRoute of the first only, with the same options for both.
      const twin = `${entry.url}/`;
      if (prefixOwn && app.hasRoute({ method: entry.method, url: twin })) {
        table.push({ ...entry, url: twin, access: level });
      }
    }
    if (undeclared.length > 0) {
      throw new Error(
        `routes without an access level (add config: { access: ${ACCESS_LEVELS.map((l) => `'${l}'`).join(' | ')} } to their options): ${undeclared.join(', ')}`,
      );
    }
  });
});
