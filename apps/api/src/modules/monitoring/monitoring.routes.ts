// The monitoring routes (contract monitoring.ts), under /api/v1/monitoring, for the verified owner.
import {
  activityQuerySchema,
  activityResponseSchema,
  alertsQuerySchema,
  alertsResponseSchema,
  monitoringServiceParamsSchema,
  monitoringStatusResponseSchema,
  monitoringUserParamsSchema,
  quotaQuerySchema,
  serviceQuotaResponseSchema,
  tasksQuerySchema,
  tasksResponseSchema,
  webhookRequestSchema,
  webhookResponseSchema,
  userQuotaResponseSchema,
} from '@debesis/contract';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUserId } from '../../http/caller.ts';
import { ownerRoutes } from '../../http/owner-route.ts';
import type { MonitoringService } from './monitoring.service.ts';
import type { Webhooks } from './webhooks.ts';

const tags = ['monitoring'];
const route = ownerRoutes(tags);

export const monitoringRoutes: FastifyPluginAsyncZod<{
  monitoring: MonitoringService;
  webhooks: Webhooks;
}> = async (app, { monitoring, webhooks }) => {
  app.get(
    '/services/:id/activity',
    route({
      summary: "What the service's daemons recorded: charted by bucket, ranked by user, listed newest first",
      params: monitoringServiceParamsSchema,
      querystring: activityQuerySchema,
      response: { 200: activityResponseSchema },
    }),
    async (request) => monitoring.serviceActivity(currentUserId(request), request.params.id, request.query),
  );

  app.get(
    '/users/:userId/activity',
    route({
      summary: 'The same for one workspace user',
      params: monitoringUserParamsSchema,
      querystring: activityQuerySchema,
      response: { 200: activityResponseSchema },
    }),
    async (request) => monitoring.userActivity(currentUserId(request), request.params.userId, request.query),
  );

  app.get(
    '/services/:id/quota',
    route({
      summary: 'Size, used, free and files, the trend over the window and who owns what',
      params: monitoringServiceParamsSchema,
      querystring: quotaQuerySchema,
      response: { 200: serviceQuotaResponseSchema },
    }),
    async (request) =>
      monitoring.serviceQuota(currentUserId(request), request.params.id, request.query.hours),
  );

  app.get(
    '/users/:userId/quota',
    route({
      summary: 'Bytes and files one workspace user owns',
      params: monitoringUserParamsSchema,
      response: { 200: userQuotaResponseSchema },
    }),
    async (request) => monitoring.userQuota(currentUserId(request), request.params.userId),
  );

  app.get(
    '/tasks',
    route({
      summary: "Provisioning, config applies, backups and restores of the owner's services",
      querystring: tasksQuerySchema,
      response: { 200: tasksResponseSchema },
    }),
    async (request) => ({ tasks: await monitoring.tasks(currentUserId(request), request.query) }),
  );

  app.get(
    '/alerts',
    route({
      summary: 'Alerts raised in the window and every one still active',
      querystring: alertsQuerySchema,
      response: { 200: alertsResponseSchema },
    }),
    async (request) => ({ alerts: await monitoring.alerts(currentUserId(request), request.query) }),
  );

  app.get(
    '/services/:id/status',
    route({
      summary: 'Each daemon up or down with its uptime, the last apply, the node',
      params: monitoringServiceParamsSchema,
      response: { 200: monitoringStatusResponseSchema },
    }),
    async (request) => monitoring.status(currentUserId(request), request.params.id),
  );

  // Beyond the spec: where the account's alerts are posted.
  app.get(
    '/webhook',
    route({
      summary: 'The URL alerts are posted to (none: null) and how the last post went',
      response: { 200: webhookResponseSchema },
    }),
    async (request) => webhooks.get(currentUserId(request)),
  );

  app.put(
    '/webhook',
    route({
      summary: 'Sets the URL alerts are posted to; answers the signing key, this once',
      body: webhookRequestSchema,
      response: { 200: webhookResponseSchema },
    }),
    async (request) => webhooks.set(currentUserId(request), request.body.url),
  );

  app.delete(
    '/webhook',
    route({ summary: 'Stops posting alerts', response: { 204: z.null() } }),
    async (request, reply) => {
      await webhooks.remove(currentUserId(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook/test',
    route({
      summary: 'Posts a test event now; answers how it went',
      response: { 200: webhookResponseSchema },
    }),
    async (request) => webhooks.test(currentUserId(request)),
  );
};
