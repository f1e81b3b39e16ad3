// /api/v1/nfs/{serviceId}: the workspace's NFS exports, clients, server and stats (spec §7 "NFS";
// the list is the contract's, packages/contract/src/features/nfs/nfs.ts). The verified owner only; changes
// carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { NfsService } from './nfs.service.ts';

const tags = ['nfs'];

export const nfsRoutes: FastifyPluginAsyncZod<{ nfs: NfsService }> = async (app, { nfs }) => {
  const owner = ownerRouter(app, tags);
  resourceRoutes(owner, nfs, {
    path: '/:serviceId/shares',
    id: 'path',
    params: nfsExportParamsSchema,
    item: nfsExportSchema,
    routes: {
      list: {
        summary: 'The NFS exports with their apply status',
        response: nfsExportsResponseSchema,
        call: 'listExports',
      },
      create: {
        summary: 'Export a folder of the storage to a client (an IP address, a network or a hostname)',
        body: createNfsExportRequestSchema,
        call: 'createExport',
      },
      update: {
        summary: 'Change an export (client, access, description, owner); {path} URL-encoded',
        body: updateNfsExportRequestSchema,
        call: 'updateExport',
      },
      delete: {
        summary: 'Stop exporting a folder (its clients are cut off; the files stay); {path} URL-encoded',
        call: 'deleteExport',
      },
    },
  });

  owner.get(
    '/:serviceId/clients',
    {
      summary:
        'The clients the NFS server knows (address, NFS version, connected), as the node last reported',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsClientsResponseSchema },
    },
    async (request, { accountId }) => nfs.clients(accountId, request.params.serviceId),
  );

  owner.post(
    '/:serviceId/clients/:client/disconnect',
    {
      summary:
        'Cut the client off now: the node refuses its address on every export until blocked_until (longer than the NFS lease); to keep it out, change the export’s client',
      params: nfsClientParamsSchema,
      response: { 200: nfsDisconnectResponseSchema, 501: errorResponseSchema },
    },
    async (request, { accountId, meta }) =>
      nfs.disconnect(accountId, request.params.serviceId, request.params.client, meta),
  );

  owner.get(
    '/:serviceId/status',
    {
      summary: 'The NFS server of the service: where clients connect, what the node reports, counts',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsStatusSchema },
    },
    async (request, { accountId }) => nfs.status(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/stats',
    {
      summary:
        'Per export: the known clients its rule admits; operation and byte counters when the server has them',
      params: workspaceServiceParamsSchema,
      response: { 200: nfsStatsSchema },
    },
    async (request, { accountId }) => nfs.stats(accountId, request.params.serviceId),
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
