// POST /api/v1/orders/calculate-price and /calculate-vat: quotes anyone may ask for (the plan
// picker shows prices before sign-in), so they change nothing and need no session. They are
// previews: the catalogue comes from the snapshot (see quotes.service.ts), orders price afresh.
// With a session, calculate-price prices with the account's VAT situation as its order will
// (vat-situation.ts), whatever country the query names, so the price shown is the price charged.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calculatePriceQuerySchema,
  calculatePriceRequestSchema,
  calculateVatRequestSchema,
  calculateVatResponseSchema,
  priceBreakdownSchema,
} from '@debesis/contract';
import type { AuthService } from '../auth/auth.service.ts';
import { bearerToken } from '../../http/caller.ts';
import type { QuotesService } from './quotes.service.ts';
import type { VatCustomerOf } from './vat-situation.ts';

export const quotesRoutes: FastifyPluginAsyncZod<{
  quotes: QuotesService;
  auth: Pick<AuthService, 'authenticate'>;
  customerOf: VatCustomerOf;
}> = async (app, { quotes, auth, customerOf }) => {
  app.post(
    '/calculate-price',
    {
      config: { access: 'public' },
      schema: {
        tags: ['orders'],
        summary:
          'Price breakdown of a plan selection; with a country, VAT included; signed in, the account’s VAT as its order will have it',
        querystring: calculatePriceQuerySchema,
        body: calculatePriceRequestSchema,
        response: { 200: priceBreakdownSchema },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      if (token) {
        const { userId } = await auth.authenticate(token);
        return quotes.preview(request.body, await customerOf(userId, request.ip));
      }
      return quotes.preview(
        request.body,
        request.query.country
          ? {
              country: request.query.country,
              isBusiness: request.query.is_business,
              vatNumber: request.body.vat_number,
            }
          : null,
      );
    },
  );

  app.post(
    '/calculate-vat',
    {
      config: { access: 'public' },
      schema: {
        tags: ['orders'],
        summary: 'VAT on an amount for a customer (Lithuanian seller of electronic services)',
        body: calculateVatRequestSchema,
        response: { 200: calculateVatResponseSchema },
      },
    },
    async (request) =>
      quotes.vat(request.body.amount, {
        country: request.body.country,
        isBusiness: request.body.is_company,
        vatNumber: request.body.vat_number,
      }),
  );
};
