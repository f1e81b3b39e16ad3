// Who calls a route: the guard of each access level a route declares (http/access.ts runs them;
// no route calls one by hand), and what a handler reads of its caller. It lives in the HTTP layer,
// not in the auth module, so that the modules' routes depend on it and not on each other.
//
// Four kinds of caller carry a bearer token, told apart by its form before anything is verified:
//   owner       the account's JWT (auth module)      signed-in, verified, backups
//   subuser     `sus_…` (subusers feature)            backups of its own service, subuser
//   linux-user  `lut_…` (Linux-user portal feature)   linux-user
//   node        the node's token (nodes module)       node
// A token of one kind on a level it may not call is refused with a 403 that says which kind it is
// (a subuser on a billing route: `subuser_not_allowed`), never tried as another kind's.
import { LINUX_USER_TOKEN_PREFIX, SUBUSER_TOKEN_PREFIX } from '@debesis/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, unauthorized } from './app-error.ts';
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

/** A subuser signed in to one service of its owner's account. */
export interface SubuserCaller {
  /** The owner's account: a backup route answers for it, as for the owner. */
  accountId: string;
  serviceId: string;
  subuserId: string;
  sessionId: string;
  username: string;
}

/** A workspace user signed in to the Linux-user portal. */
export interface LinuxUserCaller {
  accountId: string;
  serviceId: string;
  /** The workspace user's row id. */
  userId: string;
  username: string;
}

/**
 * Who a token of each feature-issued kind belongs to, or the refusal (401 for a token that is not
 * one, expired or revoked). The features that sign these callers in register them (WorkspaceFeature
 * `callers`).
 */
export interface CallerAuthenticators {
  subuser(token: string, request: FastifyRequest): Promise<SubuserCaller>;
  'linux-user'(token: string, request: FastifyRequest): Promise<LinuxUserCaller>;
}

export type TokenKind = 'owner' | 'subuser' | 'linux-user';

/** The kind a bearer token is of, by its form (the owner's JWTs carry no prefix). */
export function tokenKind(token: string): TokenKind {
  if (token.startsWith(SUBUSER_TOKEN_PREFIX)) return 'subuser';
  if (token.startsWith(LINUX_USER_TOKEN_PREFIX)) return 'linux-user';
  return 'owner';
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
    node: AuthenticatedNode | null;
    /** The subuser on a `backups` or `subuser` route it called (null for the owner). */
    subuser: SubuserCaller | null;
    /** The workspace user on a `linux-user` route. */
    linuxUser: LinuxUserCaller | null;
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

/** The refusal of a token of `kind` on a level that does not take its kind. */
function wrongKind(kind: TokenKind, wanted: 'owner' | 'subuser' | 'linux-user'): AppError {
  if (kind === 'subuser') return new AppError('subuser_not_allowed');
  if (kind === 'linux-user') return new AppError('linux_user_not_allowed');
  return new AppError(wanted === 'subuser' ? 'subuser_session_required' : 'linux_user_token_required');
}

/**
 * The guard of each access level: an owner's session, verified or not, a subuser's session, a
 * Linux user's portal token, or a node's token.
 */
export function accessGuards(
  auth: Pick<AuthService, 'authenticate' | 'claims'>,
  nodes: Pick<NodesService, 'authenticate'>,
  callers: Partial<CallerAuthenticators> = {},
): AccessGuards {
  const signedIn = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const kind = tokenKind(token);
    if (kind !== 'owner') throw wrongKind(kind, 'owner');
    if (request.routeOptions.config.sessionReadByRoute) {
      request.claims = await auth.claims(token);
      return;
    }
    request.auth = await auth.authenticate(token, sessionRead(request));
  };
  const verified = async (request: FastifyRequest) => {
    await signedIn(request);
    if (request.auth) refuseUnverified(request.auth);
  };
  /** The subuser a `sus_` token belongs to, or 401 when no feature signs subusers in. */
  const subuser = async (request: FastifyRequest, token: string) => {
    if (!callers.subuser) throw unauthorized();
    request.subuser = await callers.subuser(token, request);
    return request.subuser;
  };
  return {
    'signed-in': signedIn,
    verified,
    node: async (request) => {
      request.node = await nodes.authenticate(bearerToken(request));
    },
    backups: async (request) => {
      const token = bearerToken(request);
      if (tokenKind(token) !== 'subuser') return verified(request);
      const caller = await subuser(request, token);
      const { serviceId } = request.params as { serviceId?: unknown };
      // Its own service only; another service's id is not a question a subuser may ask.
      if (serviceId !== caller.serviceId) throw new AppError('subuser_not_allowed');
      // The backup routes answer for the owner's account, as they do for the owner.
      request.auth = {
        userId: caller.accountId,
        sessionId: caller.sessionId,
        emailVerified: true,
      };
    },
    subuser: async (request) => {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const kind = tokenKind(token);
      if (kind !== 'subuser') throw wrongKind(kind, 'subuser');
      await subuser(request, token);
    },
    'linux-user': async (request) => {
      const token = bearerToken(request);
      if (!token) throw unauthorized();
      const kind = tokenKind(token);
      if (kind !== 'linux-user') throw wrongKind(kind, 'linux-user');
      if (!callers['linux-user']) throw unauthorized();
      request.linuxUser = await callers['linux-user'](token, request);
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

/** The subuser inside a `subuser` route (or a `backups` route a subuser called). */
export function currentSubuser(request: FastifyRequest): SubuserCaller {
  if (!request.subuser) throw new AppError('subuser_session_required');
  return request.subuser;
}

/** The workspace user inside a `linux-user` route. */
export function currentLinuxUser(request: FastifyRequest): LinuxUserCaller {
  if (!request.linuxUser) throw new AppError('linux_user_token_required');
  return request.linuxUser;
}
