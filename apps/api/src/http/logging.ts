// What the logs may say about a person. Every log line (the API's and the worker's) passes here
// once, so no call site has to remember: query strings keep only their harmless values (reset
// and verification links carry tokens), secrets by their key are dropped, e-mail addresses keep
// their first letter and domain, and a database error keeps its SQL and SQLSTATE but not the
// values it was sent (drizzle puts them in the message) nor PostgreSQL's `detail` (which quotes
// the row: "Key (email)=(…) already exists").
import pino, { type LoggerOptions } from 'pino';

const REDACTED = '[redacted]';

/** Keys whose value is a secret or a credential wherever it appears. */
const SECRET_KEY = /pass(word)?|token|secret|authorization|cookie|hash|signature|card|cvc|params/i;

/** Query parameters whose values say nothing about a person; every other value is hidden. */
const HARMLESS_QUERY_KEYS = new Set([
  'page',
  'per_page',
  'limit',
  'skip',
  'lines',
  'lang',
  'start_date',
  'end_date',
  'service_id',
  'provider',
]);

const EMAIL = /([\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]*@([\p{L}\p{N}.-]+\.[\p{L}]{2,})/gu;

/** `ona.onaite@example.lt` → `o…@example.lt`: enough to tell accounts apart in an incident. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, '$1…@$2');
}

/** `/auth/reset-password?token=abc&lang=lt` → `/auth/reset-password?token=…&lang=lt`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return maskEmails(url);
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const key = pair.slice(0, equals);
      return HARMLESS_QUERY_KEYS.has(key) ? pair : `${key}=…`;
    })
    .join('&');
  return `${maskEmails(url.slice(0, at))}?${query}`;
}

function scrub(value: unknown, key: string, depth: number): unknown {
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key)) return REDACTED;
    return key === 'url' ? redactUrl(value) : maskEmails(value);
  }
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) return value; // the `err` serializer below owns errors
  if (SECRET_KEY.test(key)) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => scrub(item, key, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([name, item]) => [
      name,
      scrub(item, name, depth + 1),
    ]),
  );
}

/** drizzle's `Failed query: …\nparams: <values>` keeps its SQL and loses its values. */
function withoutParams(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const at = text.indexOf('\nparams: ');
  if (at < 0) return maskEmails(text);
  const stackStart = text.indexOf('\n    at ', at);
  return `${text.slice(0, at)}\nparams: ${REDACTED}${stackStart < 0 ? '' : text.slice(stackStart)}`;
}

type SerializedError = Record<string, unknown> & { message?: string; stack?: string; cause?: unknown };

function scrubError(serialized: SerializedError, depth = 0): SerializedError {
  const result: SerializedError = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (key === 'message' || key === 'stack') result[key] = withoutParams(value as string | undefined);
    else if (key === 'detail' || key === 'params' || SECRET_KEY.test(key)) result[key] = REDACTED;
    else if (key === 'cause' && value && typeof value === 'object' && depth < 5)
      result[key] = scrubError(value as SerializedError, depth + 1);
    else result[key] = scrub(value, key, 1);
  }
  return result;
}

/** pino's error serializer (with the cause chain), without the values a query was sent. */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.errWithCause(error as Error) as unknown;
  return serialized && typeof serialized === 'object'
    ? scrubError(serialized as SerializedError)
    : serialized;
}

/** The options of every logger of the API and the worker. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { err: serializeError },
    formatters: { log: (object) => scrub(object, '', 0) as Record<string, unknown> },
  };
}
