// /api/v1/nfs/{serviceId}: the workspace's NFS exports, clients, server and stats (spec §7 "NFS";
// the list is the contract's, packages/contract/src/nfs.ts). The verified owner only; changes
// carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createNfsExportRequestSchema,
  errorResponseSchema,
  nfsClientParamsSchema,
  nfsClientsResponseSchema,
  nfsDisconnectResponseSchema,
  nfsExportParamsSchema,
  nfsExportSchema,
  nfsExportsResponseSchema,
  nfsStatsSchema,
  nfsStatusSchema,
  updateNfsExportRequestSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { ownerRoutes } from '../../http/owner-route.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { NfsService } from './nfs.service.ts';

const tags = ['nfs'];
const route = ownerRoutes(tags);

export const nfsRoutes: FastifyPluginAsyncZod<{ nfs: NfsService }> = async (app, { nfs }) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/shares',
    route({
      summary: 'The NFS exports with their apply status',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsExportsResponseSchema },
    }),
    async (request) => nfs.listExports(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/shares',
    route({
      summary: 'Export a folder of the storage to a client (an IP address, a network or a hostname)',
      params: workspaceServiceParamsSchema,
      body: createNfsExportRequestSchema,
      response: { 201: nfsExportSchema },
    }),
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await nfs.createExport(
            currentUserId(request),
            request.params.serviceId,
            request.body,
            meta(request),
          ),
        ),
  );

  app.patch(
    '/:serviceId/shares/:path',
    route({
      summary: 'Change an export (client, access, description, owner); {path} URL-encoded',
      params: nfsExportParamsSchema,
      body: updateNfsExportRequestSchema,
      response: { 200: nfsExportSchema },
    }),
    async (request) =>
      nfs.updateExport(
        currentUserId(request),
        request.params.serviceId,
        request.params.path,
        request.body,
        meta(request),
      ),
  );

  app.delete(
    '/:serviceId/shares/:path',
    route({
      summary: 'Stop exporting a folder (its clients are cut off; the files stay); {path} URL-encoded',
      params: nfsExportParamsSchema,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await nfs.deleteExport(
        currentUserId(request),
        request.params.serviceId,
        request.params.path,
        meta(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:serviceId/clients',
    route({
      summary:
        'The clients the NFS server knows (address, NFS version, connected), as the node last reported',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsClientsResponseSchema },
    }),
    async (request) => nfs.clients(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/clients/:client/disconnect',
    route({
      summary:
        'Cut the client off now: the node refuses its address on every export until blocked_until (longer than the NFS lease); to keep it out, change the export’s client',
      params: nfsClientParamsSchema,
      response: { 200: nfsDisconnectResponseSchema, 501: errorResponseSchema },
    }),
    async (request) =>
      nfs.disconnect(currentUserId(request), request.params.serviceId, request.params.client, meta(request)),
  );

  app.get(
    '/:serviceId/status',
    route({
      summary: 'The NFS server of the service: where clients connect, what the node reports, counts',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsStatusSchema },
    }),
    async (request) => nfs.status(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/stats',
    route({
      summary:
        'Per export: the known clients its rule admits; operation and byte counters when the server has them',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsStatsSchema },
    }),
    async (request) => nfs.stats(currentUserId(request), request.params.serviceId),
  );

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to read the exports again (no restart: mounted clients stay)',
    apply: (accountId, serviceId, meta) => nfs.reload(accountId, serviceId, meta),
  });

  serviceApplyRoute(app, {
    verb: 'sync',
    tags,
    summary: 'Send the NFS desired state to the node again',
    apply: (accountId, serviceId, meta) => nfs.sync(accountId, serviceId, meta),
  });
};
