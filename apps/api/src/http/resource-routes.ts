// A workspace resource's routes as data. The service tabs' things (shares, exports, users,
// groups, schedules, backup clients, share links…) each have the same routes: list and create at
// `/:serviceId/<things>`, get, change and delete at `/:serviceId/<things>/:<id>`, and a few
// actions on one thing (`POST …/:<id>/<verb>`). Each module wrote every one of them out; now it
// declares its thing once (paths, schemas, summaries and the names of the service functions the
// routes call) and `resourceRoutes` registers them on the module's `ownerRouter`, with its access
// level and tags. A route that answers otherwise (headers, a status of its own) stays a route of
// its own beside it.
import { z } from 'zod';
import { workspaceServiceParamsSchema } from '@debesis/contract';
import type { FastifySchema } from 'fastify';
import type { OwnerCall, OwnerRouter } from './owner-route.ts';

type Meta = OwnerCall['meta'];

/** The names of the service's functions that can be called as `Call`. */
type CallOf<Service, Call> = {
  [Name in keyof Service]: Service[Name] extends Call ? Name : never;
}[keyof Service];

interface Summary {
  /** The OpenAPI summary. */
  summary: string;
}

/** One action on a thing: POST `…/:<id>/<verb>`, no body, answering the thing. */
type ResourceAction<Service, Item extends z.ZodType> = Summary & {
  call: CallOf<
    Service,
    (accountId: string, serviceId: string, id: string, meta: Meta) => Promise<z.output<Item>>
  >;
};

export interface Resource<
  Service,
  Item extends z.ZodType,
  List extends z.ZodType,
  Create extends z.ZodType,
  Created extends z.ZodType,
  Update extends z.ZodType,
  Id extends string,
> {
  /** `/:serviceId/<things>`. */
  path: string;
  /** The path parameter naming one thing: `<path>/:<id>`. */
  id: Id;
  /** The params of one thing's path: `serviceId` and `id`. */
  params: z.ZodType<Record<'serviceId' | Id, string>>;
  /** One thing, as get, update and the actions answer it (and create, unless it says otherwise). */
  item: Item;
  /**
   * The routes of one kind of thing; each is registered, and so listed in the OpenAPI document, in
   * the order it is declared here (`actions` too, where they stand).
   */
  routes: {
    /** GET `path`: every thing of the service. */
    list?: Summary & {
      response: List;
      call: CallOf<Service, (accountId: string, serviceId: string) => Promise<z.output<List>>>;
    };
    /** POST `path`: answers 201 with the thing made (`response`, when it is more than `item`). */
    create?: Summary & {
      body: Create;
      response?: Created;
      call: CallOf<
        Service,
        (
          accountId: string,
          serviceId: string,
          body: z.output<Create>,
          meta: Meta,
        ) => Promise<z.output<Created>>
      >;
    };
    /** GET `path/:id`. */
    get?: Summary & {
      call: CallOf<Service, (accountId: string, serviceId: string, id: string) => Promise<z.output<Item>>>;
    };
    /** PATCH `path/:id` (PUT with `method: 'put'`): the thing as changed. */
    update?: Summary & {
      method?: 'patch' | 'put';
      body: Update;
      call: CallOf<
        Service,
        (
          accountId: string,
          serviceId: string,
          id: string,
          body: z.output<Update>,
          meta: Meta,
        ) => Promise<z.output<Item>>
      >;
    };
    /** DELETE `path/:id`: 204. */
    delete?: Summary & {
      call: CallOf<
        Service,
        (accountId: string, serviceId: string, id: string, meta: Meta) => Promise<unknown>
      >;
    };
    /** POST `path/:id/<verb>` for each verb. */
    actions?: Record<string, ResourceAction<Service, Item>>;
  };
}

/** Registers `resource`'s routes on `owner`, each calling its function of `service`. */
export function resourceRoutes<
  Service,
  Item extends z.ZodType,
  List extends z.ZodType = z.ZodNever,
  Create extends z.ZodType = z.ZodNever,
  Created extends z.ZodType = Item,
  Update extends z.ZodType = z.ZodNever,
  Id extends string = string,
>(
  owner: OwnerRouter,
  service: Service,
  resource: Resource<Service, Item, List, Create, Created, Update, Id>,
): void {
  const { path, params, item, routes } = resource;
  const one = `${path}/:${resource.id}`;
  // The declaration checked each name against its function's parameters; here they are alike.
  const functions = service as Record<PropertyKey, (...args: unknown[]) => Promise<unknown>>;
  const call = (name: PropertyKey, ...args: unknown[]) => functions[name]!(...args);
  const serviceOf = (request: { params: unknown }) => (request.params as { serviceId: string }).serviceId;
  /** The service's id and the thing's, as the service functions take them. */
  const idsOf = (request: { params: unknown }) => {
    const ids = request.params as Record<'serviceId' | Id, string>;
    return [ids.serviceId, ids[resource.id]] as const;
  };
  const serviceParams = workspaceServiceParamsSchema;
  // Registered with Fastify's general schema type: the resource's declaration above has already
  // checked each schema against the service function its route calls.
  const add = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    url: string,
    schema: FastifySchema,
    handler: (request: { params: unknown; body: unknown }, caller: OwnerCall) => Promise<unknown>,
  ) => owner[method](url, schema, handler);

  const register: { [Key in keyof typeof routes]-?: () => void } = {
    list: () => {
      const route = routes.list!;
      add(
        'get',
        path,
        { summary: route.summary, params: serviceParams, response: { 200: route.response } },
        async (request, { accountId }) => call(route.call, accountId, serviceOf(request)),
      );
    },
    create: () => {
      const route = routes.create!;
      add(
        'post',
        path,
        {
          summary: route.summary,
          params: serviceParams,
          body: route.body,
          response: { 201: route.response ?? item },
        },
        async (request, { accountId, meta }) =>
          call(route.call, accountId, serviceOf(request), request.body, meta),
      );
    },
    get: () => {
      const route = routes.get!;
      add(
        'get',
        one,
        { summary: route.summary, params, response: { 200: item } },
        async (request, { accountId }) => call(route.call, accountId, ...idsOf(request)),
      );
    },
    update: () => {
      const route = routes.update!;
      add(
        route.method ?? 'patch',
        one,
        { summary: route.summary, params, body: route.body, response: { 200: item } },
        async (request, { accountId, meta }) =>
          call(route.call, accountId, ...idsOf(request), request.body, meta),
      );
    },
    delete: () => {
      const route = routes.delete!;
      add(
        'delete',
        one,
        { summary: route.summary, params, response: { 204: z.null() } },
        async (request, { accountId, meta }) => call(route.call, accountId, ...idsOf(request), meta),
      );
    },
    actions: () => {
      for (const [verb, route] of Object.entries(routes.actions ?? {})) {
        add(
          'post',
          `${one}/${verb}`,
          { summary: route.summary, params, response: { 200: item } },
          async (request, { accountId, meta }) => call(route.call, accountId, ...idsOf(request), meta),
        );
      }
    },
  };
  // In the declaration's order: the order of the OpenAPI document's paths.
  for (const key of Object.keys(routes) as (keyof typeof routes)[]) register[key]();
}
