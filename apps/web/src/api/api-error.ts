// Every failed call reaches the UI as one ApiError: the HTTP status (0 when no answer came), the
// stable `detail` code of spec §8 and the contract, a message for the reader in the current
// language, and per-field messages for forms.
import { errorResponseSchema, isMessageCode, type ErrorCode } from '@debesis/contract';
import { AxiosError, AxiosHeaders, isAxiosError } from 'axios';
import '../i18n/error-messages.ts';
import { i18n } from '../i18n/i18n.ts';

/** Codes for failures the server never saw or answered oddly; texts live in i18n `clientErrors`. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response' | 'canceled' | 'unknown_error';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly detail: string;
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** The whole error body as the server sent it, for fields beyond the contract's (`action`). */
  readonly data: unknown;
  /** Seconds from a Retry-After header (429, 503), when the server gave one. */
  readonly retryAfterSeconds: number | null;

  constructor(
    status: number,
    detail: string,
    message: string,
    fieldErrors: Readonly<Record<string, string>> = {},
    options?: ErrorOptions & { data?: unknown; retryAfterSeconds?: number | null },
  ) {
    super(message, options);
    this.status = status;
    this.detail = detail;
    this.fieldErrors = fieldErrors;
    this.data = options?.data;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function clientError(code: ClientErrorCode, status = 0, cause?: unknown): ApiError {
  return new ApiError(status, code, i18n.t(`clientErrors.${code}`), {}, { cause });
}

/** The generic code naming each status, for an answer without our error body (a proxy page). */
const STATUS_CODES: ReadonlyMap<number, ErrorCode> = new Map<number, ErrorCode>([
  [400, 'bad_request'],
  [401, 'unauthorized'],
  [403, 'forbidden'],
  [404, 'not_found'],
  [413, 'payload_too_large'],
  [415, 'unsupported_media_type'],
  [422, 'validation_error'],
  [429, 'too_many_attempts'],
  [500, 'server_error'],
  [503, 'service_unavailable'],
]);

function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return STATUS_CODES.get(status) ?? 'server_error';
  return STATUS_CODES.get(status) ?? 'bad_request';
}

/** Retry-After as seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: unknown, now = Date.now()): number | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function fromResponse(status: number, body: unknown, headers: unknown, cause: unknown): ApiError {
  const retryAfter = parseRetryAfter(
    headers instanceof AxiosHeaders
      ? headers.get('retry-after')
      : (headers as Record<string, unknown> | undefined)?.['retry-after'],
  );
  const options = { cause, data: body, retryAfterSeconds: retryAfter };
  const parsed = errorResponseSchema.safeParse(body);
  if (parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const { field, message } of parsed.data.errors ?? []) fieldErrors[field] ??= message;
    return new ApiError(status, parsed.data.detail, parsed.data.message, fieldErrors, options);
  }
  // A proxy page or a crash without our error body: name it after its status.
  const code = codeForStatus(status);
  return new ApiError(status, code, i18n.t(`errors.${code}`), {}, options);
}

function hitDeadline(error: AxiosError): boolean {
  const signal = error.config?.signal as AbortSignal | undefined;
  // Compared by name: the reason may be a DOMException of another realm (tests, frames).
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  return typeof reason === 'object' && reason !== null && 'name' in reason && reason.name === 'TimeoutError';
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isAxiosError(error)) {
    if (error.response) {
      const { status, headers } = error.response;
      const data: unknown = error.response.data;
      return fromResponse(status, data, headers, error);
    }
    if (error.code === AxiosError.ETIMEDOUT || hitDeadline(error)) return clientError('timeout', 0, error);
    if (error.code === AxiosError.ERR_CANCELED) return clientError('canceled', 0, error);
    return clientError('network_error', 0, error);
  }
  return clientError('unknown_error', 0, error);
}

/**
 * The server's own message for this failure, or null when the answer carried none (a proxy page,
 * a bare status, no answer at all): then the UI's own fallback text says it better.
 */
export function serverMessage(error: ApiError): string | null {
  const data = error.data;
  return typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string'
    ? error.message
    : null;
}

/** The reader's text for a code the UI wants to name itself (e.g. a form's own validation). */
export function messageForCode(code: string): string | null {
  return isMessageCode(code) ? i18n.t(`errors.${code}`) : null;
}
