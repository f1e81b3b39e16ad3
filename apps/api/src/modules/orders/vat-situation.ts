// A signed-in account's VAT situation at the moment of a quote or an order: whether it is a
// business and its VAT number (the company details, which only support changes), and the evidence
// of where a consumer is (place of supply, packages/pricing/src/place-of-supply.ts): the saved
// billing address, the IP address's country and the country the account registered with. The
// profile country (PUT /users/me) is none of these: changing it alone never changes the VAT.
// Orders, extensions, plan changes and the signed-in price preview all ask here, so the price
// shown is the price charged; the evidence is frozen in the order's breakdown (`vat_evidence`).
import { placeOfSupply } from '@debesis/pricing';
import { AppError, notFound } from '../../http/app-error.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import type { VatCustomer } from './quotes.service.ts';

export function createVatSituation(deps: {
  users: Pick<UsersQueries, 'findById'>;
  /** The account's saved billing info (billing module); undefined until it is saved. */
  billingInfo: (accountId: string) => Promise<{ country: string } | undefined>;
  /** The country of an IP address (offline GeoIP); null when unknown. */
  ipCountry: (ip: string) => string | null;
}) {
  return async function vatCustomerOf(accountId: string, ip: string | null): Promise<VatCustomer> {
    const [user, billing] = await Promise.all([deps.users.findById(accountId), deps.billingInfo(accountId)]);
    if (!user) throw notFound();
    const isBusiness = user.accountType === 'business';
    const pieces = {
      billing_country: billing?.country || null,
      ip_country: ip ? deps.ipCountry(ip) : null,
      account_country: user.registrationCountry ?? user.company?.country ?? null,
    };
    const consumer = placeOfSupply({
      billingCountry: pieces.billing_country,
      ipCountry: pieces.ip_country,
      accountCountry: pieces.account_country,
    });
    // A business's VAT number must belong to its company's country, where it is established.
    const country = (isBusiness ? user.company?.country : null) ?? consumer?.country;
    if (!country) {
      throw new AppError('validation_error', {
        fieldErrors: [{ field: 'country', code: 'invalid_country' }],
      });
    }
    return {
      country,
      isBusiness,
      vatNumber: isBusiness ? (user.company?.vat_number ?? undefined) : undefined,
      evidence: { ...pieces, consumer },
    };
  };
}

export type VatCustomerOf = ReturnType<typeof createVatSituation>;
