// The pages that ask for a mailed link (forgot password, resend verification) fail the same way:
// throttled (how long to wait), refused in the server's words, or not sent at all.
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/client.ts';
import { tooManyAttemptsMessage } from '../../auth/login.ts';

export function linkRequestErrorMessage(error: unknown, t: TFunction): string {
  if (!isApiError(error)) return t('clientErrors.unknown_error');
  return error.status === 429 ? tooManyAttemptsMessage(error, t) : error.message;
}
