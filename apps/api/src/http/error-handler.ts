// The one place where failures become answers. Every error leaves as
// `{detail, message, errors?}` with the right status and the caller's language; nothing a
// client sends can produce a 500 or a stack trace. Unexpected errors are logged with the
// request id and answered as `server_error`.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorText, isMessageCode, type ErrorResponse, type Language } from '@debesis/contract';
import { AppError, type AppFieldError } from './app-error.ts';

interface ZodIssueParams {
  origin?: string;
  format?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  keys?: string[];
  expected?: string;
}

/** Maps one zod issue to a catalogue code. A schema's own message wins when it is a code. */
export function fieldErrorFromIssue(
  field: string,
  keyword: string,
  message: string,
  params: ZodIssueParams,
): AppFieldError {
  if (isMessageCode(message)) return { field, code: message };
  const limit = (value: number | bigint | undefined) => (value === undefined ? '' : Number(value));
  switch (keyword) {
    case 'invalid_type':
      return { field, code: /received undefined$/.test(message) ? 'required' : 'invalid_type' };
    case 'too_small':
      return params.origin === 'string'
        ? { field, code: 'too_short', values: { minimum: limit(params.minimum) } }
        : { field, code: 'too_small', values: { minimum: limit(params.minimum) } };
    case 'too_big':
      return params.origin === 'string'
        ? { field, code: 'too_long', values: { maximum: limit(params.maximum) } }
        : { field, code: 'too_big', values: { maximum: limit(params.maximum) } };
    case 'invalid_format':
      return { field, code: params.format === 'email' ? 'invalid_email' : 'invalid_format' };
    case 'unrecognized_keys':
      return { field, code: 'unknown_field' };
    default:
      return { field, code: 'invalid_value' };
  }
}

function renderFieldErrors(language: Language, errors: AppFieldError[]) {
  return errors.map((error) => ({
    field: error.field,
    code: error.code,
    message: isMessageCode(error.code)
      ? errorText(language, error.code, error.values)
      : errorText(language, 'invalid_value'),
  }));
}

/**
 * SQLSTATEs that only data a client sent can cause: PostgreSQL refused a value, not the
 * server's own SQL. The contract should refuse such values first (`text()`); these catch what
 * a schema misses (a JSON field of unknown shape, a string that slipped past review), so a
 * client's bad data never answers 500.
 */
const CLIENT_DATA_SQLSTATES: Record<string, 'invalid_characters' | 'validation_error'> = {
  '22021': 'invalid_characters', // character_not_in_repertoire: NUL in text
  '22P05': 'invalid_characters', // untranslatable_character: \u0000 in jsonb
  '22P02': 'validation_error', // invalid_text_representation: a lone surrogate in jsonb, a bad uuid
  '22001': 'validation_error', // string_data_right_truncation
  '22003': 'validation_error', // numeric_value_out_of_range
  '22007': 'validation_error', // invalid_datetime_format
  '22008': 'validation_error', // datetime_field_overflow
  '22019': 'validation_error', // invalid_escape_character
  '22025': 'validation_error', // invalid_escape_sequence (LIKE)
  '2201B': 'validation_error', // invalid_regular_expression
  '54000': 'validation_error', // program_limit_exceeded: e.g. an index row too large
};

/** The SQLSTATE of a PostgreSQL error (node-postgres or PGlite), also when drizzle wraps it. */
export function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, severity } = current as { code?: unknown; severity?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  const clientDataError = CLIENT_DATA_SQLSTATES[sqlStateOf(error) ?? ''];
  if (clientDataError) return new AppError(clientDataError);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    // One error per field, the first broken rule: schemas list rules from the most basic
    // (required) to the most specific, and a person fixes them in that order.
    const byField = new Map<string, AppFieldError>();
    for (const issue of error.validation) {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const field = context === 'body' ? path || 'body' : [context, path].filter(Boolean).join('.');
      if (!byField.has(field)) {
        byField.set(field, fieldErrorFromIssue(field, issue.keyword, issue.message ?? '', issue.params));
      }
    }
    return new AppError('validation_error', { fieldErrors: [...byField.values()] });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_CSRF_INVALID_TOKEN':
    case 'FST_CSRF_MISSING_SECRET':
      return new AppError('csrf_invalid');
    default:
      break;
  }
  if (error instanceof SyntaxError) return new AppError('invalid_json');
  const status = error.statusCode ?? 500;
  if (status === 429) return new AppError('too_many_attempts');
  if (status === 404) return new AppError('not_found');
  if (status === 401) return new AppError('unauthorized');
  if (status === 403) return new AppError('forbidden');
  if (status === 413) return new AppError('payload_too_large');
  if (status === 415) return new AppError('unsupported_media_type');
  if (status >= 400 && status < 500) return new AppError('bad_request', { status });
  if (status === 503) return new AppError('service_unavailable');
  return new AppError('server_error');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: ErrorResponse & Record<string, unknown> = {
    ...error.extra,
    detail: error.code,
    message: isMessageCode(error.code) ? errorText(request.language, error.code) : error.message,
  };
  if (error.fieldErrors.length > 0) body.errors = renderFieldErrors(request.language, error.fieldErrors);
  return reply.status(error.status).headers(error.headers).type('application/json').send(body);
}

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    const sqlState = sqlStateOf(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    // The database refused a client's value: a schema let it through, so say which route.
    else if (sqlState) request.log.warn({ detail: appError.code, sqlState }, 'database refused a value');
    else request.log.info({ detail: appError.code }, 'request refused');
    return sendError(request, reply, appError);
  });
});
