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

export const sellerEnvironmentShape = {
  /** Legal name of the seller, as registered. */
  SELLER_NAME: z.string().trim().min(1).default('UAB „Debesis“'),
  /** Company code (juridinio asmens kodas). */
  SELLER_COMPANY_CODE: z.string().trim().min(1).default('300000000'),
  /** The seller's VAT number, with its country prefix. */
  SELLER_VAT_NUMBER: z.string().trim().min(3).default('LT100000000017'),
  SELLER_STREET: z.string().trim().min(1).default('Gedimino pr. 1'),
  SELLER_CITY: z.string().trim().min(1).default('Vilnius'),
  SELLER_POSTAL_CODE: z.string().trim().min(1).default('LT-01103'),
  /** ISO 3166-1 alpha-2 country of the seller. */
  SELLER_COUNTRY: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/)
    .default('LT'),
  /** Where customers write about invoices; printed on every invoice. */
  SELLER_EMAIL: z.email().default('billing@debesis.localhost'),
  /** Bank account shown on invoices, e.g. `LT12 1000 0111 0100 1000`; empty: none shown. */
  SELLER_IBAN: z.string().trim().default(''),
  /** First part of every invoice number: PREFIX-YEAR-000123. Letters and digits only. */
  INVOICE_NUMBER_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,10}$/)
    .default('DEB'),
  /** First part of every credit note number, its own gap-free series: PREFIX-YEAR-000001. */
  CREDIT_NOTE_NUMBER_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,10}$/)
    .default('CN'),
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
