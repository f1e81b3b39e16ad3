// /api/v1/services: the owner's workspaces (the workspace issue adds the rest of spec §7).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { servicesOverviewSchema } from '@debesis/contract';
import type { AuthGuards } from '../auth/auth.guard.ts';
import { currentUserId } from '../auth/auth.guard.ts';
import type { ServicesService } from './services.service.ts';

export const servicesRoutes: FastifyPluginAsyncZod<{
  services: ServicesService;
  guards: AuthGuards;
}> = async (app, { services, guards }) => {
  app.get(
    '/overview',
    {
      preHandler: guards.requireUser,
      schema: {
        tags: ['services'],
        summary: 'Every service of the account with the fields of the services list',
        security: [{ bearer: [] }],
        response: { 200: servicesOverviewSchema },
      },
    },
    async (request) => services.overview(currentUserId(request)),
  );
};
