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
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentSubuser, currentUserId } from '../../http/caller.ts';
import type { SubuserSignIn } from './subuser-sign-in.ts';
import type { SubusersService } from './subusers.service.ts';

const security = [{ bearer: [] }];
const tags = ['subusers'];
const owner = { access: 'verified' } as const;

export const subusersRoutes: FastifyPluginAsyncZod<{
  subusers: SubusersService;
  signIn: SubuserSignIn;
}> = async (app, { subusers, signIn }) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

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
    {
      config: { access: 'subuser' },
      schema: {
        tags,
        summary: 'The signed-in subuser and its service',
        security,
        response: { 200: subuserIdentitySchema },
      },
    },
    async (request) => signIn.me(currentSubuser(request)),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'subuser' },
      schema: { tags, summary: 'End this subuser session', security, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await signIn.logout(currentSubuser(request));
      return reply.status(204).send(null);
    },
  );

  // ── The owner's ──────────────────────────────────────────────────────────────────────────

  app.get(
    '/:serviceId',
    {
      config: owner,
      schema: {
        tags,
        summary: 'The service’s subusers, with 2FA, last login and live sessions',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: subusersResponseSchema },
      },
    },
    async (request) => subusers.list(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Make a subuser (stored as subuser-<name>) for backup work',
        security,
        params: workspaceServiceParamsSchema,
        body: createSubuserRequestSchema,
        response: { 201: subuserSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await subusers.create(
            currentUserId(request),
            request.params.serviceId,
            request.body,
            meta(request),
          ),
        ),
  );

  app.patch(
    '/:serviceId/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Give a subuser a new password (its sessions end)',
        security,
        params: subuserParamsSchema,
        body: updateSubuserRequestSchema,
        response: { 200: subuserSchema },
      },
    },
    async (request) =>
      subusers.update(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        request.body,
        meta(request),
      ),
  );

  app.delete(
    '/:serviceId/:id',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Delete a subuser (its sessions end)',
        security,
        params: subuserParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await subusers.remove(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
      );
      return reply.status(204).send(null);
    },
  );

  for (const [path, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(
      `/:serviceId/:id/${path}`,
      {
        config: owner,
        schema: {
          tags,
          summary: enabled ? 'Enable a subuser' : 'Disable a subuser (its sessions end at once)',
          security,
          params: subuserParamsSchema,
          response: { 200: subuserSchema },
        },
      },
      async (request) =>
        subusers.setEnabled(
          currentUserId(request),
          request.params.serviceId,
          request.params.id,
          enabled,
          meta(request),
        ),
    );
  }

  app.post(
    '/:serviceId/:id/2fa/setup',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Start 2FA set-up: a new TOTP secret and its otpauth URI (2FA stays off until verified)',
        security,
        params: subuserParamsSchema,
        response: { 200: twoFactorSetupResponseSchema },
      },
    },
    async (request) =>
      subusers.startTwoFactor(currentUserId(request), request.params.serviceId, request.params.id),
  );

  app.post(
    '/:serviceId/:id/2fa/verify',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Turn 2FA on with a code from the set-up’s secret; answers 10 backup codes, once',
        security,
        params: subuserParamsSchema,
        body: twoFactorVerifyRequestSchema,
        response: { 200: backupCodesResponseSchema },
      },
    },
    async (request) =>
      subusers.verifyTwoFactor(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        request.body,
        meta(request),
      ),
  );

  app.delete(
    '/:serviceId/:id/2fa',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Turn 2FA off (the secret and backup codes are forgotten; sessions end)',
        security,
        params: subuserParamsSchema,
        response: { 200: subuserSchema },
      },
    },
    async (request) =>
      subusers.disableTwoFactor(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
      ),
  );

  app.post(
    '/:serviceId/:id/2fa/backup-codes',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Make 10 new backup codes (the old ones stop working); answered once',
        security,
        params: subuserParamsSchema,
        response: { 200: backupCodesResponseSchema },
      },
    },
    async (request) =>
      subusers.renewBackupCodes(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
      ),
  );

  app.get(
    '/:serviceId/:id/sessions',
    {
      config: owner,
      schema: {
        tags,
        summary: 'A subuser’s live sessions: device, token hint, last used, expiry',
        security,
        params: subuserParamsSchema,
        response: { 200: subuserSessionsResponseSchema },
      },
    },
    async (request) => subusers.sessions(currentUserId(request), request.params.serviceId, request.params.id),
  );

  app.delete(
    '/:serviceId/:id/sessions',
    {
      config: owner,
      schema: {
        tags,
        summary: 'End every session of a subuser',
        security,
        params: subuserParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await subusers.revokeSessions(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/:serviceId/:id/sessions/:sessionId',
    {
      config: owner,
      schema: {
        tags,
        summary: 'End one session of a subuser',
        security,
        params: subuserSessionParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await subusers.revokeSessions(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
        request.params.sessionId,
      );
      return reply.status(204).send(null);
    },
  );
};
