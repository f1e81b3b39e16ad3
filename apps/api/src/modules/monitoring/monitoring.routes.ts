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
import { ownerRouter } from '../../http/owner-route.ts';
import type { MonitoringService } from './monitoring.service.ts';
import type { Webhooks } from './webhooks.ts';

const tags = ['monitoring'];

export const monitoringRoutes: FastifyPluginAsyncZod<{
  monitoring: MonitoringService;
  webhooks: Webhooks;
}> = async (app, { monitoring, webhooks }) => {
  const owner = ownerRouter(app, tags);
  owner.get(
    '/services/:id/activity',
    {
      summary: "What the service's daemons recorded: charted by bucket, ranked by user, listed newest first",
      params: monitoringServiceParamsSchema,
      querystring: activityQuerySchema,
      response: { 200: activityResponseSchema },
    },
    async (request, { accountId }) => monitoring.serviceActivity(accountId, request.params.id, request.query),
  );

  owner.get(
    '/users/:userId/activity',
    {
      summary: 'The same for one workspace user',
      params: monitoringUserParamsSchema,
      querystring: activityQuerySchema,
      response: { 200: activityResponseSchema },
    },
    async (request, { accountId }) =>
      monitoring.userActivity(accountId, request.params.userId, request.query),
  );

  owner.get(
    '/services/:id/quota',
    {
      summary: 'Size, used, free and files, the trend over the window and who owns what',
      params: monitoringServiceParamsSchema,
      querystring: quotaQuerySchema,
      response: { 200: serviceQuotaResponseSchema },
    },
    async (request, { accountId }) =>
      monitoring.serviceQuota(accountId, request.params.id, request.query.hours),
  );

  owner.get(
    '/users/:userId/quota',
    {
      summary: 'Bytes and files one workspace user owns',
      params: monitoringUserParamsSchema,
      response: { 200: userQuotaResponseSchema },
    },
    async (request, { accountId }) => monitoring.userQuota(accountId, request.params.userId),
  );

  owner.get(
    '/tasks',
    {
      summary: "Provisioning, config applies, backups and restores of the owner's services",
      querystring: tasksQuerySchema,
      response: { 200: tasksResponseSchema },
    },
    async (request, { accountId }) => ({ tasks: await monitoring.tasks(accountId, request.query) }),
  );

  owner.get(
    '/alerts',
    {
      summary: 'Alerts raised in the window and every one still active',
      querystring: alertsQuerySchema,
      response: { 200: alertsResponseSchema },
    },
    async (request, { accountId }) => ({ alerts: await monitoring.alerts(accountId, request.query) }),
  );

  owner.get(
    '/services/:id/status',
    {
      summary: 'Each daemon up or down with its uptime, the last apply, the node',
      params: monitoringServiceParamsSchema,
      response: { 200: monitoringStatusResponseSchema },
    },
    async (request, { accountId }) => monitoring.status(accountId, request.params.id),
  );

  // Beyond the spec: where the account's alerts are posted.
  owner.get(
    '/webhook',
    {
      summary: 'The URL alerts are posted to (none: null) and how the last post went',
      response: { 200: webhookResponseSchema },
    },
    async (_request, { accountId }) => webhooks.get(accountId),
  );

  owner.put(
    '/webhook',
    {
      summary: 'Sets the URL alerts are posted to; answers the signing key, this once',
      body: webhookRequestSchema,
      response: { 200: webhookResponseSchema },
    },
    async (request, { accountId }) => webhooks.set(accountId, request.body.url),
  );

  owner.delete(
    '/webhook',
    { summary: 'Stops posting alerts', response: { 204: z.null() } },
    async (_request, { accountId }) => webhooks.remove(accountId),
  );

  owner.post(
    '/webhook/test',
    {
      summary: 'Posts a test event now; answers how it went',
      response: { 200: webhookResponseSchema },
    },
    async (_request, { accountId }) => webhooks.test(accountId),
  );
};
