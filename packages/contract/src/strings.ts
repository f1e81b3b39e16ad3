// The one string schema of the contract. PostgreSQL stores neither NUL nor half of a UTF-16
// surrogate pair (a lone surrogate cannot be written as UTF-8), so such text would reach the
// database and fail there. Every string the API reads or writes is `text()` instead of
// `z.string()`, so a form, the server and an agent refuse it alike, with the field's own error
// (`invalid_characters`). The lint rule bans `z.string()` in the contract and in route files,
// and `strings.security.test.ts` walks every exported schema, so a new schema cannot skip it.
import { z } from 'zod';

/** NUL, or a surrogate without its partner (with the `u` flag, a pair is one code point). */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** True when PostgreSQL could store the text as it is. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * `z.string()` that refuses NUL and lone surrogates first (`abort`: no later rule reports on
 * the same value). Chain the usual rules after it: `text().trim().max(200)`.
 */
export function text(params?: Parameters<typeof z.string>[0]): z.ZodString {
  // The lint rule's one allowed `z.string()`: this is where every other one comes from.
  // eslint-disable-next-line no-restricted-syntax
  return z.string(params).refine(isStorableText, { message: 'invalid_characters', abort: true });
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID (any version): an id a uuid column can be asked for. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
