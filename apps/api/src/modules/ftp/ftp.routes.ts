// /api/v1/ftp/{serviceId}: FTP and SFTP of a service, its users' access, sessions and settings
// (spec §7 "FTP"). The signed-in owner only; changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ftpPermissionsRequestSchema,
  ftpSessionsResponseSchema,
  ftpSettingsRequestSchema,
  ftpSettingsSchema,
  ftpStatusSchema,
  ftpUserParamsSchema,
  ftpUserSchema,
  ftpUsersResponseSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { ownerRoutes } from '../../http/owner-route.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { FtpService } from './ftp.service.ts';

const tags = ['ftp'];
const route = ownerRoutes(tags);

export const ftpRoutes: FastifyPluginAsyncZod<{ ftp: FtpService }> = async (app, { ftp }) => {
  app.get(
    '/:serviceId/status',
    route({
      summary: 'FTP and SFTP of the service: where to connect, what the node runs, users, sessions',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpStatusSchema },
    }),
    async (request) => ftp.status(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/users',
    route({
      summary: 'The service’s users with their FTP/SFTP access (enabled, permissions)',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpUsersResponseSchema },
    }),
    async (request) => ftp.listUsers(currentUserId(request), request.params.serviceId),
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(
      `/:serviceId/users/:user/${action}`,
      route({
        summary: enabled
          ? 'Let a user sign in over FTP and SFTP'
          : 'Keep a user out of FTP and SFTP (their sessions end)',
        params: ftpUserParamsSchema,
        response: { 200: ftpUserSchema },
      }),
      async (request) =>
        ftp.setEnabled(currentUserId(request), request.params.serviceId, request.params.user, enabled, {
          ip: request.ip,
        }),
    );
  }

  app.put(
    '/:serviceId/users/:user/permissions',
    route({
      summary: 'A user’s FTP/SFTP rights: read_write or read_only',
      params: ftpUserParamsSchema,
      body: ftpPermissionsRequestSchema,
      response: { 200: ftpUserSchema },
    }),
    async (request) =>
      ftp.setPermissions(
        currentUserId(request),
        request.params.serviceId,
        request.params.user,
        request.body.permissions,
        { ip: request.ip },
      ),
  );

  app.get(
    '/:serviceId/sessions',
    route({
      summary: 'FTP and SFTP sessions signed in now, as the node last reported',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpSessionsResponseSchema },
    }),
    async (request) => ftp.sessions(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/settings',
    route({
      summary: 'The FTP/SFTP settings (the ftp-advanced tab)',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpSettingsSchema },
    }),
    async (request) => ftp.settings(currentUserId(request), request.params.serviceId),
  );

  app.put(
    '/:serviceId/settings',
    route({
      summary: 'Replace the FTP/SFTP settings: servers on or off, passive ports, limits, TLS',
      params: workspaceServiceParamsSchema,
      body: ftpSettingsRequestSchema,
      response: { 200: ftpSettingsSchema },
    }),
    async (request) =>
      ftp.updateSettings(currentUserId(request), request.params.serviceId, request.body, { ip: request.ip }),
  );

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to apply the FTP/SFTP configuration again',
    apply: (accountId, serviceId, meta) => ftp.reload(accountId, serviceId, meta),
  });
};
