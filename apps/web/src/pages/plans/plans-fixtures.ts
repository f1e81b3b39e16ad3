// The catalogue and fake API answers for the plan picker tests: the seed catalogue of
// @debesis/pricing, and a calculate-price that prices with calculatePrice as the API does.
import { CSRF_COOKIE, type Product, type ProductConfig } from '@debesis/contract';
import {
  CATALOGUE_SEED,
  calculatePrice,
  InvalidSelectionError,
  MAX_DISK_GB,
  MAX_USERS,
  vatFor,
  type PlanSelection,
} from '@debesis/pricing';
import { http, HttpResponse } from 'msw';

export const PRODUCTS: Product[] = CATALOGUE_SEED.map((product) => ({
  ...product,
  options: product.options.map((option) => ({ ...option })),
  periods: product.periods.map((period) => ({ ...period })),
}));

export function productById(id: string): Product {
  const product = PRODUCTS.find((candidate) => candidate.id === id);
  if (!product) throw new Error(`no product ${id}`);
  return product;
}

export function configOf(product: Product): ProductConfig {
  const disk = product.options.find((option) => option.type === 'disk_space');
  const users = product.options.find((option) => option.type === 'users');
  return {
    product_id: product.id,
    currency: 'EUR',
    disk_space: {
      min: product.disk_space,
      max: MAX_DISK_GB,
      step: disk?.value ?? 1,
      default: product.disk_space,
    },
    users: {
      min: product.allowed_users,
      max: MAX_USERS,
      step: users?.value ?? 1,
      default: product.allowed_users,
    },
    periods: product.periods,
    default_period_id: product.periods.find((period) => period.default)?.id ?? null,
    bandwidth_multiplier: 2,
  };
}

export interface PriceCall {
  body: Record<string, unknown>;
  country: string | null;
  isBusiness: string | null;
}

/** The catalogue reads and a calculate-price like the API's; `calls` collects what was asked. */
export function catalogueHandlers(calls: PriceCall[] = []) {
  return [
    http.get('/api/v1/products/', () => HttpResponse.json(PRODUCTS)),
    http.get('/api/v1/products/:id/config', ({ params }) =>
      HttpResponse.json(configOf(productById(String(params.id)))),
    ),
    http.post('/api/v1/orders/calculate-price', async ({ request }) => {
      const url = new URL(request.url);
      const body = (await request.json()) as Record<string, unknown>;
      const country = url.searchParams.get('country');
      const isBusiness = url.searchParams.get('is_business');
      calls.push({ body, country, isBusiness });
      const product = productById(String(body.product_id));
      const selection = body as unknown as PlanSelection;
      const vat = country
        ? vatFor({ country, isBusiness: isBusiness === 'true', vatNumberValid: Boolean(body.vat_number) })
        : null;
      try {
        return HttpResponse.json({ ...calculatePrice(product, selection, vat), vat_number_valid: null });
      } catch (error) {
        if (!(error instanceof InvalidSelectionError)) throw error;
        return HttpResponse.json(
          {
            detail: 'validation_error',
            message: 'Validation failed',
            errors: error.errors.map((problem) => ({
              field: problem.field,
              code: problem.code,
              message: `server: ${problem.code}`,
            })),
          },
          { status: 422 },
        );
      }
    }),
  ];
}

export function setCsrfCookie(): void {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
}
