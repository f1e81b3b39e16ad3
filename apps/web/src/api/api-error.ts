// Every failed call reaches the UI as one ApiError: the HTTP status (0 when no answer came), the
// stable `detail` code of spec §8 and the contract, a message for the reader in the current
// language, and per-field messages for forms.
import { ERROR_STATUS, errorResponseSchema, isMessageCode, type ErrorCode } from '@debesis/contract';
import { AxiosError, isAxiosError } from 'axios';
import '../i18n/error-messages.ts';
import { i18n } from '../i18n/i18n.ts';

/** Codes for failures the server never saw or answered oddly; texts live in i18n `clientErrors`. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response' | 'canceled' | 'unknown_error';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly detail: string;
  readonly fieldErrors: Readonly<Record<string, string>>;

  constructor(
    status: number,
    detail: string,
    message: string,
    fieldErrors: Readonly<Record<string, string>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.status = status;
    this.detail = detail;
    this.fieldErrors = fieldErrors;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function clientError(code: ClientErrorCode, status = 0, cause?: unknown): ApiError {
  return new ApiError(status, code, i18n.t(`clientErrors.${code}`), {}, { cause });
}

const STATUS_CODES = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    // Several codes share 400 and 403; the generic one names the status best.
    .filter(([code]) => code !== 'invalid_json' && code !== 'csrf_invalid')
    .map(([code, status]) => [status, code]),
);

function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return STATUS_CODES.get(status) ?? 'server_error';
  return STATUS_CODES.get(status) ?? 'bad_request';
}

function fromResponse(status: number, body: unknown, cause: unknown): ApiError {
  const parsed = errorResponseSchema.safeParse(body);
  if (parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const { field, message } of parsed.data.errors ?? []) fieldErrors[field] ??= message;
    return new ApiError(status, parsed.data.detail, parsed.data.message, fieldErrors, { cause });
  }
  // A proxy page or a crash without our error body: name it after its status.
  const code = codeForStatus(status);
  return new ApiError(status, code, i18n.t(`errors.${code}`), {}, { cause });
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
    if (error.response) return fromResponse(error.response.status, error.response.data, error);
    if (error.code === AxiosError.ETIMEDOUT || hitDeadline(error)) return clientError('timeout', 0, error);
    if (error.code === AxiosError.ERR_CANCELED) return clientError('canceled', 0, error);
    return clientError('network_error', 0, error);
  }
  return clientError('unknown_error', 0, error);
}

/** The reader's text for a code the UI wants to name itself (e.g. a form's own validation). */
export function messageForCode(code: string): string | null {
  return isMessageCode(code) ? i18n.t(`errors.${code}`) : null;
}
