// /api/v1/auth: thin handlers — validate with the contract, call the service, answer.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountSessionsResponseSchema,
  changeEmailRequestSchema,
  changeEmailResponseSchema,
  changePasswordRequestSchema,
  confirmEmailChangeRequestSchema,
  confirmEmailChangeResponseSchema,
  detectCountryResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  messageResponseSchema,
  refreshRequestSchema,
  refreshResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  requestPasswordResetSchema,
  resendVerificationRequestSchema,
  resetPasswordRequestSchema,
  verifyEmailRequestSchema,
  text,
} from '@debesis/contract';
import { z } from 'zod';
import { clientMeta } from '../../http/caller.ts';
import { ownerRoutes, publicRoutes } from '../../http/owner-route.ts';
import type { AccountCaller } from './account.service.ts';
import type { AuthService } from './auth.service.ts';
import { AppError } from '../../http/app-error.ts';
import { detectCountry } from './detect-country.ts';

const tags = ['auth'];
const open = publicRoutes(tags);
const owner = ownerRoutes(tags);

/** The signed-in owner and the session a guarded request came with. */
function caller(request: FastifyRequest): AccountCaller {
  if (!request.auth) throw new AppError('unauthorized');
  return {
    userId: request.auth.userId,
    sessionId: request.auth.sessionId,
    ip: request.ip || null,
    language: request.language,
  };
}

/** Calls that start a session carry no browser session yet, so they are exempt from CSRF. */
const noSessionYet = publicRoutes(tags, { csrf: false });

export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  trustProxy: boolean;
}> = async (app, { auth, trustProxy }) => {
  app.get(
    '/detect-country',
    open({
      summary: 'Guess the visitor’s country',
      response: { 200: detectCountryResponseSchema },
    }),
    async (request) => detectCountry(request, { trustProxy }),
  );

  app.post(
    '/register',
    noSessionYet({
      summary: 'Register a personal or business account; mails a verification link',
      body: registerRequestSchema,
      response: { 201: registerResponseSchema },
    }),
    async (request, reply) => {
      const { user, token } = await auth.register(request.body, clientMeta(request));
      return reply.status(201).send({ user, token });
    },
  );

  app.post(
    '/login',
    noSessionYet({
      summary: 'Sign in with email and password (form-encoded password grant)',
      body: loginRequestSchema,
      response: { 200: loginResponseSchema },
    }),
    async (request) => auth.login(request.body.username, request.body.password, clientMeta(request)),
  );

  app.post(
    '/refresh',
    noSessionYet({
      summary: 'Trade a refresh token for new tokens (the refresh token rotates)',
      body: refreshRequestSchema,
      response: { 200: refreshResponseSchema },
    }),
    async (request) => auth.refresh(request.body.refresh_token),
  );

  // Signing out must work however the client sends it: with no body, or with an empty one
  // labelled JSON (which Fastify's JSON parser refuses), so this route reads JSON itself.
  await app.register(async (scope) => {
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (String(body).trim() === '') done(null, undefined);
      else void json(request, String(body), done);
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/logout',
      {
        config: { access: 'signed-in' },
        schema: {
          tags,
          summary: 'End the current session (a body is optional)',
          body: z.object({ refresh_token: text().max(512).optional() }).nullish(),
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => auth.logout(request.auth?.sessionId ?? '', clientMeta(request)),
    );
  });

  app.post(
    '/verify-email',
    open({
      summary: 'Confirm an email address with the mailed token',
      body: verifyEmailRequestSchema,
      response: { 200: messageResponseSchema },
    }),
    async (request) => auth.verifyEmail(request.body.token, clientMeta(request)),
  );

  app.post(
    '/resend-verification',
    open({
      summary: 'Mail a new verification link (same answer whether or not the account exists)',
      body: resendVerificationRequestSchema,
      response: { 200: messageResponseSchema },
    }),
    async (request) => auth.resendVerification(request.body.email, clientMeta(request)),
  );

  app.post(
    '/request-password-reset',
    open({
      summary: 'Mail a password reset link (same answer whether or not the account exists)',
      body: requestPasswordResetSchema,
      response: { 200: messageResponseSchema },
    }),
    async (request) => auth.requestPasswordReset(request.body.email, clientMeta(request)),
  );

  app.post(
    '/reset-password',
    open({
      summary: 'Set a new password with the mailed token; ends every other session',
      body: resetPasswordRequestSchema,
      response: { 200: loginResponseSchema },
    }),
    async (request) => auth.resetPassword(request.body.token, request.body.password, clientMeta(request)),
  );

  // ── Self-service from Settings (account.service.ts) ──

  app.post(
    '/change-password',
    owner({
      summary: 'Change the password (the current one required); ends every other session',
      body: changePasswordRequestSchema,
      response: { 200: messageResponseSchema },
    }),
    async (request) => auth.account.changePassword(caller(request), request.body),
  );

  app.post(
    '/change-email',
    owner({
      summary:
        'Ask to change the email address (the current password required); mails a link to the new address and tells the old one',
      body: changeEmailRequestSchema,
      response: { 200: changeEmailResponseSchema },
    }),
    async (request) => auth.account.requestEmailChange(caller(request), request.body),
  );

  app.post(
    '/confirm-email-change',
    open({
      summary: 'Set the new email address with the link mailed to it (single-use, expires)',
      body: confirmEmailChangeRequestSchema,
      response: { 200: confirmEmailChangeResponseSchema },
    }),
    async (request) =>
      auth.account.confirmEmailChange(request.body.token, {
        ip: request.ip || null,
        language: request.language,
      }),
  );

  app.get(
    '/sessions',
    owner({
      summary: 'The account’s live sessions: device, IP, created and last used; the current one marked',
      response: { 200: accountSessionsResponseSchema },
    }),
    async (request) => ({ sessions: await auth.account.listSessions(caller(request)) }),
  );

  app.delete(
    '/sessions/:id',
    owner({
      summary: 'Sign one session out at once (its next request is refused)',
      params: z.object({ id: text().max(64) }),
      response: { 200: messageResponseSchema },
    }),
    async (request) => auth.account.endSession(caller(request), request.params.id),
  );
};
