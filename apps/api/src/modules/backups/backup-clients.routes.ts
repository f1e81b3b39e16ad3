// /api/v1/backups/{serviceId}/clients and /vpn-config: the backup clients (spec §7 "Backups"; the
// list is the contract's, packages/contract/src/features/backups/backup-clients.ts). The verified owner, or a
// subuser of the service (access `backups`); changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import type { BackupClientsService } from './backup-clients.ts';

const tags = ['backups'];
// The owner, or a subuser of this service (http/caller.ts): subusers work with backups only.
// Decided: a subuser may add, disconnect and delete backup clients and fetch their VPN config.
// A client's VPN login is confined on the node to the REST server it exists for (agent
// vpn/backup-client-tunnel.ts: an address of its own range, nothing else delivered from it), so
// what a subuser hands a machine reaches backups only, the subuser's own scope, never the
// workspace's shares; each client still holds one of the plan's users.
const access = 'backups';

export const backupClientsRoutes: FastifyPluginAsyncZod<{ clients: BackupClientsService }> = async (
  app,
  { clients },
) => {
  const owner = ownerRouter(app, tags, access);

  resourceRoutes(owner, clients, {
    path: '/:serviceId/clients',
    id: 'clientId',
    params: backupClientParamsSchema,
    item: backupClientSchema,
    routes: {
      list: {
        summary: 'The backup clients: connected or not, last push, snapshots, repository size',
        response: backupClientsResponseSchema,
        call: 'list',
      },
      create: {
        summary:
          'Add a backup client: a VPN login and a repository of its own; its password is shown this once',
        body: createBackupClientRequestSchema,
        response: backupClientCreatedSchema,
        call: 'create',
      },
      actions: {
        disconnect: {
          summary:
            'Disconnect a backup client for good: its logins stop working, its sessions end, its backups stay',
          call: 'disconnect',
        },
      },
      delete: { summary: 'Delete a backup client and its backups', call: 'remove' },
    },
  });

  owner.get(
    '/:serviceId/vpn-config',
    {
      summary: 'A backup client’s VPN config (.ovpn with its certificate; the password is asked at connect)',
      params: workspaceServiceParamsSchema,
      querystring: backupVpnConfigQuerySchema,
      response: { 200: backupVpnConfigResponseSchema },
    },
    async (request, { accountId }) =>
      clients.vpnConfig(accountId, request.params.serviceId, request.query.client_id),
  );
};
