// The one check of a VAT number's form where it enters the API: registration, conversion to
// business and billing info. It sits beside VIES (which says whether a number is registered) so
// that auth, users and billing all ask it without depending on one another. The contract's schema has read its shape (prefix and characters); here stdnum's
// per-country format and check digits (`@debesis/pricing/vat-number`) refuse a number that cannot
// exist, with the field error a form shows under the field. Whether it is registered is VIES's
// question, asked when the number prices an order (orders/quotes.service.ts).
import { vatNumberEntryError } from '@debesis/pricing/vat-number';
import { AppError } from '../../http/app-error.ts';

/** Throws a validation error at `field` when the number fails format or checksum; null and '' pass. */
export function assertVatNumber(
  value: string | null | undefined,
  country: string | undefined,
  field: string,
) {
  if (!value) return;
  const code = vatNumberEntryError(value, country || undefined);
  if (code) throw new AppError('validation_error', { fieldErrors: [{ field, code }] });
}
