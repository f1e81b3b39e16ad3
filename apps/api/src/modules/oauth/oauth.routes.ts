// /api/v1/auth/oauth: sign-in with Google, GitHub and Microsoft. Start and callback are browser
// navigations answered with redirects (302); the web app then trades the one-time code for
// tokens with POST /exchange. A browser-binding cookie ties the three steps to the browser that
// started them, so nobody can finish a sign-in, or hand over a code, in someone else's browser.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginResponseSchema,
  oauthExchangeRequestSchema,
  oauthProvidersResponseSchema,
  text,
} from '@debesis/contract';
import * as client from 'openid-client';
import { z } from 'zod';
import { clientMeta } from '../../http/caller.ts';
import { newOpaqueToken } from '../auth/tokens.ts';
import { STATE_TTL_MS, type OAuthRedirect, type OAuthService } from './oauth.service.ts';

export const BINDING_COOKIE = 'oauth_binding';
const BINDING_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Query values arrive from other sites; an odd one is ignored rather than refused. */
const lenient = (description: string) => text().max(4096).optional().catch(undefined).describe(description);

const redirectResponse = { 302: z.null().describe('Redirect (Location header)') };

/** What may be logged about a failure: names, codes and the provider's error code, never tokens. */
function describeCause(cause: unknown): Record<string, unknown> | undefined {
  if (cause instanceof client.ResponseBodyError) {
    return { name: cause.name, code: cause.code, status: cause.status, error: cause.error };
  }
  if (cause instanceof client.AuthorizationResponseError) {
    return { name: cause.name, code: cause.code, error: cause.error };
  }
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { name: cause.name, message: cause.message.slice(0, 300), ...(code ? { code } : {}) };
  }
  if (cause && typeof cause === 'object') return cause as Record<string, unknown>;
  return undefined;
}

export const oauthRoutes: FastifyPluginAsyncZod<{ oauth: OAuthService; secureCookies: boolean }> = async (
  app,
  { oauth, secureCookies },
) => {
  const cookiePath = app.prefix || '/';

  function bindingOf(request: FastifyRequest): string | undefined {
    const value = request.cookies[BINDING_COOKIE];
    return value && BINDING_FORMAT.test(value) ? value : undefined;
  }

  function answer(request: FastifyRequest, reply: FastifyReply, result: OAuthRedirect) {
    if (!result.ok) {
      const line = { provider: result.provider, reason: result.reason, cause: describeCause(result.cause) };
      // A person pressing "cancel" is not a fault; everything else is worth a look.
      if (result.reason === 'oauth_denied') request.log.info(line, 'oauth sign-in cancelled');
      else request.log.warn(line, 'oauth sign-in failed');
    }
    return reply.header('cache-control', 'no-store').redirect(result.location, 302);
  }

  app.get(
    '/providers',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'The OAuth providers and whether each is enabled',
        response: { 200: oauthProvidersResponseSchema },
      },
    },
    async () => oauth.providers(),
  );

  app.get(
    '/:provider/start',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Start signing in with a provider (browser navigation; redirects to the provider)',
        params: z.object({ provider: text().catch('') }),
        querystring: z.object({
          redirect: lenient('Same-site path to open after signing in; default /dashboard/services'),
        }),
        response: redirectResponse,
      },
    },
    async (request, reply) => {
      const binding = bindingOf(request) ?? newOpaqueToken();
      const result = await oauth.start(request.params.provider, request.query.redirect, binding);
      if (result.ok) {
        void reply.setCookie(BINDING_COOKIE, binding, {
          path: cookiePath,
          httpOnly: true,
          // Lax: the provider's redirect back to the callback is a top-level navigation from its site.
          sameSite: 'lax',
          secure: secureCookies,
          maxAge: STATE_TTL_MS / 1000,
        });
      }
      return answer(request, reply, result);
    },
  );

  app.get(
    '/:provider/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Where the provider sends the browser back; redirects to the web app',
        params: z.object({ provider: text().catch('') }),
        querystring: z.object({
          code: lenient('Authorization code'),
          state: lenient('The state sent at start'),
          error: lenient('The provider’s error code, such as access_denied'),
          error_description: lenient('The provider’s error text'),
        }),
        response: redirectResponse,
      },
    },
    async (request, reply) => {
      const queryStart = request.url.indexOf('?');
      const query = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
      const result = await oauth.callback(
        request.params.provider,
        query,
        bindingOf(request),
        clientMeta(request),
      );
      return answer(request, reply, result);
    },
  );

  app.post(
    '/exchange',
    {
      // It starts a session, like sign-in; the binding cookie (SameSite=Lax) is what keeps
      // another site from posting a code here.
      config: { access: 'public', csrf: false },
      schema: {
        tags: ['auth'],
        summary: 'Trade the one-time code from the OAuth callback for tokens',
        body: oauthExchangeRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const tokens = await oauth.exchange(request.body.code, bindingOf(request), clientMeta(request));
      void reply.clearCookie(BINDING_COOKIE, { path: cookiePath });
      return tokens;
    },
  );
};
