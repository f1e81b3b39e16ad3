// /api/v1/backups/{serviceId}/clients and /vpn-config: the backup clients (spec §7 "Backups"; the
// list is the contract's, packages/contract/src/backup-clients.ts). The verified owner, or a
// subuser of the service (access `backups`); changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backupClientCreatedSchema,
  backupClientParamsSchema,
  backupClientSchema,
  backupClientsResponseSchema,
  backupVpnConfigQuerySchema,
  backupVpnConfigResponseSchema,
  createBackupClientRequestSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { BackupClientsService } from './backup-clients.ts';

const security = [{ bearer: [] }];
const tags = ['backups'];
// The owner, or a subuser of this service (http/caller.ts): subusers work with backups only.
// Decided: a subuser may add, disconnect and delete backup clients and fetch their VPN config.
// A client's VPN login is confined on the node to the REST server it exists for (agent
// vpn/backup-client-tunnel.ts: an address of its own range, nothing else delivered from it), so
// what a subuser hands a machine reaches backups only, the subuser's own scope, never the
// workspace's shares; each client still holds one of the plan's users.
const access = { access: 'backups' } as const;

export const backupClientsRoutes: FastifyPluginAsyncZod<{ clients: BackupClientsService }> = async (
  app,
  { clients },
) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/clients',
    {
      config: access,
      schema: {
        tags,
        summary: 'The backup clients: connected or not, last push, snapshots, repository size',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: backupClientsResponseSchema },
      },
    },
    async (request) => clients.list(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/clients',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Add a backup client: a VPN login and a repository of its own; its password is shown this once',
        security,
        params: workspaceServiceParamsSchema,
        body: createBackupClientRequestSchema,
        response: { 201: backupClientCreatedSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await clients.create(
            currentUserId(request),
            request.params.serviceId,
            request.body.name,
            meta(request),
          ),
        ),
  );

  app.post(
    '/:serviceId/clients/:clientId/disconnect',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Disconnect a backup client for good: its logins stop working, its sessions end, its backups stay',
        security,
        params: backupClientParamsSchema,
        response: { 200: backupClientSchema },
      },
    },
    async (request) =>
      clients.disconnect(
        currentUserId(request),
        request.params.serviceId,
        request.params.clientId,
        meta(request),
      ),
  );

  app.delete(
    '/:serviceId/clients/:clientId',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a backup client and its backups',
        security,
        params: backupClientParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await clients.remove(
        currentUserId(request),
        request.params.serviceId,
        request.params.clientId,
        meta(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:serviceId/vpn-config',
    {
      config: access,
      schema: {
        tags,
        summary:
          'A backup client’s VPN config (.ovpn with its certificate; the password is asked at connect)',
        security,
        params: workspaceServiceParamsSchema,
        querystring: backupVpnConfigQuerySchema,
        response: { 200: backupVpnConfigResponseSchema },
      },
    },
    async (request) =>
      clients.vpnConfig(currentUserId(request), request.params.serviceId, request.query.client_id),
  );
};
