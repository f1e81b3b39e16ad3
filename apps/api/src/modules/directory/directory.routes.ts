// /api/v1/user-groups/{serviceId}: service users and groups (spec §7 "Users and groups"). The
// signed-in owner only; changes carry the CSRF header (the app's CSRF plugin checks it).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createWorkspaceGroupRequestSchema,
  createWorkspaceUserRequestSchema,
  updateWorkspaceGroupRequestSchema,
  updateWorkspaceUserRequestSchema,
  workspaceGroupMemberParamsSchema,
  workspaceGroupMemberQuerySchema,
  workspaceGroupMembersResponseSchema,
  workspaceGroupParamsSchema,
  workspaceGroupSchema,
  workspaceGroupsResponseSchema,
  workspaceUserGroupsResponseSchema,
  workspaceUserParamsSchema,
  workspaceUserPasswordRequestSchema,
  workspaceUserSchema,
  workspaceUsersResponseSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { ownerRouter, ownerRoutes } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import { serviceApplyRoute } from '../workspace/workspace-routes.ts';
import type { DirectoryService } from './directory.service.ts';

const tags = ['users and groups'];
const route = ownerRoutes(tags);

export const directoryRoutes: FastifyPluginAsyncZod<{
  directory: DirectoryService;
}> = async (app, { directory }) => {
  const owner = ownerRouter(app, tags);
  resourceRoutes(owner, directory, {
    path: '/:serviceId/users',
    id: 'user',
    params: workspaceUserParamsSchema,
    item: workspaceUserSchema,
    routes: {
      list: {
        summary: 'The service’s users, with their groups and whether the node has applied them',
        response: workspaceUsersResponseSchema,
        call: 'listUsers',
      },
      create: {
        summary: 'Create a user (up to the plan’s users count)',
        body: createWorkspaceUserRequestSchema,
        call: 'createUser',
      },
      update: {
        summary: 'Change a user’s active state, password or groups',
        body: updateWorkspaceUserRequestSchema,
        call: 'updateUser',
      },
      delete: { summary: 'Delete a user: out of every group and share', call: 'deleteUser' },
    },
  });

  owner.patch(
    '/:serviceId/users/:user/password',
    {
      summary: 'Set a user’s password',
      params: workspaceUserParamsSchema,
      body: workspaceUserPasswordRequestSchema,
      response: { 200: workspaceUserSchema },
    },
    async (request, { accountId, meta }) =>
      directory.setPassword(
        accountId,
        request.params.serviceId,
        request.params.user,
        request.body.password,
        meta,
      ),
  );

  for (const [path, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const) {
    owner.patch(
      `/:serviceId/users/:user/${path}`,
      {
        summary: active ? 'Let a user sign in again' : 'Stop a user signing in; files and memberships stay',
        params: workspaceUserParamsSchema,
        response: { 200: workspaceUserSchema },
      },
      async (request, { accountId, meta }) =>
        directory.setActive(accountId, request.params.serviceId, request.params.user, active, meta),
    );
  }

  owner.get(
    '/:serviceId/users/:user/groups',
    {
      summary: 'The groups a user belongs to, primary marked',
      params: workspaceUserParamsSchema,
      response: { 200: workspaceUserGroupsResponseSchema },
    },
    async (request, { accountId }) =>
      directory.userGroups(accountId, request.params.serviceId, request.params.user),
  );

  resourceRoutes(owner, directory, {
    path: '/:serviceId/groups',
    id: 'group',
    params: workspaceGroupParamsSchema,
    item: workspaceGroupSchema,
    routes: {
      list: {
        summary: 'The service’s groups with their members',
        response: workspaceGroupsResponseSchema,
        call: 'listGroups',
      },
      create: {
        summary: 'Create a group, optionally with supplementary members',
        body: createWorkspaceGroupRequestSchema,
        call: 'createGroup',
      },
      update: {
        summary: 'Rename a group, change its description or its whole member list',
        body: updateWorkspaceGroupRequestSchema,
        call: 'updateGroup',
      },
      delete: {
        summary: 'Delete a group: out of every share; its primary members fall back to `users`',
        call: 'deleteGroup',
      },
    },
  });

  owner.get(
    '/:serviceId/groups/:group/members',
    {
      summary: 'A group’s members, primary or supplementary',
      params: workspaceGroupParamsSchema,
      response: { 200: workspaceGroupMembersResponseSchema },
    },
    async (request, { accountId }) =>
      directory.groupMembers(accountId, request.params.serviceId, request.params.group),
  );

  app.post(
    '/:serviceId/groups/:group/members/:user',
    route({
      summary: 'Add a user to a group; primary=true makes it their primary group (moved from any other)',
      params: workspaceGroupMemberParamsSchema,
      querystring: workspaceGroupMemberQuerySchema,
      response: { 200: workspaceGroupSchema, 201: workspaceGroupSchema },
    }),
    async (request, reply) => {
      const { group, created } = await directory.addMember(
        currentUserId(request),
        request.params.serviceId,
        request.params.group,
        request.params.user,
        request.query.primary,
        { ip: request.ip },
      );
      return reply.status(created ? 201 : 200).send(group);
    },
  );

  owner.delete(
    '/:serviceId/groups/:group/members/:user',
    {
      summary: 'Remove a user from a group; primary=true takes only their primary role (they stay a member)',
      params: workspaceGroupMemberParamsSchema,
      querystring: workspaceGroupMemberQuerySchema,
      response: { 200: workspaceGroupSchema },
    },
    async (request, { accountId, meta }) =>
      directory.removeMember(
        accountId,
        request.params.serviceId,
        request.params.group,
        request.params.user,
        request.query.primary,
        meta,
      ),
  );

  serviceApplyRoute(app, {
    verb: 'sync',
    tags,
    summary: 'Send the whole users and groups state to the node again',
    apply: (accountId, serviceId, meta) => directory.sync(accountId, serviceId, meta),
  });
};
