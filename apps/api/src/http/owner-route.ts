// The options every route of a signed-in, verified owner repeats: its access level, the bearer
// security the OpenAPI document shows, and the module's tags. A routes file then says only what
// is particular to a route: its summary, params, body and responses. `ownerRouter` goes one step
// further for the routes of a workspace feature: it hands the handler the caller's account and
// the request facts a change records, and answers with the route's one success status (201 with
// what was made, 204 with nothing), so a handler says only which service function it calls.
// Backup routes take the owner's level `backups` instead (the owner, or a subuser of the
// service): the same routes otherwise.
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ResolveFastifyReplyType } from 'fastify/types/type-provider.js';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AccessLevel } from './access.ts';
import { currentUserId } from './caller.ts';

const BEARER = [{ bearer: [] }];

/** The levels whose caller acts for an owner's account (`currentUserId`). */
export type OwnerAccess = Extract<AccessLevel, 'verified' | 'backups'>;

/** `route({ summary, params, … })` gives the options of a route called with a bearer token. */
export function bearerRoutes(tags: string[], access: Exclude<AccessLevel, 'public'>) {
  return <const S extends FastifySchema>(schema: S) => ({
    config: { access },
    schema: { tags, security: BEARER, ...schema },
  });
}

/**
 * `route({ summary, body, … })` gives the options of a route anyone may call; `csrf: false` for
 * the calls that start a session (no browser session yet to forge one with).
 */
export function publicRoutes(tags: string[], options: { csrf?: false } = {}) {
  return <const S extends FastifySchema>(schema: S) => ({
    config: { access: 'public' as const, ...options },
    schema: { tags, ...schema },
  });
}

/** `route({ summary, params, … })` gives a route's options for the verified owner, under `tags`. */
export function ownerRoutes(tags: string[], access: OwnerAccess = 'verified') {
  return bearerRoutes(tags, access);
}

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** The request a route of schema `S` hands its handler, typed from the schema. */
export type SchemaRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  ZodTypeProvider
>;

/** What a handler of a route of schema `S` may answer: one of its responses; nothing for a 204. */
type SchemaAnswer<S extends FastifySchema> = ResolveFastifyReplyType<
  ZodTypeProvider,
  S,
  RouteGenericInterface
>;

/** The verified owner calling, and the request facts a change records in the activity log. */
export interface OwnerCall {
  accountId: string;
  meta: { ip: string };
}

type OwnerHandler<S extends FastifySchema> = (
  request: SchemaRequest<S>,
  owner: OwnerCall,
) => Promise<SchemaAnswer<S> | void>;

const SUCCESS = [200, 201, 202, 204] as const;

/** The one 2xx status a route's schema declares (200 when it declares none). */
function successStatus(schema: FastifySchema): number {
  const declared = Object.keys(schema.response ?? {}).map(Number);
  return SUCCESS.find((status) => declared.includes(status)) ?? 200;
}

/**
 * `owner.get(url, { summary, params, response }, (request, { accountId, meta }) => …)`, and
 * likewise post, put, patch and delete: a route of the verified owner under `tags`.
 */
export function ownerRouter(app: ZodApp, tags: string[], access: OwnerAccess = 'verified') {
  const route = ownerRoutes(tags, access);
  const register =
    (method: HTTPMethods) =>
    <const S extends FastifySchema>(url: string, schema: S, handler: OwnerHandler<S>): void => {
      const status = successStatus(schema);
      // The schema types the handler; fastify's own generics cannot follow a generic schema.
      const options: RouteOptions = {
        method,
        url,
        ...route(schema as FastifySchema),
        handler: async (request, reply) => {
          const answer = await handler(request as unknown as SchemaRequest<S>, {
            accountId: currentUserId(request),
            meta: { ip: request.ip },
          });
          return reply.status(status).send(status === 204 ? null : answer);
        },
      };
      (app as unknown as FastifyInstance).route(options);
    };
  return {
    get: register('GET'),
    post: register('POST'),
    put: register('PUT'),
    patch: register('PATCH'),
    delete: register('DELETE'),
  };
}

export type OwnerRouter = ReturnType<typeof ownerRouter>;
