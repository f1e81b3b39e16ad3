// /api/v1/ldap/services/{serviceId}/ldap: the workspace's LDAP directory (spec §7 "LDAP"; the
// list is the contract's, packages/contract/src/features/ldap/ldap.ts). The verified owner only; changes carry
// the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ldapAliasRequestSchema,
  ldapAliasResponseSchema,
  ldapBindSettingsRequestSchema,
  ldapBindSettingsResponseSchema,
  ldapBulkUpdateRequestSchema,
  ldapBulkUpdateResponseSchema,
  ldapConfigSchema,
  ldapExpiryRequestSchema,
  ldapStatusSchema,
  ldapSuspendRequestSchema,
  ldapUserParamsSchema,
  ldapUserStatusSchema,
  ldapUsersResponseSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { LdapService } from './ldap.service.ts';

const security = [{ bearer: [] }];
const tags = ['ldap'];
const access = { access: 'verified' } as const;

export const ldapRoutes: FastifyPluginAsyncZod<{ ldap: LdapService }> = async (app, { ldap }) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/ldap/status',
    {
      config: access,
      schema: {
        tags,
        summary: 'The LDAP directory: running, address, ports, base DN, entries, last sync',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: ldapStatusSchema },
      },
    },
    async (request) => ldap.status(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/ldap/config',
    {
      config: access,
      schema: {
        tags,
        summary: 'How applications connect: URIs, base DN, users and groups DNs, TLS, the bind DN',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: ldapConfigSchema },
      },
    },
    async (request) => ldap.config(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/ldap/bind-settings',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create or rotate the read-only bind password (shown once); allow or refuse anonymous reads',
        security,
        params: workspaceServiceParamsSchema,
        body: ldapBindSettingsRequestSchema,
        response: { 200: ldapBindSettingsResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'private, no-store')
        .send(
          await ldap.bindSettings(
            currentUserId(request),
            request.params.serviceId,
            request.body,
            meta(request),
          ),
        ),
  );

  app.post(
    '/:serviceId/ldap/alias',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Set or clear the readable base DN alias, dc=<alias>,dc=debesis (the service id’s base stays)',
        security,
        params: workspaceServiceParamsSchema,
        body: ldapAliasRequestSchema,
        response: { 200: ldapAliasResponseSchema },
      },
    },
    async (request) =>
      ldap.setAlias(currentUserId(request), request.params.serviceId, request.body.alias, meta(request)),
  );

  app.get(
    '/:serviceId/ldap/users',
    {
      config: access,
      schema: {
        tags,
        summary: 'Every service user with its LDAP suspension, expiry and whether it can bind',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: ldapUsersResponseSchema },
      },
    },
    async (request) => ldap.listUsers(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/ldap/users/:user/status',
    {
      config: access,
      schema: {
        tags,
        summary: 'One user: suspended, expiry, whether it can bind',
        security,
        params: ldapUserParamsSchema,
        response: { 200: ldapUserStatusSchema },
      },
    },
    async (request) => ldap.userStatus(currentUserId(request), request.params.serviceId, request.params.user),
  );

  app.post(
    '/:serviceId/ldap/users/:user/suspend',
    {
      config: access,
      schema: {
        tags,
        summary: 'Suspend the user in LDAP (it cannot bind) or lift the suspension',
        security,
        params: ldapUserParamsSchema,
        body: ldapSuspendRequestSchema,
        response: { 200: ldapUserStatusSchema },
      },
    },
    async (request) =>
      ldap.suspend(
        currentUserId(request),
        request.params.serviceId,
        request.params.user,
        request.body.suspend,
        meta(request),
      ),
  );

  app.post(
    '/:serviceId/ldap/users/:user/expiry',
    {
      config: access,
      schema: {
        tags,
        summary: 'Set the last day the user may bind (YYYY-MM-DD, Europe/Vilnius) or clear it (null)',
        security,
        params: ldapUserParamsSchema,
        body: ldapExpiryRequestSchema,
        response: { 200: ldapUserStatusSchema },
      },
    },
    async (request) =>
      ldap.expiry(
        currentUserId(request),
        request.params.serviceId,
        request.params.user,
        request.body.expiry_date,
        meta(request),
      ),
  );

  app.post(
    '/:serviceId/ldap/bulk-update',
    {
      config: access,
      schema: {
        tags,
        summary: 'Suspend, unsuspend, set or clear the expiry of many users in one change (all or nothing)',
        security,
        params: workspaceServiceParamsSchema,
        body: ldapBulkUpdateRequestSchema,
        response: { 200: ldapBulkUpdateResponseSchema },
      },
    },
    async (request) =>
      ldap.bulkUpdate(currentUserId(request), request.params.serviceId, request.body, meta(request)),
  );
};
