// Owner sign-in (spec §3, §7, §8): a form-encoded OAuth2 password grant, then the common sign-in
// (tokens kept, user loaded), and the spec's words for each way it can fail.
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { api, isApiError } from '../api/client.ts';
import { serverMessage, type ApiError } from '../api/api-error.ts';
import { signIn, UserLoadError, type IssuedTokens } from './session-runtime.ts';

export const LOGIN_PATH = '/api/v1/auth/login';

/** What a sign-in answer must hold to be usable (login, reset-password, OAuth exchange). */
const issuedTokensSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
});

/** The server answered 2xx but without usable tokens: 'Invalid token response'. */
export class InvalidTokenResponseError extends Error {
  override readonly name = 'InvalidTokenResponseError';
}

/** Checks a sign-in answer's tokens and finishes signing in with them. */
export async function signInWithAnswer(answer: unknown): Promise<void> {
  const tokens = issuedTokensSchema.safeParse(answer);
  if (!tokens.success) throw new InvalidTokenResponseError();
  const issued: IssuedTokens = tokens.data;
  await signIn(issued);
}

export interface LoginCredentials {
  email: string;
  password: string;
}

export async function login({ email, password }: LoginCredentials): Promise<void> {
  const form = new URLSearchParams({ username: email, password, grant_type: 'password' });
  const answer = await api.post(LOGIN_PATH, form, z.unknown());
  await signInWithAnswer(answer);
}

const CLIENT_SIDE_DETAILS = new Set(['network_error', 'timeout', 'invalid_response', 'canceled']);

/**
 * "Too many attempts…" plus, when the server said, how long to wait, in whole minutes rounded up
 * (a lock lasts up to 15 minutes; "900 s" made people count).
 */
export function tooManyAttemptsMessage(error: ApiError, t: TFunction): string {
  if (error.retryAfterSeconds === null) return error.message;
  const minutes = Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
  return `${error.message} ${t('auth.retryAfter', { count: minutes })}`;
}

/** Failures every sign-in way shares: no tokens, no user, throttling, server and network. */
export function commonSignInError(error: unknown, t: TFunction): string | null {
  if (error instanceof InvalidTokenResponseError) return t('login.errors.invalid_token_response');
  if (error instanceof UserLoadError) return t('session.loadFailed');
  if (!isApiError(error)) return null;
  if (error.detail === 'too_many_attempts' || error.status === 429) return tooManyAttemptsMessage(error, t);
  if (error.detail === 'server_error' || error.status === 500) return t('errors.server_error');
  if (CLIENT_SIDE_DETAILS.has(error.detail)) return error.message;
  return null;
}

/** Spec §8, login: the listed codes by their texts, else the server's message, else the fallback. */
export function loginErrorMessage(error: unknown, t: TFunction): string {
  const common = commonSignInError(error, t);
  if (common !== null) return common;
  if (!isApiError(error)) return t('login.errors.failed');
  switch (error.detail) {
    case 'invalid_credentials':
    case 'email_not_verified':
    case 'account_disabled':
      // The spec's words, from the contract catalogue the server uses too.
      return t(`errors.${error.detail}`);
    default:
      break;
  }
  return serverMessage(error) ?? t('login.errors.failed');
}
