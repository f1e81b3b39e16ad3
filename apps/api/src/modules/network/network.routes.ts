// /api/v1/network/{serviceId}: who can reach the workspace and its bandwidth this month (contract
// network.ts). The verified owner only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceNetworkSchema, workspaceServiceParamsSchema } from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { NetworkService } from './network.service.ts';

export const networkRoutes: FastifyPluginAsyncZod<{ network: NetworkService }> = async (app, { network }) => {
  app.get(
    '/:serviceId',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['network'],
        summary: "Who can reach the workspace's address, and its bandwidth used this month of the period",
        security: [{ bearer: [] }],
        params: workspaceServiceParamsSchema,
        response: { 200: serviceNetworkSchema },
      },
    },
    async (request) => network.view(currentUserId(request), request.params.serviceId),
  );
};
