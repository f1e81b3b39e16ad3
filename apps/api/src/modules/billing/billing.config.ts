// The seller on every invoice, from the API's configuration. `config.ts` spreads
// `sellerEnvironmentShape` into its schema, so these are parsed and documented with every other
// variable. The defaults describe a made-up Lithuanian UAB for development and tests; a real
// deployment sets every one of them (an invoice with the sample company's details is not one).
import { z } from 'zod';
import type { InvoiceParty } from '@debesis/contract';

/**
 * What production must set itself: the sample company's details on a real invoice would make it
 * a document of somebody else (IBAN is optional; the number prefix and country have sane defaults).
 */
export const SELLER_REQUIRED_IN_PRODUCTION = [
  'SELLER_NAME',
  'SELLER_COMPANY_CODE',
  'SELLER_VAT_NUMBER',
  'SELLER_STREET',
  'SELLER_CITY',
  'SELLER_POSTAL_CODE',
  'SELLER_EMAIL',
] as const;

/** The defaults are the sample company: production refuses to start without its own (SELLER_REQUIRED_IN_PRODUCTION). */
const SAMPLE = 'The default is a sample for development; production must set its own.';

export const sellerEnvironmentShape = {
  SELLER_NAME: z
    .string()
    .trim()
    .min(1)
    .default('UAB „Debesis“')
    .describe(`Legal name of the seller, as registered, printed on every invoice. ${SAMPLE}`),
  SELLER_COMPANY_CODE: z
    .string()
    .trim()
    .min(1)
    .default('300000000')
    .describe(`Company code (juridinio asmens kodas). ${SAMPLE}`),
  SELLER_VAT_NUMBER: z
    .string()
    .trim()
    .min(3)
    .default('LT100000000017')
    .describe(`The seller's VAT number, with its country prefix. ${SAMPLE}`),
  SELLER_STREET: z
    .string()
    .trim()
    .min(1)
    .default('Gedimino pr. 1')
    .describe(`The seller's street address on invoices. ${SAMPLE}`),
  SELLER_CITY: z
    .string()
    .trim()
    .min(1)
    .default('Vilnius')
    .describe(`The seller's city on invoices. ${SAMPLE}`),
  SELLER_POSTAL_CODE: z
    .string()
    .trim()
    .min(1)
    .default('LT-01103')
    .describe(`The seller's postal code on invoices. ${SAMPLE}`),
  SELLER_COUNTRY: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/)
    .default('LT')
    .describe('ISO 3166-1 alpha-2 country of the seller.'),
  SELLER_EMAIL: z
    .email()
    .default('billing@debesis.localhost')
    .describe(`Where customers write about invoices; printed on every invoice. ${SAMPLE}`),
  SELLER_IBAN: z
    .string()
    .trim()
    .default('')
    .describe(
      'Bank account shown on invoices for bank transfers, e.g. `LT12 1000 0111 0100 1000`; empty: none shown.',
    ),
  INVOICE_NUMBER_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,10}$/)
    .default('DEB')
    .describe('First part of every invoice number: `DEB-2026-000123`. Letters and digits only.'),
  CREDIT_NOTE_NUMBER_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,10}$/)
    .default('CN')
    .describe(
      'First part of every credit note number, its own gap-free series: `CN-2026-000001`; must differ from `INVOICE_NUMBER_PREFIX`.',
    ),
};

type SellerEnvironment = {
  [K in keyof typeof sellerEnvironmentShape]: z.infer<(typeof sellerEnvironmentShape)[K]>;
};

export interface SellerDetails {
  party: InvoiceParty;
  iban: string | null;
  numberPrefix: string;
  creditNotePrefix: string;
}

export function sellerFromConfig(config: SellerEnvironment): SellerDetails {
  // Both series share one unique number column: equal prefixes would make twins.
  if (config.CREDIT_NOTE_NUMBER_PREFIX === config.INVOICE_NUMBER_PREFIX)
    throw new Error('CREDIT_NOTE_NUMBER_PREFIX must differ from INVOICE_NUMBER_PREFIX');
  return {
    party: {
      name: config.SELLER_NAME,
      company_code: config.SELLER_COMPANY_CODE,
      vat_number: config.SELLER_VAT_NUMBER,
      address: {
        street: config.SELLER_STREET,
        city: config.SELLER_CITY,
        state: '',
        postal_code: config.SELLER_POSTAL_CODE,
        country: config.SELLER_COUNTRY,
      },
      email: config.SELLER_EMAIL,
    },
    iban: config.SELLER_IBAN || null,
    numberPrefix: config.INVOICE_NUMBER_PREFIX,
    creditNotePrefix: config.CREDIT_NOTE_NUMBER_PREFIX,
  };
}
