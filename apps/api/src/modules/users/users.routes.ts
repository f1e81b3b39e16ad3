// /api/v1/users/me and /api/v1/settings/: the owner's own account.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  convertToBusinessRequestSchema,
  settingsSchema,
  updateCompanyRequestSchema,
  updateSettingsRequestSchema,
  updateUserRequestSchema,
  userSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { compiledContractSerializer } from '../../http/contract-serializer.ts';
import type { UsersService } from './users.service.ts';

const security = [{ bearer: [] }];

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  // Profile and settings stay reachable before the email is verified; converting does not.
  app.get(
    '/me',
    {
      config: { access: 'signed-in', readsAccount: true },
      schema: { tags: ['users'], security, response: { 200: userSchema } },
      // Every page of the dashboard asks it: written by the contract's compiled JSON Schema.
      serializerCompiler: compiledContractSerializer,
    },
    async (request) => users.me(currentUserId(request), request.auth?.account),
  );

  app.put(
    '/me',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['users'], security, body: updateUserRequestSchema, response: { 200: userSchema } },
    },
    async (request) => users.updateMe(currentUserId(request), request.body, { ip: request.ip }),
  );

  app.post(
    '/me/convert-to-business',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['users'],
        summary: 'Turn a personal account into a business account (permanent)',
        security,
        body: convertToBusinessRequestSchema,
        response: { 200: userSchema },
      },
    },
    async (request) =>
      users.convertToBusiness(currentUserId(request), request.body.business_details, { ip: request.ip }),
  );

  app.put(
    '/me/company',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['users'],
        summary: "Correct a business account's company details (until the first invoice)",
        security,
        body: updateCompanyRequestSchema,
        response: { 200: userSchema },
      },
    },
    async (request) =>
      users.correctCompany(currentUserId(request), request.body.business_details, { ip: request.ip }),
  );
};

export const settingsRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['settings'], security, response: { 200: settingsSchema } },
    },
    async (request) => users.settings(currentUserId(request)),
  );

  app.put(
    '/',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['settings'],
        security,
        body: updateSettingsRequestSchema,
        response: { 200: settingsSchema },
      },
    },
    async (request) => users.updateSettings(currentUserId(request), request.body, { ip: request.ip }),
  );
};
