// /api/v1/activity (spec service-management §7 Activity): the signed-in owner's log, whole,
// filtered, or for one of their services. Thin handlers: guard, contract schemas, the service.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityAuditParamsSchema,
  activityFilterQuerySchema,
  activityListQuerySchema,
  activityPageSchema,
} from '@debesis/contract';
import { ownerRouter } from '../../http/owner-route.ts';
import type { ActivityService } from './activity.service.ts';

const tags = ['activity'];

export const activityRoutes: FastifyPluginAsyncZod<{
  activity: ActivityService;
}> = async (app, { activity }) => {
  const owner = ownerRouter(app, tags);
  owner.get(
    '/',
    {
      summary: 'The account’s activity, newest first (skip 0, limit 50 by default)',
      querystring: activityListQuerySchema,
      response: { 200: activityPageSchema },
    },
    async (request, { accountId }) => activity.list(accountId, request.query),
  );

  owner.get(
    '/filtered',
    {
      summary:
        'The account’s activity narrowed by action, tone, service, kind (management or login) and dates; blank filters are ignored',
      querystring: activityFilterQuerySchema,
      response: { 200: activityPageSchema },
    },
    async (request, { accountId }) => activity.filtered(accountId, request.query),
  );

  owner.get(
    '/audit/:serviceId',
    {
      summary: 'The activity of one of the account’s services, newest first',
      params: activityAuditParamsSchema,
      querystring: activityListQuerySchema,
      response: { 200: activityPageSchema },
    },
    async (request, { accountId }) => activity.audit(accountId, request.params.serviceId, request.query),
  );
};
