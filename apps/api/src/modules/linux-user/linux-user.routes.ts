// The Linux-user portal's routes (the contract's linux-user.ts): the sign-in under /auth (public,
// form-encoded or JSON, no session yet to forge: CSRF-exempt like the owner's) and the portal
// under /api/linux-user (access `linux-user`: the portal's own token, nothing else).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  linuxUserChangePasswordRequestSchema,
  linuxUserChangePasswordResponseSchema,
  linuxUserLoginRequestSchema,
  linuxUserMeSchema,
  linuxUserServiceSchema,
  linuxUserSharesResponseSchema,
  linuxUserTokenResponseSchema,
} from '@debesis/contract';
import { attachmentDisposition } from '../../http/attachment.ts';
import { currentLinuxUser } from '../../http/caller.ts';
import { bearerRoutes } from '../../http/owner-route.ts';
import type { LinuxUserPortal } from './linux-user.service.ts';

const tags = ['linux-user'];
// The portal's own token, nothing else (http/caller.ts).
const route = bearerRoutes(tags, 'linux-user');
const OVPN_MEDIA_TYPE = 'application/x-openvpn-profile';

export const linuxUserLoginRoutes: FastifyPluginAsyncZod<{ portal: LinuxUserPortal }> = async (
  app,
  { portal },
) => {
  app.post(
    '/login',
    {
      config: { access: 'public', csrf: false },
      schema: {
        tags,
        summary:
          'Sign in to the Linux-user portal: username, password, grant_type=password, client_id = the workspace’s service ID',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: linuxUserLoginRequestSchema,
        response: { 200: linuxUserTokenResponseSchema },
      },
    },
    async (request) => portal.login(request.body, { ip: request.ip || null }),
  );
};

export const linuxUserPortalRoutes: FastifyPluginAsyncZod<{ portal: LinuxUserPortal }> = async (
  app,
  { portal },
) => {
  app.get(
    '/me',
    route({
      summary: 'The signed-in workspace user',
      response: { 200: linuxUserMeSchema },
    }),
    async (request) => portal.me(currentLinuxUser(request)),
  );

  app.get(
    '/service',
    route({
      summary: 'The user’s workspace: name, state, address',
      response: { 200: linuxUserServiceSchema },
    }),
    async (request) => portal.service(currentLinuxUser(request)),
  );

  app.get(
    '/shares',
    route({
      summary: 'What the user can reach (Samba shares, FTP, SFTP), with its rights and how to connect',
      response: { 200: linuxUserSharesResponseSchema },
    }),
    async (request) => portal.shares(currentLinuxUser(request)),
  );

  app.post(
    '/change-password',
    route({
      summary: 'Change the password for SMB, FTP, SFTP, LDAP and VPN alike; answers a new token',
      body: linuxUserChangePasswordRequestSchema,
      response: { 200: linuxUserChangePasswordResponseSchema },
    }),
    async (request) =>
      portal.changePassword(currentLinuxUser(request), request.body, {
        ip: request.ip || null,
        language: request.language,
      }),
  );

  app.get(
    '/vpn-config/download',
    route({
      summary: 'The user’s own VPN config (.ovpn), when the workspace has a VPN user of the same name',
      produces: [OVPN_MEDIA_TYPE],
      response: {
        200: z.custom<string>().meta({ type: 'string', format: 'binary', description: OVPN_MEDIA_TYPE }),
      },
    }),
    async (request, reply) => {
      const config = await portal.vpnConfig(currentLinuxUser(request));
      return reply
        .type(OVPN_MEDIA_TYPE)
        .header('content-disposition', attachmentDisposition(config.filename, 'attachment'))
        .header('cache-control', 'private, no-store')
        .send(config.content);
    },
  );
};
