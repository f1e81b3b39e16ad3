// Price and VAT quotes. The breakdown comes from @debesis/pricing, the same function the web
// app's preview runs, so what a customer sees is what they are charged.
//
// Two readings of the catalogue: `price` (orders) reads it from the database, so a charge always
// follows the catalogue as committed; `preview` (the calculate-price route, asked on every change
// in the plan picker) reads the in-memory catalogue snapshot, a few seconds old at most.
//
// A VAT number counts for the reverse charge when its format and checksum hold, it belongs to the
// customer's country and, when VIES is configured, VIES says it is registered. VIES is asked only
// when its answer can change the VAT: a business in another EU state than the seller's. When VIES
// cannot answer and has no recent answer cached (rules in vies/vies.service.ts), the number is
// unverified: no reverse charge, the customer country's VAT is charged, and `vat_number_check`
// says "vies_unavailable".
//
// A signed-in account's quote carries its evidence (vat-situation.ts): a business whose VAT number
// counts is taxed where its company is (reverse charge rules); anyone else where the evidence puts
// them (the place of supply), and the breakdown says so in `vat_evidence`.
import type { PriceBreakdownResponse, Product, VatEvidence, VatNumberCheckKind } from '@debesis/contract';
import {
  calculatePrice,
  InvalidSelectionError,
  isEuCountry,
  normaliseCountry,
  SELLER_COUNTRY,
  vatFor,
  vatOn,
  type PlaceOfSupply,
  type VatDecision,
} from '@debesis/pricing';
import { checkVatNumber } from '@debesis/pricing/vat-number';
import { AppError } from '../../http/app-error.ts';
import type { ProductsService } from '../products/products.service.ts';
import type { ViesService } from '../vies/vies.service.ts';

export interface VatCustomer {
  /** The country the VAT number must belong to and, without `evidence`, the country taxed. */
  country: string;
  isBusiness: boolean;
  vatNumber?: string | undefined;
  /** A signed-in account's evidence of where it is (vat-situation.ts); absent for anonymous quotes. */
  evidence?: {
    billing_country: string | null;
    ip_country: string | null;
    account_country: string | null;
    /** Where the evidence puts a consumer; null when no piece names a country. */
    consumer: PlaceOfSupply | null;
  };
}

export interface VatNumberStatus {
  /** The number counts for the reverse charge; null when none was given. */
  valid: boolean | null;
  /** How that was found; null when no number was given. */
  check: VatNumberCheckKind | null;
  /** VIES's consultation number, when VIES was asked and gave one. */
  consultationNumber: string | null;
}

const VIES_CHECK: Record<'valid' | 'invalid' | 'unavailable', VatNumberCheckKind> = {
  valid: 'vies_valid',
  invalid: 'vies_invalid',
  unavailable: 'vies_unavailable',
};

/**
 * Whether the customer's VAT number counts. Format and checksum first (offline, and they must
 * name the customer's country); then VIES, when configured and when the answer matters.
 */
export async function vatNumberStatus(
  customer: VatCustomer,
  vies: Pick<ViesService, 'verify'> | null,
): Promise<VatNumberStatus> {
  if (!customer.vatNumber) return { valid: null, check: null, consultationNumber: null };
  const check = checkVatNumber(customer.vatNumber);
  const country = normaliseCountry(customer.country);
  const prefix = country === 'GR' ? 'EL' : country;
  if (!check.valid || check.prefix !== prefix || !check.normalised) {
    return { valid: false, check: 'format', consultationNumber: null };
  }
  const matters = customer.isBusiness && isEuCountry(country) && country !== SELLER_COUNTRY;
  if (!vies || !matters) return { valid: true, check: 'format', consultationNumber: null };
  const { verdict, consultationNumber } = await vies.verify(prefix, check.normalised.slice(prefix.length));
  return { valid: verdict === 'valid', check: VIES_CHECK[verdict], consultationNumber };
}

/** Which of the customer's countries is taxed, and on what evidence (signed-in customers only). */
function placeTaxed(customer: VatCustomer, reverseCharge: boolean): VatEvidence | null {
  if (!customer.evidence) return null;
  const { consumer, ...pieces } = customer.evidence;
  if (consumer && !reverseCharge) {
    return { country: consumer.country, basis: consumer.basis, ...pieces, relied_on: consumer.reliedOn };
  }
  // A business established where its valid VAT number says (or, with no evidence, its company).
  const country = normaliseCountry(customer.country);
  return reverseCharge
    ? { country, basis: 'vat_number', ...pieces, relied_on: ['vat_number'] }
    : { country, basis: 'single', ...pieces, relied_on: [] };
}

export async function vatDecision(
  customer: VatCustomer,
  vies: Pick<ViesService, 'verify'> | null = null,
): Promise<{ decision: VatDecision; vatNumber: VatNumberStatus; evidence: VatEvidence | null }> {
  const vatNumber = await vatNumberStatus(customer, vies);
  const reverseCharge = customer.isBusiness && vatNumber.valid === true;
  const evidence = placeTaxed(customer, reverseCharge);
  return {
    decision: vatFor({
      country: evidence?.country ?? customer.country,
      isBusiness: customer.isBusiness,
      vatNumberValid: reverseCharge,
    }),
    vatNumber,
    evidence,
  };
}

type Selection = { product_id: string; disk_space: number; users_count: number; period_id: string };

const unknownProduct = () =>
  new AppError('validation_error', { fieldErrors: [{ field: 'product_id', code: 'invalid_value' }] });

export function createQuotesService(deps: {
  products: Pick<ProductsService, 'get' | 'snapshot'>;
  /** VIES look-ups; null when VIES_URL is not set (format and checksum only). */
  vies?: Pick<ViesService, 'verify'> | null;
}) {
  const vies = deps.vies ?? null;

  async function quote(
    product: Product,
    selection: Selection,
    customer: VatCustomer | null,
  ): Promise<PriceBreakdownResponse> {
    if (!product.is_active) throw unknownProduct();
    const vat = customer ? await vatDecision(customer, vies) : null;
    try {
      const breakdown = calculatePrice(product, selection, vat?.decision ?? null);
      return {
        ...breakdown,
        vat_number_valid: vat?.vatNumber.valid ?? null,
        vat_number_check: vat?.vatNumber.check ?? null,
        vies_consultation_number: vat?.vatNumber.consultationNumber ?? null,
        ...(vat?.evidence ? { vat_evidence: vat.evidence } : {}),
      };
    } catch (error) {
      if (!(error instanceof InvalidSelectionError)) throw error;
      throw new AppError('validation_error', {
        fieldErrors: error.errors.map((problem) => ({
          field: problem.field,
          code: problem.code,
          ...(problem.limit !== undefined ? { values: { limit: problem.limit } } : {}),
        })),
      });
    }
  }

  return {
    /** The price to charge: the product as the database has it now. Orders use this. */
    async price(selection: Selection, customer: VatCustomer | null): Promise<PriceBreakdownResponse> {
      const product = await deps.products.get(selection.product_id).catch(() => {
        throw unknownProduct();
      });
      return quote(product, selection, customer);
    },

    /** The same answer from the catalogue snapshot (a few seconds old at most): for previews. */
    async preview(selection: Selection, customer: VatCustomer | null): Promise<PriceBreakdownResponse> {
      const snapshot = await deps.products.snapshot();
      let product: Product;
      try {
        product = snapshot.get(selection.product_id);
      } catch {
        throw unknownProduct();
      }
      return quote(product, selection, customer);
    },

    async vat(amount: number, customer: VatCustomer) {
      const { decision, vatNumber, evidence } = await vatDecision(customer, vies);
      const applied = vatOn(amount, decision);
      return {
        amount,
        vat_rate: applied.vat_rate,
        vat_amount: applied.vat_amount,
        total: applied.total,
        currency: 'EUR' as const,
        reverse_charge: decision.reverse_charge,
        outside_scope: decision.outside_scope,
        reason: decision.reason,
        vat_number_valid: vatNumber.valid,
        vat_number_check: vatNumber.check,
        vies_consultation_number: vatNumber.consultationNumber,
        legal_note_key: decision.legal_note_key,
        ...(evidence ? { vat_evidence: evidence } : {}),
      };
    },
  };
}

export type QuotesService = ReturnType<typeof createQuotesService>;
