// /api/v1/shares/{serviceId}: the owner's share links (spec §7 "Share links"; the contract's
// share-links.ts). The verified owner only; changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { currentUserId } from '../../http/caller.ts';
import type { ShareLinksService } from './share-links.service.ts';

const security = [{ bearer: [] }];
const tags = ['share-links'];
const access = { access: 'verified' } as const;

export const shareLinksRoutes: FastifyPluginAsyncZod<{ links: ShareLinksService }> = async (
  app,
  { links },
) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/shares',
    {
      config: access,
      schema: {
        tags,
        summary: 'The service’s share links, newest first, with their state and downloads',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: shareLinksResponseSchema },
      },
    },
    async (request) => links.list(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/shares',
    {
      config: access,
      schema: {
        tags,
        summary: 'Make a public link to a Samba share, an NFS export, or a file or folder of the storage',
        security,
        params: workspaceServiceParamsSchema,
        body: createShareLinkRequestSchema,
        response: { 201: shareLinkSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await links.create(currentUserId(request), request.params.serviceId, request.body, meta(request)),
        ),
  );

  app.post(
    '/:serviceId/shares/:id/revoke',
    {
      config: access,
      schema: {
        tags,
        summary: 'Turn a link off for good: it stops at once, downloads in flight included',
        security,
        params: shareLinkParamsSchema,
        response: { 200: shareLinkSchema },
      },
    },
    async (request) =>
      links.revoke(currentUserId(request), request.params.serviceId, request.params.id, meta(request)),
  );

  app.delete(
    '/:serviceId/shares/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a link and its access log',
        security,
        params: shareLinkParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await links.remove(currentUserId(request), request.params.serviceId, request.params.id, meta(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:serviceId/shares/:id/access-logs',
    {
      config: access,
      schema: {
        tags,
        summary: 'Every attempt on a link, newest first: time, address, browser, result, bytes sent',
        security,
        params: shareLinkParamsSchema,
        querystring: shareLinkAccessLogQuerySchema,
        response: { 200: shareLinkAccessLogResponseSchema },
      },
    },
    async (request) =>
      links.accessLog(currentUserId(request), request.params.serviceId, request.params.id, request.query),
  );

  app.get(
    '/:serviceId/storage',
    {
      config: access,
      schema: {
        tags,
        summary:
          'One folder of the service’s storage, to pick a file or folder to share (`path` from its root)',
        security,
        params: workspaceServiceParamsSchema,
        querystring: storageBrowseQuerySchema,
        response: { 200: storageListingSchema },
      },
    },
    async (request) =>
      links.browseStorage(currentUserId(request), request.params.serviceId, request.query.path),
  );
};
