// Route guards. `requireUser` admits a signed-in owner whose email is verified; the few routes an
// owner needs before verifying (their profile, settings, sign-out) use `requireSession`.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { Authenticated, AuthService, ClientMeta } from './auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
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

export interface AuthGuards {
  requireSession: (request: FastifyRequest) => Promise<void>;
  requireUser: (request: FastifyRequest) => Promise<void>;
}

export function createAuthGuards(auth: Pick<AuthService, 'authenticate'>): AuthGuards {
  return {
    requireSession: async (request) => {
      request.auth = await auth.authenticate(bearerToken(request));
    },
    requireUser: async (request) => {
      request.auth = await auth.authenticate(bearerToken(request));
      if (!request.auth.emailVerified) throw new AppError('email_not_verified');
    },
  };
}

/** The signed-in user's id inside a guarded handler. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth.userId;
}
