// Errors are values with a stable code. A service throws `AppError`; the central handler
// turns it into `{detail, message, errors?}` in the caller's language.
import { ERROR_STATUS, type ErrorCode, type FieldErrorCode } from '@debesis/contract';

export interface AppFieldError {
  field: string;
  code: FieldErrorCode | (string & {});
  values?: Record<string, string | number>;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode | (string & {}),
    options: {
      status?: number;
      fieldErrors?: AppFieldError[];
      /** Extra top-level fields of the answer, such as `action: "login"`. */
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** Text used when the code has no catalogue entry (never shown for catalogue codes). */
      message?: string;
    } = {},
  ) {
    super(options.message ?? code);
    this.status = options.status ?? (code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : 400);
    this.fieldErrors = options.fieldErrors ?? [];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  readonly fieldErrors: AppFieldError[];
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

export const notFound = () => new AppError('not_found');
export const unauthorized = () => new AppError('unauthorized');
export const forbidden = () => new AppError('forbidden');
