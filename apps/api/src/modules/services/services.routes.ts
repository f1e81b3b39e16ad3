// /api/v1/services (spec service-management §7 "Services"): the owner's workspaces. Thin
// handlers: guard, contract schemas, the services service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  paymentSessionResponseSchema,
  serviceActionRequestSchema,
  serviceActionResponseSchema,
  serviceConfigSchema,
  serviceConfigUpdateSchema,
  serviceIdParamsSchema,
  serviceLogsQuerySchema,
  serviceLogsSchema,
  serviceOverviewItemSchema,
  servicesOverviewSchema,
  servicesStatusSchema,
  serviceStatsSchema,
  serviceStatusSchema,
  serviceUpdateSchema,
} from '@debesis/contract';
import { admitSessionRead, currentUserId } from '../../http/caller.ts';
import { ownerRouter, ownerRoutes } from '../../http/owner-route.ts';
import { keptAnswerSerializer } from '../../http/contract-serializer.ts';
import type { ServicesService } from './services.service.ts';

const security = [{ bearer: [] }];
const tags = ['services'];
const route = ownerRoutes(tags);

export const servicesRoutes: FastifyPluginAsyncZod<{
  services: ServicesService;
}> = async (app, { services }) => {
  const owner = ownerRouter(app, tags);
  const meta = (ip: string) => ({ ip: ip || null });

  app.get(
    '/overview',
    {
      // The dashboard's first call: its one statement checks the session too (access.ts).
      config: { access: 'verified', sessionReadByRoute: true },
      schema: {
        tags,
        summary: 'Every service of the account with the fields of the services list',
        security,
        response: { 200: servicesOverviewSchema },
      },
      // The dashboard's first call: written by the contract's compiled JSON Schema (see there),
      // once per answer the services service keeps.
      serializerCompiler: keptAnswerSerializer,
    },
    async (request) =>
      services.overviewForSession(
        { sessionId: request.claims?.sessionId ?? '', accountId: request.claims?.userId ?? '' },
        (session) => admitSessionRead(request, session),
      ),
  );

  owner.get(
    '/status',
    { summary: 'The status of every service of the account', response: { 200: servicesStatusSchema } },
    async (_request, { accountId }) => services.statuses(accountId),
  );

  owner.get(
    '/:id/status',
    {
      summary: 'Status, generation applied by the node, drivers live or not and why, last error',
      params: serviceIdParamsSchema,
      response: { 200: serviceStatusSchema },
    },
    async (request, { accountId }) => services.status(accountId, request.params.id),
  );

  for (const [path, run, summary] of [
    ['/:id/start', services.start, 'Serve the workspace again (desired state running)'],
    ['/:id/stop', services.stop, 'Stop serving the workspace; its data is kept (desired state stopped)'],
    ['/:id/restart', services.restart, 'Restart the workspace’s daemons on its node'],
  ] as const) {
    app.post(
      path,
      {
        config: { access: 'verified' },
        schema: {
          tags,
          summary,
          security,
          params: serviceIdParamsSchema,
          response: { 200: serviceStatusSchema },
        },
      },
      async (request) => run(currentUserId(request), request.params.id, meta(request.ip)),
    );
  }

  owner.post(
    '/:id/retry-payment',
    {
      summary: 'Open a payment session for the service’s failed or unpaid order',
      params: serviceIdParamsSchema,
      response: { 200: paymentSessionResponseSchema },
    },
    async (request, { accountId }) => services.retryPayment(accountId, request.params.id),
  );

  owner.get(
    '/:id/logs',
    {
      summary: 'The newest lines of the service’s log: management actions and its node’s outcomes',
      params: serviceIdParamsSchema,
      querystring: serviceLogsQuerySchema,
      response: { 200: serviceLogsSchema },
    },
    async (request, { accountId }) => services.logs(accountId, request.params.id, request.query.lines),
  );

  app.post(
    '/:id/action',
    route({
      summary: 'Run an action: start, stop, restart, retry-payment, extend, cancel or terminate',
      params: serviceIdParamsSchema,
      body: serviceActionRequestSchema,
      response: { 200: serviceActionResponseSchema },
    }),
    async (request) =>
      services.action(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  owner.get(
    '/:id/stats',
    {
      summary: 'Usage against the plan, as the node last measured it',
      params: serviceIdParamsSchema,
      response: { 200: serviceStatsSchema },
    },
    async (request, { accountId }) => services.stats(accountId, request.params.id),
  );

  owner.get(
    '/:id/config',
    {
      summary: 'The service’s settings',
      params: serviceIdParamsSchema,
      response: { 200: serviceConfigSchema },
    },
    async (request, { accountId }) => services.config(accountId, request.params.id),
  );

  app.put(
    '/:id/config',
    route({
      summary: 'Change the service’s settings',
      params: serviceIdParamsSchema,
      body: serviceConfigUpdateSchema,
      response: { 200: serviceConfigSchema },
    }),
    async (request) =>
      services.configure(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  // PATCH /services/{id}: any of the service's settings, `{ "auto_renew": false }` among them.
  app.patch(
    '/:id',
    route({
      summary: 'Change the service’s settings (automatic renewal, reminders, name)',
      params: serviceIdParamsSchema,
      body: serviceConfigUpdateSchema,
      response: { 200: serviceConfigSchema },
    }),
    async (request) =>
      services.configure(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  app.put(
    '/:id',
    route({
      summary: 'Rename or describe the service',
      params: serviceIdParamsSchema,
      body: serviceUpdateSchema,
      response: { 200: serviceOverviewItemSchema },
    }),
    async (request) =>
      services.update(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );
};
