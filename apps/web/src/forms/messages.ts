// Form messages are catalogue codes (contract errors.ts), translated when shown, so a message on
// screen follows a language switch. Contract schemas name their codes; for rules that name none,
// `formErrorMap` picks the generic code, with its values after a `?` ("too_long?maximum=200").
import { isMessageCode } from '@debesis/contract';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import '../i18n/error-messages.ts';
import { i18n } from '../i18n/i18n.ts';

type Issue = Parameters<NonNullable<z.core.$ZodErrorMap>>[0];

function withValues(code: string, values: Record<string, number | bigint | undefined>): string {
  const query = Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join('&');
  return query ? `${code}?${query}` : code;
}

/** Passed to zodResolver: the code for an issue whose schema gave no message of its own. */
export function formErrorMap(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      // An empty number field reads as NaN (valueAsNumber): nothing was typed.
      return issue.input === undefined || issue.input === null || Number.isNaN(issue.input)
        ? 'required'
        : 'invalid_type';
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? 'required' : withValues('too_short', { minimum: issue.minimum });
      }
      return withValues('too_small', { minimum: issue.minimum });
    case 'too_big':
      if (issue.origin === 'string') return withValues('too_long', { maximum: issue.maximum });
      return withValues('too_big', { maximum: issue.maximum });
    case 'invalid_format':
      return issue.format === 'email' ? 'invalid_email' : 'invalid_format';
    case 'unrecognized_keys':
      return 'unknown_field';
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'invalid_union':
    case 'invalid_value':
    case 'not_multiple_of':
      return 'invalid_value';
  }
}

/**
 * The reader's text for a form message: a catalogue code (with values) or one of the app's own
 * i18n keys is translated; anything else is already a sentence (a server message in the reader's
 * language) and shown as it is.
 */
export function fieldErrorText(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const [code = '', query = ''] = message.split('?', 2);
  const values: { minimum?: string; maximum?: string } = Object.fromEntries(new URLSearchParams(query));
  if (isMessageCode(code)) return t(`errors.${code}`, values);
  if (/^[a-z]\w*(\.\w+)+$/i.test(code) && i18n.exists(code)) return t(code as 'common.optional', values);
  return message;
}
