// POST /api/v1/analytics/events: one event from a consenting visitor's browser.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsEventRequestSchema, analyticsEventResponseSchema } from '@debesis/contract';
import type { AnalyticsService } from './analytics.service.ts';

export const analyticsRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (
  app,
  { analytics },
) => {
  app.post(
    '/analytics/events',
    {
      config: { access: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Record one analytics event (sent only with consent to all cookies); limited per IP',
        body: analyticsEventRequestSchema,
        response: { 202: analyticsEventResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await analytics.record(request.body, { ip: request.ip || null })),
  );
};
