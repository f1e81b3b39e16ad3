// /api/v1/activity (spec service-management §7 Activity): the signed-in owner's log, whole,
// filtered, or for one of their services. Thin handlers: guard, contract schemas, the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityAuditParamsSchema,
  activityFilterQuerySchema,
  activityListQuerySchema,
  activityPageSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { ActivityService } from './activity.service.ts';

const security = [{ bearer: [] }];
const tags = ['activity'];

export const activityRoutes: FastifyPluginAsyncZod<{
  activity: ActivityService;
}> = async (app, { activity }) => {
  app.get(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The account’s activity, newest first (skip 0, limit 50 by default)',
        security,
        querystring: activityListQuerySchema,
        response: { 200: activityPageSchema },
      },
    },
    async (request) => activity.list(currentUserId(request), request.query),
  );

  app.get(
    '/filtered',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          'The account’s activity narrowed by action, tone, service, kind (management or login) and dates; blank filters are ignored',
        security,
        querystring: activityFilterQuerySchema,
        response: { 200: activityPageSchema },
      },
    },
    async (request) => activity.filtered(currentUserId(request), request.query),
  );

  app.get(
    '/audit/:serviceId',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The activity of one of the account’s services, newest first',
        security,
        params: activityAuditParamsSchema,
        querystring: activityListQuerySchema,
        response: { 200: activityPageSchema },
      },
    },
    async (request) => activity.audit(currentUserId(request), request.params.serviceId, request.query),
  );
};
