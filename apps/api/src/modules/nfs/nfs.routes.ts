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
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { NfsService } from './nfs.service.ts';

const security = [{ bearer: [] }];
const tags = ['nfs'];

export const nfsRoutes: FastifyPluginAsyncZod<{ nfs: NfsService }> = async (app, { nfs }) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/shares',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The NFS exports with their apply status',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: nfsExportsResponseSchema },
      },
    },
    async (request) => nfs.listExports(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/shares',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Export a folder of the storage to a client (an IP address, a network or a hostname)',
        security,
        params: workspaceServiceParamsSchema,
        body: createNfsExportRequestSchema,
        response: { 201: nfsExportSchema },
      },
    },
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
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Change an export (client, access, description, owner); {path} URL-encoded',
        security,
        params: nfsExportParamsSchema,
        body: updateNfsExportRequestSchema,
        response: { 200: nfsExportSchema },
      },
    },
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
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Stop exporting a folder (its clients are cut off; the files stay); {path} URL-encoded',
        security,
        params: nfsExportParamsSchema,
        response: { 204: z.null() },
      },
    },
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
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          'The clients the NFS server knows (address, NFS version, connected), as the node last reported',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: nfsClientsResponseSchema },
      },
    },
    async (request) => nfs.clients(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/clients/:client/disconnect',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          'Cut the client off now: the node refuses its address on every export until blocked_until (longer than the NFS lease); to keep it out, change the export’s client',
        security,
        params: nfsClientParamsSchema,
        response: { 200: nfsDisconnectResponseSchema, 501: errorResponseSchema },
      },
    },
    async (request) =>
      nfs.disconnect(currentUserId(request), request.params.serviceId, request.params.client, meta(request)),
  );

  app.get(
    '/:serviceId/status',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The NFS server of the service: where clients connect, what the node reports, counts',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: nfsStatusSchema },
      },
    },
    async (request) => nfs.status(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/stats',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          'Per export: the known clients its rule admits; operation and byte counters when the server has them',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: nfsStatsSchema },
      },
    },
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
