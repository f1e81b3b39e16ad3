// POST /api/v1/auth/check-pending-plan: after sign-in, the plan a visitor chose as a guest
// becomes an order (or the one already waiting for it), and the app goes to its payment page.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingPlanRequestSchema, pendingPlanResponseSchema } from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { OrdersService } from './orders.service.ts';

export const pendingPlanRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (
  app,
  { orders },
) => {
  app.post(
    '/check-pending-plan',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Turn the plan chosen before sign-in into an order awaiting payment',
        security: [{ bearer: [] }],
        body: pendingPlanRequestSchema,
        response: { 200: pendingPlanResponseSchema },
      },
    },
    // The account's evidence and company details decide VAT (vat-situation.ts); company_data from
    // the browser is accepted for the spec's payload but never overrides what the account holds.
    async (request) => {
      const { currency: _currency, company_data: _companyData, ...plan } = request.body;
      return orders.fromPendingPlan(currentUserId(request), plan, { ip: request.ip });
    },
  );
};
