// /api/v1/plan-changes: quote and make a change of a service's plan (routes are ours; the spec
// names the pages and the rules, see packages/contract/src/plan-changes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  planChangeIdParamsSchema,
  planChangeQuoteRequestSchema,
  planChangeQuoteSchema,
  planChangeRequestSchema,
  planChangeSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { PlanChangesService } from './plan-changes.service.ts';

const security = [{ bearer: [] }];

export const planChangesRoutes: FastifyPluginAsyncZod<{
  planChanges: PlanChangesService;
}> = async (app, { planChanges }) => {
  app.post(
    '/quote',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['plan changes'],
        summary: 'What changing a service to another plan or resources costs now; nothing is stored',
        security,
        body: planChangeQuoteRequestSchema,
        response: { 200: planChangeQuoteSchema },
      },
    },
    async (request) => planChanges.quote(currentUserId(request), request.body, { ip: request.ip }),
  );

  app.post(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['plan changes'],
        summary:
          'Change a service’s plan: an upgrade waits for payment of its order, a confirmed downgrade applies now and adds credit',
        security,
        body: planChangeRequestSchema,
        response: { 201: planChangeSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await planChanges.create(currentUserId(request), request.body, { ip: request.ip })),
  );

  app.get(
    '/:id',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['plan changes'],
        security,
        params: planChangeIdParamsSchema,
        response: { 200: planChangeSchema },
      },
    },
    async (request) => planChanges.get(currentUserId(request), request.params.id),
  );
};
