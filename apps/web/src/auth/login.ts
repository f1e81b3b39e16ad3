// Owner sign-in (spec §3, §7, §8): a form-encoded OAuth2 password grant, tokens kept on success,
// and the spec's words for each way it can fail.
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { api, isApiError } from '../api/client.ts';
import { storeTokens } from './session.ts';

export const LOGIN_PATH = '/api/v1/auth/login';

// TODO(contract): move to @debesis/contract once the API declares its login response there.
const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
});

/** The server answered 2xx but without usable tokens. */
export class InvalidTokenResponseError extends Error {
  override readonly name = 'InvalidTokenResponseError';
}

export interface LoginCredentials {
  email: string;
  password: string;
}

export async function login({ email, password }: LoginCredentials): Promise<void> {
  const form = new URLSearchParams({ username: email, password, grant_type: 'password' });
  const answer = await api.post(LOGIN_PATH, form, z.unknown());
  const tokens = tokenResponseSchema.safeParse(answer);
  if (!tokens.success) throw new InvalidTokenResponseError();
  storeTokens({ accessToken: tokens.data.access_token, refreshToken: tokens.data.refresh_token });
}

const CLIENT_SIDE_DETAILS = new Set(['network_error', 'timeout', 'invalid_response', 'canceled']);

export function loginErrorMessage(error: unknown, t: TFunction): string {
  if (error instanceof InvalidTokenResponseError) return t('login.errors.invalid_token_response');
  if (!isApiError(error)) return t('login.errors.failed');
  switch (error.detail) {
    case 'invalid_credentials':
      return t('login.errors.invalid_credentials');
    case 'email_not_verified':
      return t('login.errors.email_not_verified');
    case 'account_disabled':
      return t('login.errors.account_disabled');
    case 'server_error':
      return t('errors.server_error');
    default:
      break;
  }
  if (error.status === 500) return t('errors.server_error');
  if (CLIENT_SIDE_DETAILS.has(error.detail)) return error.message;
  if (error.status > 0 && error.message) return error.message;
  return t('login.errors.failed');
}
