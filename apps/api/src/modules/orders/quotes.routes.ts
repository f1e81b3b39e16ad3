// POST /api/v1/orders/calculate-price and /calculate-vat: quotes anyone may ask for (the plan
// picker shows prices before sign-in), so they change nothing and need no session. They are
// previews: the catalogue comes from the snapshot (see quotes.service.ts), orders price afresh.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calculatePriceQuerySchema,
  calculatePriceRequestSchema,
  calculateVatRequestSchema,
  calculateVatResponseSchema,
  priceBreakdownSchema,
} from '@debesis/contract';
import type { QuotesService } from './quotes.service.ts';

export const quotesRoutes: FastifyPluginAsyncZod<{ quotes: QuotesService }> = async (app, { quotes }) => {
  app.post(
    '/calculate-price',
    {
      schema: {
        tags: ['orders'],
        summary: 'Price breakdown of a plan selection; with a country, VAT included',
        querystring: calculatePriceQuerySchema,
        body: calculatePriceRequestSchema,
        response: { 200: priceBreakdownSchema },
      },
    },
    async (request) =>
      quotes.preview(
        request.body,
        request.query.country
          ? {
              country: request.query.country,
              isBusiness: request.query.is_business,
              vatNumber: request.body.vat_number,
            }
          : null,
      ),
  );

  app.post(
    '/calculate-vat',
    {
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
