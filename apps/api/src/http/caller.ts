// Who calls a route: the guard of each access level a route declares (http/access.ts runs them;
// no route calls one by hand), and what a handler reads of its caller. It lives in the HTTP layer,
// not in the auth module, so that the modules' routes depend on it and not on each other. `verified` admits a signed-in owner whose email is verified; the few routes an owner
// needs before verifying (their profile, settings, sign-out) are `signed-in`; `node` admits a
// storage node's agent by its node token.
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import type { AccessGuards } from './access.ts';
import type { NodesService } from '../modules/nodes/nodes.service.ts';
import type { ActiveSession } from '../modules/auth/auth.queries.ts';
import {
  admitSession,
  type Authenticated,
  type AuthService,
  type ClientMeta,
} from '../modules/auth/auth.service.ts';
import type { AccessClaims } from '../modules/auth/tokens.ts';

export type AuthenticatedNode = Awaited<ReturnType<NodesService['authenticate']>>;

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
    node: AuthenticatedNode | null;
    /** The token's claims on a route that reads its session itself (access.ts `sessionReadByRoute`). */
    claims: AccessClaims | null;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  return /^bearer /i.test(header) ? header.slice(7).trim() : '';
}

export function clientMeta(request: FastifyRequest): ClientMeta {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip || null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    language: request.language,
  };
}

/** Whether the route shows the account, so the session's query reads it along (access.ts). */
const sessionRead = (request: FastifyRequest) => ({
  withAccount: request.routeOptions.config.readsAccount === true,
});

/** The guard of each access level: a customer's session, verified or not, or a node's token. */
export function accessGuards(
  auth: Pick<AuthService, 'authenticate' | 'claims'>,
  nodes: Pick<NodesService, 'authenticate'>,
): AccessGuards {
  const signedIn = async (request: FastifyRequest) => {
    if (request.routeOptions.config.sessionReadByRoute) {
      request.claims = await auth.claims(bearerToken(request));
      return;
    }
    request.auth = await auth.authenticate(bearerToken(request), sessionRead(request));
  };
  return {
    'signed-in': signedIn,
    verified: async (request) => {
      await signedIn(request);
      if (request.auth) refuseUnverified(request.auth);
    },
    node: async (request) => {
      request.node = await nodes.authenticate(bearerToken(request));
    },
  };
}

/**
 * Admits the caller of a `sessionReadByRoute` route with the session its statement read, as its
 * guard would have (401, `email_not_verified`): the account id to answer for.
 */
export function admitSessionRead(request: FastifyRequest, session: ActiveSession | undefined): string {
  if (!request.claims) throw new AppError('unauthorized');
  request.auth = admitSession(request.claims, session);
  if (request.routeOptions.config.access === 'verified') refuseUnverified(request.auth);
  return request.auth.userId;
}

/** What the `verified` level adds to a session that stands. */
function refuseUnverified(auth: Authenticated): void {
  if (!auth.emailVerified) throw new AppError('email_not_verified');
}

/** The calling node inside a route whose access is `node`. */
export function currentNode(request: FastifyRequest): AuthenticatedNode {
  if (!request.node) throw new AppError('unauthorized');
  return request.node;
}

/** The signed-in user's id inside a guarded handler. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth.userId;
}
