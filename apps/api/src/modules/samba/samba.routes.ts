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
import { currentUserId } from '../../http/caller.ts';
import { ownerRoutes } from '../../http/owner-route.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { SambaService } from './samba.service.ts';

const tags = ['samba'];
const route = ownerRoutes(tags);

export const sambaRoutes: FastifyPluginAsyncZod<{
  samba: SambaService;
}> = async (app, { samba }) => {
  app.get(
    '/:serviceId/shares',
    route({
      summary: 'The service’s Samba shares with their users, groups and apply status',
      params: workspaceServiceParamsSchema,
      response: { 200: sambaSharesResponseSchema },
    }),
    async (request) => samba.listShares(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/shares',
    route({
      summary: 'Create a share (folder `shares/<name>` unless a path is given)',
      params: workspaceServiceParamsSchema,
      body: createSambaShareRequestSchema,
      response: { 201: sambaShareSchema },
    }),
    async (request, reply) =>
      reply.status(201).send(
        await samba.createShare(currentUserId(request), request.params.serviceId, request.body, {
          ip: request.ip,
        }),
      ),
  );

  app.patch(
    '/:serviceId/shares/:share',
    route({
      summary: 'Change a share; `users` and `groups`, when given, replace the lists',
      params: sambaShareParamsSchema,
      body: updateSambaShareRequestSchema,
      response: { 200: sambaShareSchema },
    }),
    async (request) =>
      samba.updateShare(
        currentUserId(request),
        request.params.serviceId,
        request.params.share,
        request.body,
        {
          ip: request.ip,
        },
      ),
  );

  app.delete(
    '/:serviceId/shares/:share',
    route({
      summary: 'Delete a share (the folder’s files are the node’s to keep or remove)',
      params: sambaShareParamsSchema,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await samba.deleteShare(currentUserId(request), request.params.serviceId, request.params.share, {
        ip: request.ip,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:serviceId/shares/:share/users',
    route({
      summary: 'The users allowed into a share, with their permissions',
      params: sambaShareParamsSchema,
      response: { 200: sambaShareUsersResponseSchema },
    }),
    async (request) =>
      samba.shareUsers(currentUserId(request), request.params.serviceId, request.params.share),
  );

  app.post(
    '/:serviceId/shares/:share/users',
    route({
      summary: 'Allow a user of the service into a share (read and write unless told otherwise)',
      params: sambaShareParamsSchema,
      body: sambaShareUserRequestSchema,
      response: { 201: sambaShareUserSchema },
    }),
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await samba.addShareUser(
            currentUserId(request),
            request.params.serviceId,
            request.params.share,
            request.body,
            { ip: request.ip },
          ),
        ),
  );

  app.delete(
    '/:serviceId/shares/:share/users/:user',
    route({
      summary: 'Take a user’s access to a share away',
      params: sambaShareUserParamsSchema,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await samba.removeShareUser(
        currentUserId(request),
        request.params.serviceId,
        request.params.share,
        request.params.user,
        { ip: request.ip },
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/:serviceId/shares/:share/permissions',
    route({
      summary: 'Who may do what in a share: its users, then its groups',
      params: sambaShareParamsSchema,
      response: { 200: sambaSharePermissionsResponseSchema },
    }),
    async (request) =>
      samba.permissions(currentUserId(request), request.params.serviceId, request.params.share),
  );

  app.patch(
    '/:serviceId/shares/:share/permissions/:user',
    route({
      summary: 'Change a share user’s read, write, execute and admin permissions',
      params: sambaShareUserParamsSchema,
      body: sambaSharePermissionsRequestSchema,
      response: { 200: sambaShareUserSchema },
    }),
    async (request) =>
      samba.setPermissions(
        currentUserId(request),
        request.params.serviceId,
        request.params.share,
        request.params.user,
        request.body,
        { ip: request.ip },
      ),
  );

  app.get(
    '/:serviceId/status',
    route({
      summary: 'The Samba server of the service: placement, what the node reports, settings',
      params: workspaceServiceParamsSchema,
      response: { 200: sambaStatusSchema },
    }),
    async (request) => samba.status(currentUserId(request), request.params.serviceId),
  );

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to apply the Samba configuration again',
    apply: (accountId, serviceId, meta) => samba.reload(accountId, serviceId, meta),
  });

  app.post(
    '/:serviceId/settings',
    route({
      summary: 'Change the workgroup, server description or minimum protocol',
      params: workspaceServiceParamsSchema,
      body: sambaSettingsRequestSchema,
      response: { 200: sambaSettingsSchema },
    }),
    async (request) =>
      samba.updateSettings(currentUserId(request), request.params.serviceId, request.body, {
        ip: request.ip,
      }),
  );
};
