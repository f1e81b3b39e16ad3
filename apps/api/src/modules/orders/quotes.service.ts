// Price and VAT quotes. The breakdown comes from @debesis/pricing, the same function the web
// app's preview runs, so what a customer sees is what they are charged.
//
// Two readings of the catalogue: `price` (orders) reads it from the database, so a charge always
// follows the catalogue as committed; `preview` (the calculate-price route, asked on every change
// in the plan picker) reads the in-memory catalogue snapshot, a few seconds old at most.
import type { PriceBreakdownResponse, Product } from '@debesis/contract';
import { calculatePrice, InvalidSelectionError, vatFor, vatOn, type VatDecision } from '@debesis/pricing';
import { checkVatNumber } from '@debesis/pricing/vat-number';
import { AppError } from '../../http/app-error.ts';
import type { ProductsService } from '../products/products.service.ts';

export interface VatCustomer {
  country: string;
  isBusiness: boolean;
  vatNumber?: string | undefined;
}

/** A VAT number counts only when its format and checksum hold and it belongs to the customer's country. */
export function vatNumberValidity(customer: VatCustomer): boolean | null {
  if (!customer.vatNumber) return null;
  const check = checkVatNumber(customer.vatNumber);
  const country = customer.country === 'GR' ? 'EL' : customer.country;
  return check.valid && check.prefix === country;
}

export function vatDecision(customer: VatCustomer): {
  decision: VatDecision;
  vatNumberValid: boolean | null;
} {
  const vatNumberValid = vatNumberValidity(customer);
  return {
    decision: vatFor({
      country: customer.country,
      isBusiness: customer.isBusiness,
      vatNumberValid: customer.isBusiness && vatNumberValid === true,
    }),
    vatNumberValid,
  };
}

type Selection = { product_id: string; disk_space: number; users_count: number; period_id: string };

const unknownProduct = () =>
  new AppError('validation_error', { fieldErrors: [{ field: 'product_id', code: 'invalid_value' }] });

export function createQuotesService(deps: { products: Pick<ProductsService, 'get' | 'snapshot'> }) {
  function quote(
    product: Product,
    selection: Selection,
    customer: VatCustomer | null,
  ): PriceBreakdownResponse {
    if (!product.is_active) throw unknownProduct();
    const vat = customer ? vatDecision(customer) : null;
    try {
      const breakdown = calculatePrice(product, selection, vat?.decision ?? null);
      return { ...breakdown, vat_number_valid: vat?.vatNumberValid ?? null };
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

    vat(amount: number, customer: VatCustomer) {
      const { decision, vatNumberValid } = vatDecision(customer);
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
        vat_number_valid: vatNumberValid,
        legal_note_key: decision.legal_note_key,
      };
    },
  };
}

export type QuotesService = ReturnType<typeof createQuotesService>;
