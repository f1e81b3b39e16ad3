// /api/v1/dashboard (spec accounts-ordering-billing §7 "Other"): the signed-in owner's summary.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummarySchema } from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { DashboardService } from './dashboard.service.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<{
  dashboard: DashboardService;
}> = async (app, { dashboard }) => {
  app.get(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['dashboard'],
        summary:
          'The account at a glance: services by status, expiring soon, unpaid orders, credit, latest activity',
        security: [{ bearer: [] }],
        response: { 200: dashboardSummarySchema },
      },
    },
    async (request) => dashboard.summary(currentUserId(request)),
  );
};
