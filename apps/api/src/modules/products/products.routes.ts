// /api/v1/products: the public catalogue, served from the catalogue snapshot (a few seconds old at
// most; see catalogue-snapshot.ts): every visitor of the plan page asks for it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  productConfigSchema,
  productIdParamsSchema,
  productListQuerySchema,
  productSchema,
} from '@debesis/contract';
import { compiledContractSerializer } from '../../http/contract-serializer.ts';
import type { ProductsService } from './products.service.ts';

export const productsRoutes: FastifyPluginAsyncZod<{ products: ProductsService }> = async (
  app,
  { products },
) => {
  app.get(
    '/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['products'],
        summary: 'Plans on sale (is_active_only=false lists withdrawn ones too)',
        querystring: productListQuerySchema,
        response: { 200: z.array(productSchema) },
      },
      // The plan page and the dashboard's plan picker ask it: written by the contract's compiled
      // JSON Schema (http/contract-serializer.ts), not checked by zod and stringified again.
      serializerCompiler: compiledContractSerializer,
    },
    async (request) => (await products.snapshot()).list(request.query.is_active_only),
  );

  app.get(
    '/:id',
    {
      config: { access: 'public' },
      schema: { tags: ['products'], params: productIdParamsSchema, response: { 200: productSchema } },
    },
    async (request) => (await products.snapshot()).get(request.params.id),
  );

  app.get(
    '/:id/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['products'],
        summary: 'Limits and defaults for the plan picker',
        params: productIdParamsSchema,
        response: { 200: productConfigSchema },
      },
    },
    async (request) => (await products.snapshot()).config(request.params.id),
  );
};
