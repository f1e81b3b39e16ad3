// /api/v1/vpn/{serviceId}: the workspace's VPN users, sessions, traffic, server and client
// configs (spec §7 "VPN"; the list is the contract's, packages/contract/src/features/vpn/vpn.ts). The verified
// owner only; changes carry the CSRF header. And, public, /api/v1/vpn/config-links/{token}: the
// config file behind a one-time link (the token is the key).
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createVpnUserRequestSchema,
  updateVpnUserRequestSchema,
  vpnConfigLinkParamsSchema,
  vpnConfigLinkResponseSchema,
  vpnConfigQuerySchema,
  vpnConfigResponseSchema,
  vpnDisconnectResponseSchema,
  vpnResetPasswordRequestSchema,
  vpnSessionsResponseSchema,
  vpnStatusSchema,
  vpnTrafficQuerySchema,
  vpnTrafficResponseSchema,
  vpnUserParamsSchema,
  vpnUserSchema,
  vpnUsersResponseSchema,
  workspaceServiceParamsSchema,
  type VpnConfigResponse,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { ownerRouter, ownerRoutes } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { VpnService } from './vpn.service.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';

const tags = ['vpn'];
const route = ownerRoutes(tags);

/** The media type OpenVPN clients (desktop and phone) open as a profile to import. */
const OVPN_MEDIA_TYPE = 'application/x-openvpn-profile';
const ovpnFile = z.custom<string>().meta({ type: 'string', format: 'binary', description: OVPN_MEDIA_TYPE });

function sendConfig(reply: FastifyReply, config: VpnConfigResponse) {
  return reply
    .type(OVPN_MEDIA_TYPE)
    .header('content-disposition', `attachment; filename="${config.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(config.content);
}

export const vpnRoutes: FastifyPluginAsyncZod<{ vpn: VpnService; limiter: RateLimiter }> = async (
  app,
  { vpn, limiter },
) => {
  const owner = ownerRouter(app, tags);

  owner.get(
    '/:serviceId/status',
    {
      summary: 'The VPN server of the service: where clients connect, what the node reports, counts',
      params: workspaceServiceParamsSchema,
      response: { 200: vpnStatusSchema },
    },
    async (request, { accountId }) => vpn.status(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/sessions',
    {
      summary: 'Who is connected, as the node last reported',
      params: workspaceServiceParamsSchema,
      response: { 200: vpnSessionsResponseSchema },
    },
    async (request, { accountId }) => vpn.sessions(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/traffic',
    {
      summary: 'Bytes over time: hourly for 24h, daily for 7d and 30d (UTC), every bucket present',
      params: workspaceServiceParamsSchema,
      querystring: vpnTrafficQuerySchema,
      response: { 200: vpnTrafficResponseSchema },
    },
    async (request, { accountId }) => vpn.traffic(accountId, request.params.serviceId, request.query),
  );

  resourceRoutes(owner, vpn, {
    path: '/:serviceId/users',
    id: 'userId',
    params: vpnUserParamsSchema,
    item: vpnUserSchema,
    routes: {
      list: {
        summary: 'The VPN users with their sessions, this month’s traffic and apply status',
        response: vpnUsersResponseSchema,
        call: 'listUsers',
      },
      create: {
        summary: 'Create a VPN user (as many as the plan has users)',
        body: createVpnUserRequestSchema,
        call: 'createUser',
      },
      get: { summary: 'One VPN user', call: 'getUser' },
      update: {
        summary: 'Change a VPN user: enabled, names, email, monthly traffic limit',
        body: updateVpnUserRequestSchema,
        call: 'updateUser',
      },
      delete: {
        summary: 'Delete a VPN user (the node revokes its certificates and ends its sessions)',
        call: 'deleteUser',
      },
    },
  });

  owner.post(
    '/:serviceId/users/:userId/reset-password',
    {
      summary: 'Give a VPN user a new password (checked at its next connect)',
      params: vpnUserParamsSchema,
      body: vpnResetPasswordRequestSchema,
      response: { 200: vpnUserSchema },
    },
    async (request, { accountId, meta }) =>
      vpn.resetPassword(
        accountId,
        request.params.serviceId,
        request.params.userId,
        request.body.password,
        meta,
      ),
  );

  owner.post(
    '/:serviceId/users/:userId/disconnect',
    {
      summary: 'End the VPN user’s sessions now (it may connect again)',
      params: vpnUserParamsSchema,
      response: { 200: vpnDisconnectResponseSchema },
    },
    async (request, { accountId }) =>
      vpn.disconnect(accountId, request.params.serviceId, request.params.userId),
  );

  owner.post(
    '/:serviceId/users/:userId/revoke',
    {
      summary: 'Revoke the VPN user’s certificate: its configs stop working, its sessions end',
      params: vpnUserParamsSchema,
      response: { 200: vpnUserSchema },
    },
    async (request, { accountId, meta }) =>
      vpn.revoke(accountId, request.params.serviceId, request.params.userId, meta),
  );

  owner.post(
    '/:serviceId/sessions/kill-all',
    {
      summary: 'End every VPN session of the service now',
      params: workspaceServiceParamsSchema,
      response: { 200: vpnDisconnectResponseSchema },
    },
    async (request, { accountId }) => vpn.killAll(accountId, request.params.serviceId),
  );

  app.get(
    '/:serviceId/users/:userId/config',
    route({
      summary: 'The VPN user’s client config (inline certificates and key) as JSON',
      params: vpnUserParamsSchema,
      querystring: vpnConfigQuerySchema,
      response: { 200: vpnConfigResponseSchema },
    }),
    async (request, reply) => {
      const config = await vpn.config(
        currentUserId(request),
        request.params.serviceId,
        request.params.userId,
      );
      return reply.header('cache-control', 'private, no-store').send(config);
    },
  );

  app.get(
    '/:serviceId/users/:userId/config/download',
    route({
      summary: 'The VPN user’s client config as a .ovpn file',
      params: vpnUserParamsSchema,
      produces: [OVPN_MEDIA_TYPE],
      response: { 200: ovpnFile },
    }),
    async (request, reply) =>
      sendConfig(
        reply,
        await vpn.config(currentUserId(request), request.params.serviceId, request.params.userId),
      ),
  );

  app.post(
    '/:serviceId/users/:userId/config/link',
    route({
      summary: 'A link to the .ovpn file that works once, for a few minutes (for a phone, by QR code)',
      params: vpnUserParamsSchema,
      response: { 201: vpnConfigLinkResponseSchema },
    }),
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'private, no-store')
        .send(await vpn.createLink(currentUserId(request), request.params.serviceId, request.params.userId)),
  );

  serviceApplyRoute(app, {
    verb: 'restart',
    tags,
    summary: 'Restart the VPN server alone (its sessions end; clients reconnect)',
    apply: (accountId, serviceId, meta) => vpn.restart(accountId, serviceId, meta),
  });

  serviceApplyRoute(app, {
    verb: 'reload',
    tags,
    summary: 'Ask the node to apply the VPN configuration again',
    apply: (accountId, serviceId, meta) => vpn.reload(accountId, serviceId, meta),
  });

  app.get(
    '/config-links/:token',
    {
      // The token is the key: random, kept only as a hash, once, for minutes. The limit slows
      // anyone guessing (counted in the database: every API process sees the same count); a
      // person opens a link once or twice.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The .ovpn file behind a one-time link (no sign-in: the token is the key); 404 once used',
        params: vpnConfigLinkParamsSchema,
        produces: [OVPN_MEDIA_TYPE],
        response: { 200: ovpnFile },
      },
    },
    async (request, reply) => {
      await limiter.take([[LIMITS.vpnConfigLinkPerIp, request.ip]]);
      return sendConfig(reply, await vpn.configByLink(request.params.token));
    },
  );
};
