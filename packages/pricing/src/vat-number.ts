// EU VAT numbers checked offline: country prefix, format and check digits, for all 27 member states.
// The per-country rules come from `stdnum` (a maintained port of python-stdnum); this file only reads
// the prefix and sorts the outcome. Whether the number is registered is a VIES question, asked by the
// API with the `normalised` number this returns (prefix + number, e.g. "LT100001919017", "EL094259216").
import { euVat } from 'stdnum';
import { type EuCountry, isEuCountry, normaliseCountry } from './vat.ts';

/** The VAT prefix of a member state: its ISO code, except Greece (GR), whose numbers start EL. */
export function vatPrefixFor(country: EuCountry): string {
  return country === 'GR' ? 'EL' : country;
}

export type VatNumberProblem = 'empty' | 'missing_country' | 'not_eu' | 'invalid_format' | 'invalid_checksum';

export interface VatNumberCheck {
  /** What was given. */
  input: string;
  /** Prefix and number, upper case, no separators; null when no EU country could be read. */
  normalised: string | null;
  /** ISO code of the member state (GR for Greece); null when none could be read. */
  country: EuCountry | null;
  /** The prefix as VIES wants it (EL for Greece). */
  prefix: string | null;
  /** Right length and characters for the country. */
  valid_format: boolean;
  /** The check digits agree (false whenever the format is wrong). */
  valid_checksum: boolean;
  /** Format and checksum both right: worth asking VIES about. */
  valid: boolean;
  problem: VatNumberProblem | null;
}

/** What the API's VIES look-up does with a checked number; implemented outside this package. */
export type VatNumberRegistryLookup = (check: VatNumberCheck & { valid: true }) => Promise<{
  registered: boolean;
  name?: string;
  address?: string;
}>;

/**
 * Checks a VAT number by format and checksum. `raw` may carry its country prefix ("DE 136 695 976",
 * "el094259216"); without one, `country` (ISO code of the customer) supplies it. A prefix in `raw`
 * wins over `country`. Spaces, dots, dashes and slashes are ignored.
 */
export function checkVatNumber(raw: string, country?: string): VatNumberCheck {
  const fail = (problem: VatNumberProblem, found: EuCountry | null = null): VatNumberCheck => ({
    input: raw,
    normalised: null,
    country: found,
    prefix: found ? vatPrefixFor(found) : null,
    valid_format: false,
    valid_checksum: false,
    valid: false,
    problem,
  });
  const cleaned = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  if (cleaned === '') return fail('empty');

  let countryCode: string;
  let number: string;
  if (/^[A-Z]{2}/.test(cleaned)) {
    countryCode = normaliseCountry(cleaned.slice(0, 2));
    number = cleaned.slice(2);
  } else if (country !== undefined && /^\s*[A-Za-z]{2}\s*$/.test(country)) {
    countryCode = normaliseCountry(country);
    number = cleaned;
  } else {
    return fail('missing_country');
  }
  if (!isEuCountry(countryCode)) return fail('not_eu');
  if (number === '') return fail('invalid_format', countryCode);

  const validators = euVat[countryCode];
  if (!validators || validators.length === 0) return fail('invalid_format', countryCode);
  let checksumFailed = false;
  for (const validator of validators) {
    let result: ReturnType<typeof validator.validate>;
    try {
      result = validator.validate(number);
    } catch {
      continue;
    }
    if (result.isValid) {
      const prefix = vatPrefixFor(countryCode);
      return {
        input: raw,
        normalised: `${prefix}${result.compact}`,
        country: countryCode,
        prefix,
        valid_format: true,
        valid_checksum: true,
        valid: true,
        problem: null,
      };
    }
    if (result.error.name === 'InvalidChecksum') checksumFailed = true;
  }
  if (!checksumFailed) return fail('invalid_format', countryCode);
  const prefix = vatPrefixFor(countryCode);
  return {
    input: raw,
    normalised: `${prefix}${number}`,
    country: countryCode,
    prefix,
    valid_format: true,
    valid_checksum: false,
    valid: false,
    problem: 'invalid_checksum',
  };
}

/** The field error a VAT number typed into a form gets (codes of the contract's catalogue). */
export type VatNumberEntryError = 'invalid_vat_number' | 'invalid_vat_checksum' | 'vat_country_mismatch';

/**
 * Whether a VAT number may be saved where it enters (registration, conversion to business,
 * billing info): refused when its format or check digits are wrong for its member state. A number
 * of a state outside the EU is not ours to check, unless `country` (where the company or the
 * billing address is) is in the EU: an EU business's number has an EU prefix. Empty is no number;
 * whether one is required is the form's rule.
 */
export function vatNumberEntryError(raw: string, country?: string): VatNumberEntryError | null {
  const check = checkVatNumber(raw, country);
  const inEu = (code: string | undefined): code is string =>
    code !== undefined && /^[A-Za-z]{2}$/.test(code.trim()) && isEuCountry(normaliseCountry(code));
  switch (check.problem) {
    case null:
      // A business in a member state is registered there: a number of another state is not its
      // own (GR's numbers start EL, which normaliseCountry reads as GR).
      return inEu(country) && check.country !== normaliseCountry(country) ? 'vat_country_mismatch' : null;
    case 'empty':
      return null;
    case 'not_eu':
      return inEu(country) ? 'invalid_vat_number' : null;
    case 'missing_country':
    case 'invalid_format':
      return 'invalid_vat_number';
    case 'invalid_checksum':
      return 'invalid_vat_checksum';
  }
}
