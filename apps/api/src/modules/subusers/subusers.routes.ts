// /api/v1/subusers: the owner's subusers of a service, with their two-factor set-up and sessions,
// and the subuser's own sign-in (the contract's subusers.ts lists every path). The owner's routes
// are `verified` and carry CSRF on changes; the sign-in is public, `me` and `logout` are the
// subuser's own.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backupCodesResponseSchema,
  createSubuserRequestSchema,
  subuserIdentitySchema,
  subuserLoginRequestSchema,
  subuserLoginResponseSchema,
  subuserParamsSchema,
  subuserSchema,
  subuserSessionParamsSchema,
  subuserSessionsResponseSchema,
  subusersResponseSchema,
  twoFactorSetupResponseSchema,
  twoFactorVerifyRequestSchema,
  updateSubuserRequestSchema,
} from '@debesis/contract';
import { currentSubuser } from '../../http/caller.ts';
import { bearerRoutes, ownerRouter } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import type { SubuserSignIn } from './subuser-sign-in.ts';
import type { SubusersService } from './subusers.service.ts';

const tags = ['subusers'];
/** The subuser's own routes: its session's token. */
const subuserRoute = bearerRoutes(tags, 'subuser');

export const subusersRoutes: FastifyPluginAsyncZod<{
  subusers: SubusersService;
  signIn: SubuserSignIn;
}> = async (app, { subusers, signIn }) => {
  const owner = ownerRouter(app, tags);

  // ── The subuser's own ────────────────────────────────────────────────────────────────────

  app.post(
    '/auth/login',
    {
      // Like the owner's sign-in: no session yet to forge a request with (http/csrf-exempt.ts).
      config: { access: 'public', csrf: false },
      schema: {
        tags,
        summary:
          'Sign in as a subuser: service ID, username, password, device name; the 2FA code or a backup code when 2FA is on',
        body: subuserLoginRequestSchema,
        response: { 200: subuserLoginResponseSchema },
      },
    },
    async (request) => signIn.login(request.body, { ip: request.ip || null }),
  );

  app.get(
    '/auth/me',
    subuserRoute({
      summary: 'The signed-in subuser and its service',
      response: { 200: subuserIdentitySchema },
    }),
    async (request) => signIn.me(currentSubuser(request)),
  );

  app.post(
    '/auth/logout',
    subuserRoute({ summary: 'End this subuser session', response: { 204: z.null() } }),
    async (request, reply) => {
      await signIn.logout(currentSubuser(request));
      return reply.status(204).send(null);
    },
  );

  // ── The owner's ──────────────────────────────────────────────────────────────────────────

  resourceRoutes(owner, subusers, {
    path: '/:serviceId',
    id: 'id',
    params: subuserParamsSchema,
    item: subuserSchema,
    routes: {
      list: {
        summary: 'The service’s subusers, with 2FA, last login and live sessions',
        response: subusersResponseSchema,
        call: 'list',
      },
      create: {
        summary: 'Make a subuser (stored as subuser-<name>) for backup work',
        body: createSubuserRequestSchema,
        call: 'create',
      },
      update: {
        summary: 'Give a subuser a new password (its sessions end)',
        body: updateSubuserRequestSchema,
        call: 'update',
      },
      delete: { summary: 'Delete a subuser (its sessions end)', call: 'remove' },
    },
  });

  for (const [path, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    owner.post(
      `/:serviceId/:id/${path}`,
      {
        summary: enabled ? 'Enable a subuser' : 'Disable a subuser (its sessions end at once)',
        params: subuserParamsSchema,
        response: { 200: subuserSchema },
      },
      async (request, { accountId, meta }) =>
        subusers.setEnabled(accountId, request.params.serviceId, request.params.id, enabled, meta),
    );
  }

  owner.post(
    '/:serviceId/:id/2fa/setup',
    {
      summary: 'Start 2FA set-up: a new TOTP secret and its otpauth URI (2FA stays off until verified)',
      params: subuserParamsSchema,
      response: { 200: twoFactorSetupResponseSchema },
    },
    async (request, { accountId }) =>
      subusers.startTwoFactor(accountId, request.params.serviceId, request.params.id),
  );

  owner.post(
    '/:serviceId/:id/2fa/verify',
    {
      summary: 'Turn 2FA on with a code from the set-up’s secret; answers 10 backup codes, once',
      params: subuserParamsSchema,
      body: twoFactorVerifyRequestSchema,
      response: { 200: backupCodesResponseSchema },
    },
    async (request, { accountId, meta }) =>
      subusers.verifyTwoFactor(accountId, request.params.serviceId, request.params.id, request.body, meta),
  );

  owner.delete(
    '/:serviceId/:id/2fa',
    {
      summary: 'Turn 2FA off (the secret and backup codes are forgotten; sessions end)',
      params: subuserParamsSchema,
      response: { 200: subuserSchema },
    },
    async (request, { accountId, meta }) =>
      subusers.disableTwoFactor(accountId, request.params.serviceId, request.params.id, meta),
  );

  owner.post(
    '/:serviceId/:id/2fa/backup-codes',
    {
      summary: 'Make 10 new backup codes (the old ones stop working); answered once',
      params: subuserParamsSchema,
      response: { 200: backupCodesResponseSchema },
    },
    async (request, { accountId, meta }) =>
      subusers.renewBackupCodes(accountId, request.params.serviceId, request.params.id, meta),
  );

  owner.get(
    '/:serviceId/:id/sessions',
    {
      summary: 'A subuser’s live sessions: device, token hint, last used, expiry',
      params: subuserParamsSchema,
      response: { 200: subuserSessionsResponseSchema },
    },
    async (request, { accountId }) =>
      subusers.sessions(accountId, request.params.serviceId, request.params.id),
  );

  owner.delete(
    '/:serviceId/:id/sessions',
    { summary: 'End every session of a subuser', params: subuserParamsSchema, response: { 204: z.null() } },
    async (request, { accountId, meta }) =>
      subusers.revokeSessions(accountId, request.params.serviceId, request.params.id, meta),
  );

  owner.delete(
    '/:serviceId/:id/sessions/:sessionId',
    {
      summary: 'End one session of a subuser',
      params: subuserSessionParamsSchema,
      response: { 204: z.null() },
    },
    async (request, { accountId, meta }) =>
      subusers.revokeSessions(
        accountId,
        request.params.serviceId,
        request.params.id,
        meta,
        request.params.sessionId,
      ),
  );
};
