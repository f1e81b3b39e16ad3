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
import type { MonitoringService } from './monitoring.service.ts';
import type { Webhooks } from './webhooks.ts';

const security = [{ bearer: [] }];
const tags = ['monitoring'];

export const monitoringRoutes: FastifyPluginAsyncZod<{
  monitoring: MonitoringService;
  webhooks: Webhooks;
}> = async (app, { monitoring, webhooks }) => {
  app.get(
    '/services/:id/activity',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          "What the service's daemons recorded: charted by bucket, ranked by user, listed newest first",
        security,
        params: monitoringServiceParamsSchema,
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema },
      },
    },
    async (request) => monitoring.serviceActivity(currentUserId(request), request.params.id, request.query),
  );

  app.get(
    '/users/:userId/activity',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The same for one workspace user',
        security,
        params: monitoringUserParamsSchema,
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema },
      },
    },
    async (request) => monitoring.userActivity(currentUserId(request), request.params.userId, request.query),
  );

  app.get(
    '/services/:id/quota',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Size, used, free and files, the trend over the window and who owns what',
        security,
        params: monitoringServiceParamsSchema,
        querystring: quotaQuerySchema,
        response: { 200: serviceQuotaResponseSchema },
      },
    },
    async (request) =>
      monitoring.serviceQuota(currentUserId(request), request.params.id, request.query.hours),
  );

  app.get(
    '/users/:userId/quota',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Bytes and files one workspace user owns',
        security,
        params: monitoringUserParamsSchema,
        response: { 200: userQuotaResponseSchema },
      },
    },
    async (request) => monitoring.userQuota(currentUserId(request), request.params.userId),
  );

  app.get(
    '/tasks',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: "Provisioning, config applies, backups and restores of the owner's services",
        security,
        querystring: tasksQuerySchema,
        response: { 200: tasksResponseSchema },
      },
    },
    async (request) => ({ tasks: await monitoring.tasks(currentUserId(request), request.query) }),
  );

  app.get(
    '/alerts',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Alerts raised in the window and every one still active',
        security,
        querystring: alertsQuerySchema,
        response: { 200: alertsResponseSchema },
      },
    },
    async (request) => ({ alerts: await monitoring.alerts(currentUserId(request), request.query) }),
  );

  app.get(
    '/services/:id/status',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Each daemon up or down with its uptime, the last apply, the node',
        security,
        params: monitoringServiceParamsSchema,
        response: { 200: monitoringStatusResponseSchema },
      },
    },
    async (request) => monitoring.status(currentUserId(request), request.params.id),
  );

  // Beyond the spec: where the account's alerts are posted.
  app.get(
    '/webhook',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The URL alerts are posted to (none: null) and how the last post went',
        security,
        response: { 200: webhookResponseSchema },
      },
    },
    async (request) => webhooks.get(currentUserId(request)),
  );

  app.put(
    '/webhook',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Sets the URL alerts are posted to; answers the signing key, this once',
        security,
        body: webhookRequestSchema,
        response: { 200: webhookResponseSchema },
      },
    },
    async (request) => webhooks.set(currentUserId(request), request.body.url),
  );

  app.delete(
    '/webhook',
    {
      config: { access: 'verified' },
      schema: { tags, summary: 'Stops posting alerts', security, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await webhooks.remove(currentUserId(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhook/test',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Posts a test event now; answers how it went',
        security,
        response: { 200: webhookResponseSchema },
      },
    },
    async (request) => webhooks.test(currentUserId(request)),
  );
};
