// What the plan picker asks the API and how it prices: the VAT customer (signed-in user, else the
// detected country, else none), the instant price from @debesis/pricing and the server's
// confirmation from POST /orders/calculate-price, debounced. The server's answer wins.
import {
  detectCountryResponseSchema,
  type CalculatePriceRequest,
  priceBreakdownSchema,
  productConfigSchema,
  productSchema,
  type PriceBreakdownResponse,
  type Product,
} from '@debesis/contract';
import {
  calculatePrice,
  selectedOptionsFor,
  vatFor,
  type PlanSelection,
  type PriceBreakdown,
  type VatDecision,
} from '@debesis/pricing';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { api, isApiError, type ApiError } from '../../api/client.ts';
import { useSession } from '../../auth/session.ts';

export const PRODUCTS_PATH = '/api/v1/products/';
export const productConfigPath = (id: string) => `/api/v1/products/${encodeURIComponent(id)}/config`;
export const CALCULATE_PRICE_PATH = '/api/v1/orders/calculate-price';
export const DETECT_COUNTRY_PATH = '/api/v1/auth/detect-country';
/** How long the selection must rest before the server is asked to confirm the price. */
export const QUOTE_DEBOUNCE_MS = 300;

const productListSchema = z.array(productSchema);

export function useProducts() {
  return useQuery({ queryKey: ['products'], queryFn: () => api.get(PRODUCTS_PATH, productListSchema) });
}

/** The choices one product offers; nothing is asked while `productId` is null. */
export function useProductConfig(productId: string | null) {
  return useQuery({
    queryKey: ['products', productId, 'config'],
    queryFn:
      productId === null ? skipToken : () => api.get(productConfigPath(productId), productConfigSchema),
  });
}

export interface VatCustomer {
  /** Upper-case ISO 3166-1 alpha-2. */
  country: string;
  isBusiness: boolean;
  vatNumber: string | null;
}

function countryCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

/**
 * Whose VAT the price carries: the signed-in user's country and business details, else the
 * country detect-country finds, else nobody (the price is shown excluding VAT). `settled` is false
 * while the session or the detection is still on its way.
 */
export function useVatCustomer(): { customer: VatCustomer | null; settled: boolean } {
  const { status, user } = useSession();
  const userCountry = status === 'authenticated' ? countryCode(user?.country) : null;
  const detect = status !== 'loading' && userCountry === null;
  const detected = useQuery({
    queryKey: ['detect-country'],
    queryFn: () => api.get(DETECT_COUNTRY_PATH, detectCountryResponseSchema),
    enabled: detect,
    retry: false,
    staleTime: Infinity,
  });
  if (status === 'loading') return { customer: null, settled: false };
  if (userCountry !== null && user) {
    const isBusiness = user.account_type === 'business';
    return {
      customer: {
        country: userCountry,
        isBusiness,
        vatNumber: isBusiness ? (user.company?.vat_number ?? null) : null,
      },
      settled: true,
    };
  }
  if (detected.isPending) return { customer: null, settled: false };
  const country = countryCode(detected.data?.country);
  return { customer: country ? { country, isBusiness: false, vatNumber: null } : null, settled: true };
}

/**
 * The VAT decision the browser can make. A business's VAT number is taken as valid here (the
 * number was checked when the company was saved); the server checks it again and its answer wins.
 */
export function vatDecisionFor(customer: VatCustomer | null): VatDecision | null {
  if (!customer) return null;
  try {
    return vatFor({
      country: customer.country,
      isBusiness: customer.isBusiness,
      vatNumberValid: customer.isBusiness && Boolean(customer.vatNumber),
    });
  } catch {
    return null;
  }
}

/** The instant price, or null when the selection cannot be priced. */
export function localBreakdown(
  product: Product,
  selection: PlanSelection,
  customer: VatCustomer | null,
): PriceBreakdown | null {
  try {
    return calculatePrice(product, selection, vatDecisionFor(customer));
  } catch {
    return null;
  }
}

export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export type PriceQuoteRequest = Omit<CalculatePriceRequest, 'vat_number' | 'order_id'>;

/** POST /orders/calculate-price for `body`, priced for `customer`'s VAT (none: before VAT). */
export function requestPriceQuote(
  body: PriceQuoteRequest,
  customer: VatCustomer | null,
): Promise<PriceBreakdownResponse> {
  return api.post(
    CALCULATE_PRICE_PATH,
    {
      ...body,
      ...(customer?.isBusiness && customer.vatNumber ? { vat_number: customer.vatNumber } : {}),
    },
    priceBreakdownSchema,
    {
      params: customer
        ? { country: customer.country, is_business: customer.isBusiness }
        : { is_business: false },
    },
  );
}

/**
 * The server's price of an order about to be paid (`body`; null while there is none), asked once
 * the customer's VAT is settled. `flow` keeps a new plan's and an extension's quotes apart.
 */
export function useOrderQuote(flow: 'payment' | 'extension', body: PriceQuoteRequest | null) {
  const { customer, settled } = useVatCustomer();
  return useQuery({
    queryKey: ['price-quote', flow, body, customer],
    queryFn: body && settled ? () => requestPriceQuote(body, customer) : skipToken,
    retry: false,
  });
}

export interface ServerQuote {
  /** The server's breakdown of exactly the current selection, when it has answered. */
  breakdown: PriceBreakdownResponse | null;
  /** The server refused the current selection (422). */
  invalid: ApiError | null;
  /** Any other failure: the instant price stands, unconfirmed. */
  failed: boolean;
  checking: boolean;
}

/** Asks the server to price the current selection once it has rested for QUOTE_DEBOUNCE_MS. */
export function useServerQuote(
  product: Product,
  selection: PlanSelection,
  customer: VatCustomer | null,
  enabled: boolean,
): ServerQuote {
  const key = JSON.stringify([
    product.id,
    selection.disk_space,
    selection.users_count,
    selection.period_id,
    customer,
  ]);
  const upToDate = useDebouncedValue(key, QUOTE_DEBOUNCE_MS) === key;
  const query = useQuery({
    queryKey: ['price-quote', key],
    queryFn: () =>
      requestPriceQuote(
        {
          product_id: product.id,
          disk_space: selection.disk_space,
          users_count: selection.users_count,
          period_id: selection.period_id ?? '',
          selected_options: selectedOptionsFor(product, selection),
        },
        customer,
      ),
    enabled: enabled && upToDate,
    retry: false,
    staleTime: 5 * 60_000,
  });
  const current = enabled && upToDate;
  const error = current ? query.error : null;
  const invalid = isApiError(error) && error.status === 422 ? error : null;
  return {
    breakdown: current ? (query.data ?? null) : null,
    invalid,
    failed: error !== null && invalid === null,
    checking: enabled && (!upToDate || query.isFetching),
  };
}
