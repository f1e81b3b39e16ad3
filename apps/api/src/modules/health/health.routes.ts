import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csrfResponseSchema, healthResponseSchema } from '@debesis/contract';
import type { HealthService } from './health.service.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Database, job queue and storage nodes; 503 when the database is down',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const report = await health.check();
      return reply.status(report.status === 'down' ? 503 : 200).send(report);
    },
  );

  app.get(
    '/csrf',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Issue the csrf_token cookie (and return its value) for the double-submit check',
        response: { 200: csrfResponseSchema },
      },
    },
    async (_request, reply) => ({ csrf_token: reply.ensureCsrfToken() }),
  );
};
