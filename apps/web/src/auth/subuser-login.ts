// Subuser sign-in (spec §2; service-management §3, §8): username, the service ID the owner gave,
// password, the 2FA code (or a backup code) when the server asks for it, and remember-me. The
// session's token is kept apart from the owner's (subuser-session.ts) and the subuser area opens.
import { subuserLoginResponseSchema, type SubuserLoginResponse } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { serverMessage } from '../api/api-error.ts';
import { api, isApiError } from '../api/client.ts';
import { commonSignInError } from './login.ts';
import { storeSubuserToken } from './subuser-session.ts';

export const SUBUSER_LOGIN_PATH = '/api/v1/subusers/auth/login';
/** Where a signed-in subuser works: its service's backups, nothing else. */
export const SUBUSER_AREA_PATH = '/subuser';

export interface SubuserCredentials {
  serviceId: string;
  username: string;
  password: string;
  twoFactorCode?: string | undefined;
  rememberMe: boolean;
}

/** Subuser sign-in cannot complete in this version of the app (no route, or no subuser area). */
export class SubuserSignInUnavailableError extends Error {
  override readonly name = 'SubuserSignInUnavailableError';
}

/** "Firefox on Windows": what the subuser's session list shows for this device. */
export function deviceName(userAgent: string = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Browser';
  const os = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'unknown system';
  return `${browser} on ${os}`;
}

export async function subuserLogin(credentials: SubuserCredentials): Promise<SubuserLoginResponse> {
  const body: Record<string, unknown> = {
    service_id: credentials.serviceId,
    username: credentials.username,
    password: credentials.password,
    device_name: deviceName(),
    remember_me: credentials.rememberMe,
  };
  if (credentials.twoFactorCode) body.two_factor_code = credentials.twoFactorCode;
  const session = await api.post(SUBUSER_LOGIN_PATH, body, subuserLoginResponseSchema);
  storeSubuserToken(session.access_token);
  return session;
}

const TWO_FACTOR_REQUIRED = new Set(['two_factor_required', '2fa_required']);
const INVALID_CODE = new Set(['invalid_two_factor_code', 'invalid_verification_code', 'invalid_2fa_code']);

export function subuserLoginErrorMessage(error: unknown, t: TFunction): string {
  if (error instanceof SubuserSignInUnavailableError) return t('login.subuser.unavailable');
  if (isApiError(error) && error.status === 404) return t('login.subuser.unavailable');
  const common = commonSignInError(error, t);
  if (common !== null) return common;
  if (!isApiError(error)) return t('login.errors.failed');
  if (TWO_FACTOR_REQUIRED.has(error.detail)) return t('login.subuser.twoFactorRequired');
  if (INVALID_CODE.has(error.detail)) return t('login.subuser.invalidCode');
  return serverMessage(error) ?? t('login.errors.failed');
}
