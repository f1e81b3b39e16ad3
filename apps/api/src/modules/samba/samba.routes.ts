// /api/v1/samba/{serviceId}: Samba shares, their users and permissions, the server's status and
// settings (spec §7 "Samba"). The signed-in owner only; changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSambaShareRequestSchema,
  sambaSettingsRequestSchema,
  sambaSettingsSchema,
  sambaShareParamsSchema,
  sambaSharePermissionsRequestSchema,
  sambaSharePermissionsResponseSchema,
  sambaShareSchema,
  sambaSharesResponseSchema,
  sambaShareUserParamsSchema,
  sambaShareUserRequestSchema,
  sambaShareUserSchema,
  sambaShareUsersResponseSchema,
  sambaStatusSchema,
  updateSambaShareRequestSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { SambaService } from './samba.service.ts';

const tags = ['samba'];

export const sambaRoutes: FastifyPluginAsyncZod<{
  samba: SambaService;
}> = async (app, { samba }) => {
  const owner = ownerRouter(app, tags);
  resourceRoutes(owner, samba, {
    path: '/:serviceId/shares',
    id: 'share',
    params: sambaShareParamsSchema,
    item: sambaShareSchema,
    routes: {
      list: {
        summary: 'The service’s Samba shares with their users, groups and apply status',
        response: sambaSharesResponseSchema,
        call: 'listShares',
      },
      create: {
        summary: 'Create a share (folder `shares/<name>` unless a path is given)',
        body: createSambaShareRequestSchema,
        call: 'createShare',
      },
      update: {
        summary: 'Change a share; `users` and `groups`, when given, replace the lists',
        body: updateSambaShareRequestSchema,
        call: 'updateShare',
      },
      delete: {
        summary: 'Delete a share (the folder’s files are the node’s to keep or remove)',
        call: 'deleteShare',
      },
    },
  });

  owner.get(
    '/:serviceId/shares/:share/users',
    {
      summary: 'The users allowed into a share, with their permissions',
      params: sambaShareParamsSchema,
      response: { 200: sambaShareUsersResponseSchema },
    },
    async (request, { accountId }) =>
      samba.shareUsers(accountId, request.params.serviceId, request.params.share),
  );

  owner.post(
    '/:serviceId/shares/:share/users',
    {
      summary: 'Allow a user of the service into a share (read and write unless told otherwise)',
      params: sambaShareParamsSchema,
      body: sambaShareUserRequestSchema,
      response: { 201: sambaShareUserSchema },
    },
    async (request, { accountId, meta }) =>
      samba.addShareUser(accountId, request.params.serviceId, request.params.share, request.body, meta),
  );

  owner.delete(
    '/:serviceId/shares/:share/users/:user',
    {
      summary: 'Take a user’s access to a share away',
      params: sambaShareUserParamsSchema,
      response: { 204: z.null() },
    },
    async (request, { accountId, meta }) =>
      samba.removeShareUser(
        accountId,
        request.params.serviceId,
        request.params.share,
        request.params.user,
        meta,
      ),
  );

  owner.get(
    '/:serviceId/shares/:share/permissions',
    {
      summary: 'Who may do what in a share: its users, then its groups',
      params: sambaShareParamsSchema,
      response: { 200: sambaSharePermissionsResponseSchema },
    },
    async (request, { accountId }) =>
      samba.permissions(accountId, request.params.serviceId, request.params.share),
  );

  owner.patch(
    '/:serviceId/shares/:share/permissions/:user',
    {
      summary: 'Change a share user’s read, write, execute and admin permissions',
      params: sambaShareUserParamsSchema,
      body: sambaSharePermissionsRequestSchema,
      response: { 200: sambaShareUserSchema },
    },
    async (request, { accountId, meta }) =>
      samba.setPermissions(
        accountId,
        request.params.serviceId,
        request.params.share,
        request.params.user,
        request.body,
        meta,
      ),
  );

  owner.get(
    '/:serviceId/status',
    {
      summary: 'The Samba server of the service: placement, what the node reports, settings',
      params: workspaceServiceParamsSchema,
      response: { 200: sambaStatusSchema },
    },
    async (request, { accountId }) => samba.status(accountId, request.params.serviceId),
  );

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to apply the Samba configuration again',
    apply: (accountId, serviceId, meta) => samba.reload(accountId, serviceId, meta),
  });

  owner.post(
    '/:serviceId/settings',
    {
      summary: 'Change the workgroup, server description or minimum protocol',
      params: workspaceServiceParamsSchema,
      body: sambaSettingsRequestSchema,
      response: { 200: sambaSettingsSchema },
    },
    async (request, { accountId, meta }) =>
      samba.updateSettings(accountId, request.params.serviceId, request.body, meta),
  );
};
