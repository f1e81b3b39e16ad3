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
import { ownerRouter } from '../../http/owner-route.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { FtpService } from './ftp.service.ts';

const tags = ['ftp'];

export const ftpRoutes: FastifyPluginAsyncZod<{ ftp: FtpService }> = async (app, { ftp }) => {
  const owner = ownerRouter(app, tags);
  owner.get(
    '/:serviceId/status',
    {
      summary: 'FTP and SFTP of the service: where to connect, what the node runs, users, sessions',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpStatusSchema },
    },
    async (request, { accountId }) => ftp.status(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/users',
    {
      summary: 'The service’s users with their FTP/SFTP access (enabled, permissions)',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpUsersResponseSchema },
    },
    async (request, { accountId }) => ftp.listUsers(accountId, request.params.serviceId),
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    owner.post(
      `/:serviceId/users/:user/${action}`,
      {
        summary: enabled
          ? 'Let a user sign in over FTP and SFTP'
          : 'Keep a user out of FTP and SFTP (their sessions end)',
        params: ftpUserParamsSchema,
        response: { 200: ftpUserSchema },
      },
      async (request, { accountId, meta }) =>
        ftp.setEnabled(accountId, request.params.serviceId, request.params.user, enabled, meta),
    );
  }

  owner.put(
    '/:serviceId/users/:user/permissions',
    {
      summary: 'A user’s FTP/SFTP rights: read_write or read_only',
      params: ftpUserParamsSchema,
      body: ftpPermissionsRequestSchema,
      response: { 200: ftpUserSchema },
    },
    async (request, { accountId, meta }) =>
      ftp.setPermissions(
        accountId,
        request.params.serviceId,
        request.params.user,
        request.body.permissions,
        meta,
      ),
  );

  owner.get(
    '/:serviceId/sessions',
    {
      summary: 'FTP and SFTP sessions signed in now, as the node last reported',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpSessionsResponseSchema },
    },
    async (request, { accountId }) => ftp.sessions(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/settings',
    {
      summary: 'The FTP/SFTP settings (the ftp-advanced tab)',
      params: workspaceServiceParamsSchema,
      response: { 200: ftpSettingsSchema },
    },
    async (request, { accountId }) => ftp.settings(accountId, request.params.serviceId),
  );

  owner.put(
    '/:serviceId/settings',
    {
      summary: 'Replace the FTP/SFTP settings: servers on or off, passive ports, limits, TLS',
      params: workspaceServiceParamsSchema,
      body: ftpSettingsRequestSchema,
      response: { 200: ftpSettingsSchema },
    },
    async (request, { accountId, meta }) =>
      ftp.updateSettings(accountId, request.params.serviceId, request.body, meta),
  );

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to apply the FTP/SFTP configuration again',
    apply: (accountId, serviceId, meta) => ftp.reload(accountId, serviceId, meta),
  });
};
