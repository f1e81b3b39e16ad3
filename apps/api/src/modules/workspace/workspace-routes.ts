// Routes every workspace feature has alike: "send it to the node again" (reload, sync, restart),
// a change of no fields that answers 202 with the generation to watch. One builder, so each
// feature's routes file says only what it does and how it calls it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  workspaceApplyResponseSchema,
  workspaceServiceParamsSchema,
  type WorkspaceApplyResponse,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { ownerRoutes } from '../../http/owner-route.ts';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export interface ServiceApplyRoute {
  /** The path's last segment: `/:serviceId/<verb>`. */
  verb: string;
  tags: string[];
  summary: string;
  apply(accountId: string, serviceId: string, meta: { ip: string }): Promise<WorkspaceApplyResponse>;
}

/** POST /:serviceId/<verb> for the verified owner, answering 202 with the change's generation. */
export function serviceApplyRoute(app: ZodApp, route: ServiceApplyRoute): void {
  app.post(
    `/:serviceId/${route.verb}`,
    ownerRoutes(route.tags)({
      summary: route.summary,
      params: workspaceServiceParamsSchema,
      response: { 202: workspaceApplyResponseSchema },
    }),
    async (request, reply) =>
      reply
        .status(202)
        .send(await route.apply(currentUserId(request), request.params.serviceId, { ip: request.ip })),
  );
}
