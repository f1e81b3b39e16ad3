// The EU Commission's VIES REST API: is this VAT number registered in its member state?
//   POST {VIES_URL}/check-vat-number  {"countryCode": "DE", "vatNumber": "136695976"}
//   → {"countryCode", "vatNumber", "requestDate", "valid", "name", "address", …}
// With the seller's own VAT number as the requester (`requesterMemberStateCode`,
// `requesterNumber`), a valid answer carries a consultation number (`requestIdentifier`): the
// tax administrations' proof that this seller checked this number on that day.
// A failure comes back as `{"actionSucceed": false, "errorWrappers": [{"error": "MS_UNAVAILABLE"}]}`
// (with HTTP 200 as often as not), or, from the per-number GET endpoint and some proxies, as a
// `userError` next to the answer. Only INVALID_INPUT says something about the number; every other
// failure says VIES or the member state's registry could not answer now.
import { z } from 'zod';

export type ViesLookup =
  | {
      outcome: 'answered';
      valid: boolean;
      name: string | null;
      address: string | null;
      requestDate: string | null;
      /** The consultation number; null when asked without a requester or none was given. */
      requestIdentifier: string | null;
    }
  | { outcome: 'unavailable'; reason: string };

export interface ViesClient {
  /** `countryCode` is the VAT prefix (EL for Greece); `vatNumber` the number without it. */
  check(countryCode: string, vatNumber: string): Promise<ViesLookup>;
}

const answerSchema = z.looseObject({
  valid: z.boolean().optional(),
  isValid: z.boolean().optional(),
  name: z.string().nullish(),
  address: z.string().nullish(),
  requestDate: z.string().nullish(),
  requestIdentifier: z.string().nullish(),
  userError: z.string().nullish(),
  actionSucceed: z.boolean().optional(),
  errorWrappers: z.array(z.looseObject({ error: z.string().optional() })).optional(),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** VIES writes "---" where a member state gives no name or address. */
function present(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed && trimmed !== '---' ? trimmed : null;
}

/** The seller's VAT number split as VIES wants a requester: LT100000000017 → LT, 100000000017. */
export function viesRequester(sellerVatNumber: string): ViesRequester | null {
  const compact = sellerVatNumber.replace(/[\s.-]/g, '').toUpperCase();
  const match = /^([A-Z]{2})([0-9A-Z]{2,13})$/.exec(compact);
  return match?.[1] && match[2] ? { countryCode: match[1], vatNumber: match[2] } : null;
}

export interface ViesRequester {
  countryCode: string;
  vatNumber: string;
}

export function createViesClient(options: {
  baseUrl: string;
  timeoutMs: number;
  /** Who asks: with it, VIES gives a consultation number for each valid answer. */
  requester?: ViesRequester | null;
  fetch?: typeof fetch;
}): ViesClient {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/check-vat-number`;
  const fetchImpl = options.fetch ?? fetch;

  return {
    async check(countryCode, vatNumber) {
      let status: number;
      let text: string;
      try {
        const response = await fetchImpl(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            countryCode,
            vatNumber,
            ...(options.requester
              ? {
                  requesterMemberStateCode: options.requester.countryCode,
                  requesterNumber: options.requester.vatNumber,
                }
              : {}),
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        return { outcome: 'unavailable', reason: timedOut ? 'TIMEOUT' : 'NETWORK' };
      }
      const parsed = answerSchema.safeParse(parseJson(text));
      if (!parsed.success) return { outcome: 'unavailable', reason: `HTTP_${status}` };
      const answer = parsed.data;
      const error =
        answer.errorWrappers?.find((wrapper) => wrapper.error)?.error ??
        (answer.userError && answer.userError !== 'VALID' && answer.userError !== 'INVALID'
          ? answer.userError
          : undefined) ??
        (answer.actionSucceed === false ? 'SERVICE_UNAVAILABLE' : undefined);
      if (error === 'INVALID_INPUT') {
        return {
          outcome: 'answered',
          valid: false,
          name: null,
          address: null,
          requestDate: null,
          requestIdentifier: null,
        };
      }
      if (error) return { outcome: 'unavailable', reason: error };
      const valid = answer.valid ?? answer.isValid;
      if (valid === undefined || status >= 300) return { outcome: 'unavailable', reason: `HTTP_${status}` };
      return {
        outcome: 'answered',
        valid,
        name: present(answer.name),
        address: present(answer.address),
        requestDate: answer.requestDate ?? null,
        requestIdentifier: answer.requestIdentifier?.trim() || null,
      };
    },
  };
}
