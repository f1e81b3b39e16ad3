// The text of a failed order (spec §8): the order's error_message, else 'Order processing
// failed', then ': ' and the details from error_details — JSON text (a string, or an object with a
// `message` field) or plain text. When the provider gave a reason code the texts know
// (payment.declined.*), that reason is shown in the reader's language instead.
import type { TFunction } from 'i18next';

/** The provider's reason code in error_details (`{"code": "card_declined", …}`), if it has one. */
export function failureCode(errorDetails: string | null | undefined): string | null {
  try {
    const parsed: unknown = JSON.parse(errorDetails ?? '');
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed && typeof parsed.code === 'string')
      return parsed.code;
  } catch {
    // Plain text: no code.
  }
  return null;
}

/** The readable part of error_details, or null when there is nothing to add. */
export function failureDetails(errorDetails: string | null | undefined): string | null {
  const raw = errorDetails?.trim() ?? '';
  if (raw === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof parsed === 'string') return parsed.trim() === '' ? null : parsed;
  if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
    const message: unknown = parsed.message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return raw;
}

export function failureMessage(
  errorMessage: string | null | undefined,
  errorDetails: string | null | undefined,
  fallback: string,
): string {
  const head = errorMessage?.trim() ? errorMessage : fallback;
  const details = failureDetails(errorDetails);
  return details === null ? head : `${head}: ${details}`;
}

/**
 * The provider's reason in the reader's language when its code is one the texts know
 * (payment.declined.*), else null (then the order's own words are shown).
 */
export function declinedReason(
  errorDetails: string | null | undefined,
  t: TFunction,
  exists: (key: string) => boolean,
): string | null {
  const code = failureCode(errorDetails);
  return code !== null && exists(`payment.declined.${code}`)
    ? t(`payment.declined.${code}` as 'payment.declined.card_declined')
    : null;
}
