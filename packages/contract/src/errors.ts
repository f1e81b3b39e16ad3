// Every error the API can answer with: a stable `detail` code, its HTTP status, and the text a
// person reads in each language. The server fills `message` from here in the caller's language;
// the web app loads the same catalogue into i18n, so both always say the same words.
import { z } from 'zod';
import type { Language } from './constants.ts';

export const fieldErrorSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorResponseSchema = z.object({
  detail: z.string(),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Request-level errors: the `detail` of an error response. */
export const ERROR_STATUS = {
  validation_error: 422,
  invalid_json: 400,
  bad_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  csrf_invalid: 403,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_many_attempts: 429,
  service_unavailable: 503,
  server_error: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Field-level codes. A contract schema names one of these as its custom message
 * (`z.string().min(8, 'password_too_short')`), so the same schema gives the same words on the
 * server and in a form. Generic codes cover schemas that name none.
 */
export type FieldErrorCode =
  | 'required'
  | 'invalid_type'
  | 'too_short'
  | 'too_long'
  | 'too_small'
  | 'too_big'
  | 'invalid_format'
  | 'invalid_email'
  | 'invalid_value'
  | 'unknown_field'
  | 'invalid_theme'
  | 'invalid_language';

type Catalogue = Record<ErrorCode | FieldErrorCode, string>;

const en: Catalogue = {
  validation_error: 'Some fields are not valid. Please correct them and try again.',
  invalid_json: 'The request could not be read: its body is not valid JSON.',
  bad_request: 'The request could not be understood.',
  unsupported_media_type: 'The request body has a format the server does not accept.',
  payload_too_large: 'The request is too large.',
  csrf_invalid: 'Your security token is missing or out of date. Reload the page and try again.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'You do not have permission to do that.',
  not_found: 'Not found',
  too_many_attempts: 'Too many attempts. Please wait a moment and try again.',
  service_unavailable: 'The service is temporarily unavailable. Please try again later.',
  server_error: 'Server error. Please try again later',
  required: 'This field is required',
  invalid_type: 'This value has the wrong type',
  too_short: 'Must be at least {{minimum}} characters',
  too_long: 'Must be at most {{maximum}} characters',
  too_small: 'Must be at least {{minimum}}',
  too_big: 'Must be at most {{maximum}}',
  invalid_format: 'This value has the wrong format',
  invalid_email: 'Please enter a valid email address',
  invalid_value: 'This value is not allowed',
  unknown_field: 'This field is not expected',
  invalid_theme: 'Invalid theme selection',
  invalid_language: 'Invalid language selection',
};

const lt: Catalogue = {
  validation_error: 'Kai kurie laukai neteisingi. Pataisykite juos ir bandykite dar kartą.',
  invalid_json: 'Užklausos nepavyko perskaityti: jos turinys nėra tinkamas JSON.',
  bad_request: 'Užklausa nesuprantama.',
  unsupported_media_type: 'Užklausos turinio formato serveris nepriima.',
  payload_too_large: 'Užklausa per didelė.',
  csrf_invalid: 'Trūksta saugos žetono arba jis pasenęs. Perkraukite puslapį ir bandykite dar kartą.',
  unauthorized: 'Prisijunkite, kad galėtumėte tęsti.',
  forbidden: 'Neturite teisės to daryti.',
  not_found: 'Nerasta',
  too_many_attempts: 'Per daug bandymų. Šiek tiek palaukite ir bandykite dar kartą.',
  service_unavailable: 'Paslauga laikinai nepasiekiama. Bandykite vėliau.',
  server_error: 'Serverio klaida. Bandykite vėliau',
  required: 'Šis laukas privalomas',
  invalid_type: 'Šios reikšmės tipas netinkamas',
  too_short: 'Turi būti bent {{minimum}} simbolių',
  too_long: 'Turi būti ne daugiau kaip {{maximum}} simbolių',
  too_small: 'Turi būti ne mažiau kaip {{minimum}}',
  too_big: 'Turi būti ne daugiau kaip {{maximum}}',
  invalid_format: 'Netinkamas reikšmės formatas',
  invalid_email: 'Įveskite teisingą el. pašto adresą',
  invalid_value: 'Ši reikšmė neleidžiama',
  unknown_field: 'Šis laukas nenumatytas',
  invalid_theme: 'Netinkamas temos pasirinkimas',
  invalid_language: 'Netinkamas kalbos pasirinkimas',
};

export const errorMessages: Record<Language, Catalogue> = { en, lt };

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

export function isMessageCode(code: string): code is ErrorCode | FieldErrorCode {
  return Object.hasOwn(en, code);
}

/** The text of a code in a language, with `{{name}}` placeholders filled (i18next syntax). */
export function errorText(
  language: Language,
  code: ErrorCode | FieldErrorCode,
  values: Record<string, string | number> = {},
): string {
  return errorMessages[language][code].replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    String(values[name] ?? ''),
  );
}
