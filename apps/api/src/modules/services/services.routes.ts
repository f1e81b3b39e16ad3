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
import { keptAnswerSerializer } from '../../http/contract-serializer.ts';
import type { ServicesService } from './services.service.ts';

const security = [{ bearer: [] }];
const tags = ['services'];

export const servicesRoutes: FastifyPluginAsyncZod<{
  services: ServicesService;
}> = async (app, { services }) => {
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

  app.get(
    '/status',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The status of every service of the account',
        security,
        response: { 200: servicesStatusSchema },
      },
    },
    async (request) => services.statuses(currentUserId(request)),
  );

  app.get(
    '/:id/status',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Status, generation applied by the node, drivers live or not and why, last error',
        security,
        params: serviceIdParamsSchema,
        response: { 200: serviceStatusSchema },
      },
    },
    async (request) => services.status(currentUserId(request), request.params.id),
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

  app.post(
    '/:id/retry-payment',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Open a payment session for the service’s failed or unpaid order',
        security,
        params: serviceIdParamsSchema,
        response: { 200: paymentSessionResponseSchema },
      },
    },
    async (request) => services.retryPayment(currentUserId(request), request.params.id),
  );

  app.get(
    '/:id/logs',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The newest lines of the service’s log: management actions and its node’s outcomes',
        security,
        params: serviceIdParamsSchema,
        querystring: serviceLogsQuerySchema,
        response: { 200: serviceLogsSchema },
      },
    },
    async (request) => services.logs(currentUserId(request), request.params.id, request.query.lines),
  );

  app.post(
    '/:id/action',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Run an action: start, stop, restart, retry-payment, extend, cancel or terminate',
        security,
        params: serviceIdParamsSchema,
        body: serviceActionRequestSchema,
        response: { 200: serviceActionResponseSchema },
      },
    },
    async (request) =>
      services.action(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  app.get(
    '/:id/stats',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Usage against the plan, as the node last measured it',
        security,
        params: serviceIdParamsSchema,
        response: { 200: serviceStatsSchema },
      },
    },
    async (request) => services.stats(currentUserId(request), request.params.id),
  );

  app.get(
    '/:id/config',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The service’s settings',
        security,
        params: serviceIdParamsSchema,
        response: { 200: serviceConfigSchema },
      },
    },
    async (request) => services.config(currentUserId(request), request.params.id),
  );

  app.put(
    '/:id/config',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Change the service’s settings',
        security,
        params: serviceIdParamsSchema,
        body: serviceConfigUpdateSchema,
        response: { 200: serviceConfigSchema },
      },
    },
    async (request) =>
      services.configure(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  // PATCH /services/{id}: any of the service's settings, `{ "auto_renew": false }` among them.
  app.patch(
    '/:id',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Change the service’s settings (automatic renewal, reminders, name)',
        security,
        params: serviceIdParamsSchema,
        body: serviceConfigUpdateSchema,
        response: { 200: serviceConfigSchema },
      },
    },
    async (request) =>
      services.configure(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );

  app.put(
    '/:id',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Rename or describe the service',
        security,
        params: serviceIdParamsSchema,
        body: serviceUpdateSchema,
        response: { 200: serviceOverviewItemSchema },
      },
    },
    async (request) =>
      services.update(currentUserId(request), request.params.id, request.body, meta(request.ip)),
  );
};
