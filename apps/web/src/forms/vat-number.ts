// A VAT number checked in the form as the server checks it where it enters (registration,
// conversion to business, billing info): format and check digits of its member state, from stdnum
// through `@debesis/pricing/vat-number`. That module is about 200 kB, so it is loaded on demand,
// the first time a form checks a typed number, and no page carries it before (see pricing's index).
import type { VatNumberEntryError } from '@debesis/pricing/vat-number';
import type { z } from 'zod';

/** The catalogue code for a typed number that cannot exist; null for a good or empty one. */
export async function vatNumberError(
  value: string | null | undefined,
  country?: string,
): Promise<VatNumberEntryError | null> {
  if (!value || value.trim() === '') return null;
  const { vatNumberEntryError } = await import('@debesis/pricing/vat-number');
  return vatNumberEntryError(value, country || undefined);
}

/** For a schema's async refinement: the field error at `path` when the number fails. */
export async function refineVatNumber(
  value: string | null | undefined,
  country: string | undefined,
  context: z.RefinementCtx,
  path: PropertyKey[],
): Promise<void> {
  const code = await vatNumberError(value, country);
  if (code) context.addIssue({ code: 'custom', path, message: code });
}
