// /api/v1/services/{serviceId}/labels: the owner's labels of a workspace (the contract's labels.ts
// lists every path). `verified` routes, CSRF on changes, like every workspace feature's.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  labelParamsSchema,
  labelSchema,
  labelsResponseSchema,
  setLabelRequestSchema,
} from '@debesis/contract';
import { ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import type { LabelsService } from './labels.service.ts';

export const labelsRoutes: FastifyPluginAsyncZod<{ labels: LabelsService }> = async (app, { labels }) => {
  resourceRoutes(ownerRouter(app, ['labels']), labels, {
    path: '/:serviceId/labels',
    id: 'key',
    params: labelParamsSchema,
    item: labelSchema,
    routes: {
      list: {
        summary: 'The workspace’s labels, sorted by key',
        response: labelsResponseSchema,
        call: 'list',
      },
      update: {
        summary: 'Set a label: made, or its value replaced (20 labels at most)',
        method: 'put',
        body: setLabelRequestSchema,
        call: 'set',
      },
      delete: { summary: 'Remove a label', call: 'remove' },
    },
  });
};
