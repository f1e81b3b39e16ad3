// /api/v1/shares/{serviceId}: the owner's share links (spec §7 "Share links"; the contract's
// share-links.ts). The verified owner only; changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createShareLinkRequestSchema,
  shareLinkAccessLogQuerySchema,
  shareLinkAccessLogResponseSchema,
  shareLinkParamsSchema,
  shareLinkSchema,
  shareLinksResponseSchema,
  storageBrowseQuerySchema,
  storageListingSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import type { ShareLinksService } from './share-links.service.ts';

const tags = ['share-links'];

export const shareLinksRoutes: FastifyPluginAsyncZod<{ links: ShareLinksService }> = async (
  app,
  { links },
) => {
  const owner = ownerRouter(app, tags);

  resourceRoutes(owner, links, {
    path: '/:serviceId/shares',
    id: 'id',
    params: shareLinkParamsSchema,
    item: shareLinkSchema,
    routes: {
      list: {
        summary: 'The service’s share links, newest first, with their state and downloads',
        response: shareLinksResponseSchema,
        call: 'list',
      },
      create: {
        summary: 'Make a public link to a Samba share, an NFS export, or a file or folder of the storage',
        body: createShareLinkRequestSchema,
        call: 'create',
      },
      actions: {
        revoke: {
          summary: 'Turn a link off for good: it stops at once, downloads in flight included',
          call: 'revoke',
        },
      },
      delete: { summary: 'Delete a link and its access log', call: 'remove' },
    },
  });

  owner.get(
    '/:serviceId/shares/:id/access-logs',
    {
      summary: 'Every attempt on a link, newest first: time, address, browser, result, bytes sent',
      params: shareLinkParamsSchema,
      querystring: shareLinkAccessLogQuerySchema,
      response: { 200: shareLinkAccessLogResponseSchema },
    },
    async (request, { accountId }) =>
      links.accessLog(accountId, request.params.serviceId, request.params.id, request.query),
  );

  owner.get(
    '/:serviceId/storage',
    {
      summary:
        'One folder of the service’s storage, to pick a file or folder to share (`path` from its root)',
      params: workspaceServiceParamsSchema,
      querystring: storageBrowseQuerySchema,
      response: { 200: storageListingSchema },
    },
    async (request, { accountId }) =>
      links.browseStorage(accountId, request.params.serviceId, request.query.path),
  );
};
