// VAT on electronically supplied services sold by a Lithuanian seller (Council Directive 2006/112/EC,
// place of supply: where the customer is, articles 44 and 58).
//   - customer in Lithuania, business or not: Lithuanian VAT, 21 %;
//   - business in another EU state with a valid VAT number: 0 %, reverse charge (article 196);
//   - any other customer in another EU state (consumer, or business without a valid number): that
//     state's standard rate (charged through the One-Stop Shop; the provider is taken to be above the
//     EUR 10,000 EU-wide threshold of article 59c, so the customer's state always applies);
//   - customer outside the EU: 0 %, outside the scope of EU VAT.
// Whether a number is valid is the caller's finding: format and checksum from ./vat-number.ts, and a
// VIES look-up by the API.

export const SELLER_COUNTRY = 'LT';

/** ISO 3166-1 alpha-2 codes of the 27 member states. Greece is GR here; its VAT numbers start EL. */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;
export type EuCountry = (typeof EU_COUNTRIES)[number];

export interface VatRate {
  name: string;
  /** Standard rate in percent (at most two decimals). */
  standard: number;
  /** When the rate took effect, where it changed recently. */
  since?: string;
}

/**
 * THE table of standard VAT rates, the one place a rate is written down. Standard rates only:
 * electronically supplied services (storage, network access) take the standard rate everywhere.
 * Mainland rates: special territories (Azores, Madeira, Corsica, Greek islands, Büsingen…) are not
 * distinguished. Northern Ireland (XI) is left out on purpose: for services it is outside the EU VAT
 * area and counts as the UK (outside the EU).
 *
 * Checked for 2026-11-21 against the European Commission's list "VAT rates applied in the Member
 * States of the European Union" and its Taxes in Europe Database (TEDB). Changes since 2024 are noted
 * with `since`. Estonia's 24 % was first enacted as temporary (to the end of 2028) and then made
 * permanent by the 2025 amendments. Rates that a state may have changed during 2026 after these
 * were checked must be confirmed against TEDB before each release; change them here and nowhere else.
 */
export const VAT_RATES = {
  source:
    'European Commission, "VAT rates applied in the Member States of the European Union" and the Taxes in Europe Database (TEDB), standard rates',
  correctFor: '2026-11-21',
  rates: {
    AT: { name: 'Austria', standard: 20 },
    BE: { name: 'Belgium', standard: 21 },
    BG: { name: 'Bulgaria', standard: 20 },
    CY: { name: 'Cyprus', standard: 19 },
    CZ: { name: 'Czechia', standard: 21 },
    DE: { name: 'Germany', standard: 19 },
    DK: { name: 'Denmark', standard: 25 },
    EE: { name: 'Estonia', standard: 24, since: '2025-07-01' },
    ES: { name: 'Spain', standard: 21 },
    FI: { name: 'Finland', standard: 25.5, since: '2024-09-01' },
    FR: { name: 'France', standard: 20 },
    GR: { name: 'Greece', standard: 24 },
    HR: { name: 'Croatia', standard: 25 },
    HU: { name: 'Hungary', standard: 27 },
    IE: { name: 'Ireland', standard: 23 },
    IT: { name: 'Italy', standard: 22 },
    LT: { name: 'Lithuania', standard: 21 },
    LU: { name: 'Luxembourg', standard: 17, since: '2024-01-01' },
    LV: { name: 'Latvia', standard: 21 },
    MT: { name: 'Malta', standard: 18 },
    NL: { name: 'Netherlands', standard: 21 },
    PL: { name: 'Poland', standard: 23 },
    PT: { name: 'Portugal', standard: 23 },
    RO: { name: 'Romania', standard: 21, since: '2025-08-01' },
    SE: { name: 'Sweden', standard: 25 },
    SI: { name: 'Slovenia', standard: 22 },
    SK: { name: 'Slovakia', standard: 23, since: '2025-01-01' },
  },
} as const satisfies { source: string; correctFor: string; rates: Record<EuCountry, VatRate> };

export function isEuCountry(country: string): country is EuCountry {
  return (EU_COUNTRIES as readonly string[]).includes(country);
}

/** A country code as this package reads it: upper case, two letters; the VAT prefix EL is read as GR. */
export function normaliseCountry(country: string): string {
  const code = country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) throw new RangeError(`country must be a two-letter code, got "${country}"`);
  return code === 'EL' ? 'GR' : code;
}

export function standardRate(country: EuCountry): number {
  return VAT_RATES.rates[country].standard;
}

export const VAT_REASONS = ['domestic', 'eu_consumer', 'eu_business_reverse_charge', 'outside_eu'] as const;
export type VatReason = (typeof VAT_REASONS)[number];

/** Keys of the wording an invoice must carry; the texts below are the English defaults. */
export const VAT_LEGAL_NOTES = {
  reverse_charge:
    'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC).',
  outside_scope: 'Outside the scope of EU VAT: the place of supply is outside the European Union.',
} as const;
export type VatLegalNoteKey = keyof typeof VAT_LEGAL_NOTES;

export interface VatCustomer {
  /** ISO 3166-1 alpha-2 country of the customer (GR for Greece; EL is accepted too). */
  country: string;
  isBusiness: boolean;
  /** True only when the customer's VAT number passed the format, checksum and VIES checks. */
  vatNumberValid: boolean;
}

export interface VatDecision {
  /** Rate in percent, at most two decimals. */
  rate: number;
  reverse_charge: boolean;
  /** The supply is outside the scope of EU VAT (customer outside the EU). */
  outside_scope: boolean;
  reason: VatReason;
  /** Normalised customer country. */
  country: string;
  /** The wording the invoice must carry, when there is one. */
  legal_note_key: VatLegalNoteKey | null;
}

/** Which VAT applies to a customer of the Lithuanian seller (see the head of this file). */
export function vatFor(customer: VatCustomer): VatDecision {
  const country = normaliseCountry(customer.country);
  if (!isEuCountry(country)) {
    return {
      rate: 0,
      reverse_charge: false,
      outside_scope: true,
      reason: 'outside_eu',
      country,
      legal_note_key: 'outside_scope',
    };
  }
  if (country === SELLER_COUNTRY) {
    return {
      rate: standardRate(country),
      reverse_charge: false,
      outside_scope: false,
      reason: 'domestic',
      country,
      legal_note_key: null,
    };
  }
  if (customer.isBusiness && customer.vatNumberValid) {
    return {
      rate: 0,
      reverse_charge: true,
      outside_scope: false,
      reason: 'eu_business_reverse_charge',
      country,
      legal_note_key: 'reverse_charge',
    };
  }
  return {
    rate: standardRate(country),
    reverse_charge: false,
    outside_scope: false,
    reason: 'eu_consumer',
    country,
    legal_note_key: null,
  };
}
