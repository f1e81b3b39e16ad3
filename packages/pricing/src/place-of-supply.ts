// Where a consumer of electronic services is, for VAT: the place of supply (Directive 2006/112/EC
// art. 58) decided from evidence, as Implementing Regulation 282/2011 art. 24b(d) and 24f let a
// supplier do with two non-contradictory pieces. The pieces we hold:
//   - billing address: the country of the billing info the customer saved (art. 24f(a));
//   - IP address: the country of the address the order is placed from, by GeoIP (art. 24f(b));
//   - account country: the country the account gave when it was made (registration form), which a
//     later profile change does not move; it is a fallback, not a piece of art. 24f on its own.
// The claim is the billing address, else the account country. It is confirmed by the IP country, or
// (when the IP has no country: private, loopback, unknown) by the account country. When the second
// piece contradicts the claim, the country with the higher VAT is taken, so contradicting evidence
// never lowers the VAT (the seller owes VAT it did not charge; too much charged can be credited).
// A business's reverse charge is decided by its VAT number, not here (art. 44: its establishment).
import { isEuCountry, normaliseCountry, standardRate } from './vat.ts';

export type EvidenceSource = 'billing_address' | 'ip_address' | 'account_country';

export interface PlaceOfSupplyEvidence {
  /** Country of the saved billing address; null when none is saved. */
  billingCountry: string | null;
  /** Country of the ordering request's IP address; null when unknown (private, loopback, not listed). */
  ipCountry: string | null;
  /** The account's country as registered; null when it never gave one. */
  accountCountry: string | null;
}

export interface PlaceOfSupply {
  country: string;
  /** `confirmed`: a second piece agrees; `contradicted`: it disagrees (the higher VAT won); `single`: no second piece. */
  basis: 'confirmed' | 'contradicted' | 'single';
  /** The pieces compared, claim first. */
  reliedOn: EvidenceSource[];
}

/** The VAT rate a consumer in `country` pays (0 outside the EU). */
function consumerRate(country: string): number {
  return isEuCountry(country) ? standardRate(country) : 0;
}

function code(country: string | null): string | null {
  if (!country) return null;
  try {
    return normaliseCountry(country);
  } catch {
    return null;
  }
}

/** The place of supply for a consumer; null when no piece names a country. */
export function placeOfSupply(evidence: PlaceOfSupplyEvidence): PlaceOfSupply | null {
  const billing = code(evidence.billingCountry);
  const ip = code(evidence.ipCountry);
  const account = code(evidence.accountCountry);
  const claim: [EvidenceSource, string] | null = billing
    ? ['billing_address', billing]
    : account
      ? ['account_country', account]
      : null;
  const second: [EvidenceSource, string] | null = ip
    ? ['ip_address', ip]
    : claim?.[0] === 'billing_address' && account
      ? ['account_country', account]
      : null;
  if (!claim) return second ? { country: second[1], basis: 'single', reliedOn: [second[0]] } : null;
  if (!second) return { country: claim[1], basis: 'single', reliedOn: [claim[0]] };
  const reliedOn = [claim[0], second[0]];
  if (second[1] === claim[1]) return { country: claim[1], basis: 'confirmed', reliedOn };
  const country = consumerRate(second[1]) > consumerRate(claim[1]) ? second[1] : claim[1];
  return { country, basis: 'contradicted', reliedOn };
}
